import { createCore } from '../../../src/bot/create-core.js';
import type { BotCore } from '../../../src/bot/core.js';
import type { CoreDeps } from '../../../src/bot/kernel/context.js';
import type { Platform } from '../../../src/contracts/incoming.js';
import { CatalogCache } from '../../../src/layerswap/catalog-cache.js';
import type { LayerswapApi, RequestOptions } from '../../../src/layerswap/api.js';
import { LayerswapClient } from '../../../src/layerswap/client.js';
import { ApiError } from '../../../src/layerswap/errors.js';
import type { GetSwapParams } from '../../../src/layerswap/params.js';
import type { SwapDetails, SwapPoll } from '../../../src/layerswap/schemas.js';
import { createRedis } from '../../../src/redis.js';
import { LanguageStore } from '../../../src/i18n/store.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import { ManualClock, type SandboxServer, type SandboxTimings } from '../../../src/sandbox/types.js';
import { isFinalStatus } from '../../../src/tracking/cadence.js';
import { createTracking, type Tracking, type TrackingDeps, type WorkerOptions } from '../../../src/tracking/engine.js';
import { targetKey } from '../../../src/tracking/keys.js';
import { TrackingKeys } from '../../../src/contracts/keys.js';
import { SwapStore, type Delivery } from '../../../src/tracking/swap-store.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../../support/redis.js';
import { waitFor, WAIT_MS } from '../../support/wait.js';
import { testRenderer } from './card.js';
import { RecordingMessenger } from './recording-messenger.js';

/** Real Redis, a real sandbox over HTTP driven by a ManualClock, and recording messengers. */

export { CARD_TITLE, isAbout, testCard } from './card.js';

/** Records every getSwap the engine makes: for which swap, when it started and ended, how it failed. */
class RecordingApi implements LayerswapApi {
  readonly polls: Array<{ swapId: string; at: number; end?: number; status?: number; retryAfterMs?: number }> = [];
  constructor(private readonly inner: LayerswapApi) {}
  getNetworks: LayerswapApi['getNetworks'] = (p, o) => this.inner.getNetworks(p, o);
  getDestinations: LayerswapApi['getDestinations'] = (p, o) => this.inner.getDestinations(p, o);
  getQuote: LayerswapApi['getQuote'] = (p, o) => this.inner.getQuote(p, o);
  createSwap: LayerswapApi['createSwap'] = (p, o) => this.inner.createSwap(p, o);
  getDepositActions: LayerswapApi['getDepositActions'] = (id, p, o) => this.inner.getDepositActions(id, p, o);
  getSources: LayerswapApi['getSources'] = (p, o) => this.inner.getSources(p, o);
  getLimits: LayerswapApi['getLimits'] = (p, o) => this.inner.getLimits(p, o);
  getSourceExchanges: LayerswapApi['getSourceExchanges'] = (p, o) => this.inner.getSourceExchanges(p, o);
  getDestinationExchanges: LayerswapApi['getDestinationExchanges'] = (p, o) => this.inner.getDestinationExchanges(p, o);
  getExchangeWithdrawalNetworks: LayerswapApi['getExchangeWithdrawalNetworks'] = (p, o) => this.inner.getExchangeWithdrawalNetworks(p, o);
  getExchangeDepositNetworks: LayerswapApi['getExchangeDepositNetworks'] = (p, o) => this.inner.getExchangeDepositNetworks(p, o);
  getSwapByTransactionHash: LayerswapApi['getSwapByTransactionHash'] = (h, o) => this.inner.getSwapByTransactionHash(h, o);
  listSwaps: LayerswapApi['listSwaps'] = (p, o) => this.inner.listSwaps(p, o);
  speedUpDeposit: LayerswapApi['speedUpDeposit'] = (id, p, o) => this.inner.speedUpDeposit(id, p, o);
  getTransactionStatus: LayerswapApi['getTransactionStatus'] = (p, o) => this.inner.getTransactionStatus(p, o);
  getSwap(swapId: string, params?: GetSwapParams, options?: RequestOptions): Promise<SwapDetails> {
    return this.record(swapId, () => this.inner.getSwap(swapId, params, options));
  }
  /** The poller's request (the real client's pollSwap), recorded like getSwap. */
  pollSwap(swapId: string, params?: GetSwapParams, options?: RequestOptions): Promise<SwapPoll> {
    const inner = this.inner.pollSwap?.bind(this.inner);
    if (!inner) throw new Error('the inner API has no pollSwap');
    return this.record(swapId, () => inner(swapId, params, options));
  }
  private async record<T>(swapId: string, call: () => Promise<T>): Promise<T> {
    const entry: RecordingApi['polls'][number] = { swapId, at: Date.now() };
    this.polls.push(entry);
    try {
      return await call();
    } catch (err) {
      if (err instanceof ApiError) {
        entry.status = err.status;
        if (err.retryAfterMs !== undefined) entry.retryAfterMs = err.retryAfterMs;
      }
      throw err;
    } finally {
      entry.end = Date.now();
    }
  }
  pollsOf(swapId: string): number[] {
    return this.polls.filter((p) => p.swapId === swapId).map((p) => p.at);
  }
}

export interface HarnessOptions {
  /** Another Redis than the shared test one (the embedded redis-server test). */
  redisUrl?: string;
  timings?: Partial<SandboxTimings>;
  tracking?: Partial<TrackingDeps>;
  fastMs?: number;
  slowMs?: number;
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;

export async function startHarness(opts: HarnessOptions = {}) {
  const clock = new ManualClock();
  const sandbox: SandboxServer = await startSandbox({
    clock,
    timings: {
      depositDelayMs: 'off',
      confirmationIntervalMs: 10_000,
      payoutDelayMs: 10_000,
      expiryMs: 3_600_000,
      refundDelayMs: 10_000,
      ...opts.timings,
    },
  });
  const client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: WAIT_MS });
  const api = new RecordingApi(client);
  const messengers = {
    telegram: new RecordingMessenger('telegram'),
    discord: new RecordingMessenger('discord'),
    console: new RecordingMessenger('console'),
    mcp: new RecordingMessenger('mcp'),
  } satisfies Record<Platform, RecordingMessenger>;
  const prefix = uniquePrefix('trk');
  const keys = new TrackingKeys(prefix);
  const redisUrl = opts.redisUrl ?? testRedisUrl();
  const redis = createRedis(redisUrl, { maxRetriesPerRequest: null });
  const fastMs = opts.fastMs ?? 50;
  const tracking: Tracking = createTracking({
    redis: redisUrl,
    prefix,
    api,
    limits: { maxPerChat: 1000, maxPerUser: 1000 },
    cadence: { fastMs, slowMs: opts.slowMs ?? 100, stuckFactor: 4 },
    now: () => clock.now(),
    apiRate: { max: 100_000, duration: 1000 },
    platformRates: { telegram: { max: 100_000, duration: 1000 }, discord: { max: 100_000, duration: 1000 } },
    workers: { notifyBackoffMs: 100 },
    // The core's /language choices under the same prefix, as in production (one REDIS_PREFIX).
    languages: new LanguageStore(redis, prefix),
    ...opts.tracking,
  });

  let n = 0;
  async function createSwap(options: { refund?: boolean; amount?: number } = {}): Promise<string> {
    n++;
    const details = await client.createSwap({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: `0x${n.toString(16).padStart(40, 'a')}`,
      amount: options.amount ?? 100,
      use_deposit_address: true,
      ...(options.refund ? { refund_address: `0x${n.toString(16).padStart(40, 'b')}` } : {}),
    });
    return details.swap.id;
  }

  const store = new SwapStore(redis, keys);
  /** Starts the workers with the recording messengers and the test renderer. */
  const startWorkers = (o: Partial<WorkerOptions> = {}) => tracking.startWorkers({ messengers, render: testRenderer, ...o });

  function deliveries(swapId: string): Promise<Map<string, Delivery>> {
    return store.deliveries(swapId);
  }

  /** True when a swap was polled after the clock's current time and every follower has it all. */
  async function isSettled(swapId: string): Promise<boolean> {
    const followers = (await store.followers(swapId)).map((f) => targetKey(f));
    if (followers.length === 0) return true; // nobody to tell; its poll job ends
    const state = await store.load(swapId);
    if (!state) return false;
    if (!isFinalStatus(state.status) && !state.abandoned && state.lastPolledAt < clock.now()) return false;
    const moments = (await store.snapshotFor(swapId, '')).moments.length;
    const d = await deliveries(swapId);
    return followers.every((tk) => {
      const x = d.get(tk);
      return x !== undefined && x.version >= state.version && x.moments >= moments;
    });
  }

  /** Waits until every swap was polled since the last clock move and every chat is up to date. */
  async function settle(swapIds: readonly string[]): Promise<void> {
    let pending = [...swapIds];
    try {
      await waitFor(async () => {
        const done = await Promise.all(pending.map(isSettled));
        pending = pending.filter((_, i) => !done[i]);
        return pending.length === 0;
      }, `${swapIds.length} swaps to settle`);
    } catch (err) {
      const id = pending[0] as string;
      const why = {
        pending: pending.length,
        clock: clock.now(),
        state: await tracking.swapState(id),
        deliveries: Object.fromEntries(await deliveries(id)),
      };
      throw new Error(`${(err as Error).message}: ${JSON.stringify(why)}`, { cause: err });
    }
  }

  /** Moves sandbox time 10 s at a time, settling after each step, until the swap completes (at most `steps` steps). */
  async function settleUntilCompleted(swapId: string, steps: number): Promise<void> {
    for (let k = 0; k < steps && (await tracking.swapState(swapId))?.status !== 'completed'; k++) {
      clock.advance(10_000);
      await settle([swapId]);
    }
  }

  async function close(): Promise<void> {
    await tracking.close();
    await sandbox.close();
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (found.length) await redis.del(...found);
    } while (cursor !== '0');
    redis.disconnect();
  }

  return {
    clock,
    sandbox,
    client,
    api,
    messengers,
    prefix,
    keys,
    redis,
    store,
    tracking,
    startWorkers,
    createSwap,
    deliveries,
    isSettled,
    settle,
    settleUntilCompleted,
    close,
  };
}

/**
 * The bot's core over this harness as production lays it out: one prefix for core and tracking
 * (both read the same /language choices and route times), the harness's clock; `over` replaces a
 * part (an API in front of the sandbox, say).
 */
export function coreOver(h: Harness, over: Partial<CoreDeps> = {}): BotCore {
  return createCore(coreDepsOver(h, over));
}

/** What coreOver builds the core from (the agent surface builds its own core from it). */
export function coreDepsOver(h: Harness, over: Partial<CoreDeps> = {}): CoreDeps {
  return {
    api: h.client,
    catalog: new CatalogCache(h.client, { ttlMs: 60_000, now: () => h.clock.now() }),
    redis: testRedis(h.prefix),
    keyPrefix: h.prefix,
    tracking: h.tracking.service,
    limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 },
    now: () => h.clock.now(),
    ...over,
  };
}

import { Pool } from 'undici';
import type { Platform } from '../src/contracts/incoming.js';
import { LayerswapClient } from '../src/layerswap/client.js';
import { createTracking, type Tracking } from '../src/tracking/engine.js';
import type { RateLimit } from '../src/tracking/queues.js';
import { CONFIG_DEFAULTS } from './defaults.js';
import type { BenchRedis } from './env.js';
import { ChildHandle } from './ipc.js';
import { startDiscordSink, type DiscordSink } from './sinks/discord-sink.js';
import { startTelegramSink, type TelegramSink } from './sinks/telegram-sink.js';
import type { ScaledTime } from './clock.js';
import type { ChainReadings, SandboxStart } from './sandbox-child.js';
import type { WorkerConfig } from './worker-child.js';

/**
 * Everything the parts of the benchmark share: Redis, the sandbox in its child process (on a
 * hand-moved clock), the fake Telegram and Discord, and helpers to make swaps and workers.
 */

export const SANDBOX_TIMINGS = {
  /** Swaps wait for a deposit until the benchmark makes one (and never change by themselves). */
  depositDelayMs: 'off' as const,
  confirmationIntervalMs: 2_000,
  payoutDelayMs: 5_000,
  expiryMs: 6 * 3_600_000,
  refundDelayMs: 10_000,
};

/** The route every benchmark swap takes: 12 confirmations on Ethereum, so there are steps to watch. */
export const SWAP_BODY = {
  source_network: 'ETHEREUM_MAINNET',
  source_token: 'USDC',
  destination_network: 'ARBITRUM_MAINNET',
  destination_token: 'USDC',
  destination_address: '0x52908400098527886E0F7030069857D2E4169EE7',
  amount: 100,
};

/** Limits for the benchmark's followers (one chat can follow thousands of swaps here). */
export const BENCH_LIMITS = { maxPerChat: 100_000, maxPerUser: 1_000_000 };
/** The local sandbox needs no protection: the poll queue's API limiter is lifted (default 50/s). */
const UNLIMITED_API: RateLimit = { max: 1_000_000, duration: 1000 };

export class SandboxHandle {
  private constructor(
    readonly child: ChildHandle,
    readonly url: string,
    readonly apiKey: string,
    /** The chain row's RPC for the bot (counted), when the sandbox runs on a chain. */
    readonly rpcUrl?: string,
  ) {}

  static async start(options: Omit<SandboxStart, 'apiKey'> = { timings: SANDBOX_TIMINGS }, name = 'sandbox'): Promise<SandboxHandle> {
    const child = ChildHandle.start(name, 'sandbox-child.js');
    const apiKey = 'bench-sandbox-key';
    const { url, rpcUrl } = await child.call<{ url: string; rpcUrl?: string }>('start', { apiKey, ...options } satisfies SandboxStart);
    return new SandboxHandle(child, url, apiKey, rpcUrl);
  }
  chainReadings(): Promise<ChainReadings> {
    return this.child.call('chainReadings');
  }

  /** Moves the sandbox clock: every deposited swap moves on by this much sandbox time. */
  advance(ms: number): Promise<number> {
    return this.child.call('advance', ms);
  }
  /** Deposits now; resolves to the sandbox time of each deposit. */
  deposit(ids: string[]): Promise<number[]> {
    return this.child.call('deposit', ids);
  }
  /** Moves a scaled clock to a new speed (from its current reading). */
  setTime(t: ScaledTime): Promise<number> {
    return this.child.call('setTime', t);
  }
  now(): Promise<number> {
    return this.child.call('now');
  }
  webhookStats(): Promise<{ attempted: number; delivered: number; failed: number }> {
    return this.child.call('webhookStats');
  }
  count(operation?: string): Promise<number> {
    return this.child.call('count', operation);
  }
  memory(): Promise<{ rss: number }> {
    return this.child.call('memory');
  }
  stop(): Promise<void> {
    return this.child.stop();
  }
}

export class Bench {
  readonly pool: Pool;
  readonly api: LayerswapClient;

  private constructor(
    readonly redis: BenchRedis,
    readonly sandbox: SandboxHandle,
    readonly telegram: TelegramSink,
    readonly discord: DiscordSink,
  ) {
    this.pool = new Pool(sandbox.url, { connections: 32 });
    this.api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  }

  static async start(redis: BenchRedis): Promise<Bench> {
    const [sandbox, telegram, discord] = await Promise.all([SandboxHandle.start(), startTelegramSink(), startDiscordSink()]);
    return new Bench(redis, sandbox, telegram, discord);
  }

  /** Creates swaps through POST /api/v2/swaps (the sandbox has no bulk path); returns their ids. */
  async createSwaps(n: number, concurrency = 48): Promise<string[]> {
    const ids: string[] = [];
    const body = JSON.stringify(SWAP_BODY);
    let left = n;
    const one = async () => {
      while (left > 0) {
        left--;
        const res = await this.pool.request({
          method: 'POST',
          path: '/api/v2/swaps',
          headers: { 'content-type': 'application/json', 'x-ls-apikey': this.sandbox.apiKey },
          body,
        });
        const json = (await res.body.json()) as { data?: { swap?: { id?: string } }; error?: { message?: string } };
        const id = json.data?.swap?.id;
        if (!id) throw new Error(`sandbox refused a swap: ${json.error?.message ?? res.statusCode}`);
        ids.push(id);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, one));
    return ids;
  }

  /** Worker settings for a part of the benchmark (its own key prefix). */
  workerConfig(prefix: string, over: Partial<WorkerConfig> & Pick<WorkerConfig, 'cadence'>): WorkerConfig {
    return {
      redisUrl: this.redis.url,
      prefix,
      sandboxUrl: this.sandbox.url,
      apiKey: this.sandbox.apiKey,
      apiRate: UNLIMITED_API,
      concurrency: CONFIG_DEFAULTS.TRACK_POLL_CONCURRENCY,
      poll: true,
      notify: true,
      telegram: { apiRoot: this.telegram.apiRoot, token: this.telegram.token },
      discord: { api: this.discord.api, token: this.discord.token },
      limits: BENCH_LIMITS,
      ...over,
    };
  }

  /** Starts a worker process; resolves once its workers are ready. */
  async startWorker(name: string, config: WorkerConfig): Promise<{ handle: ChildHandle; startMs: number }> {
    const handle = ChildHandle.start(name, 'worker-child.js');
    const { startMs } = await handle.call<{ startMs: number }>('start', config);
    return { handle, startMs };
  }

  /** A tracking instance in this process without workers: follow() and queue counts. */
  controller(
    prefix: string,
    cadence: WorkerConfig['cadence'],
    platformRates?: Partial<Record<Platform, RateLimit>>,
    on?: { api: LayerswapClient; now: () => number },
  ): Tracking {
    return createTracking({
      redis: this.redis.url,
      prefix,
      api: on?.api ?? this.api,
      ...(on ? { now: on.now } : {}),
      limits: BENCH_LIMITS,
      cadence,
      ...(platformRates ? { platformRates } : {}),
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.sandbox.stop(), this.telegram.close(), this.discord.close(), this.pool.close()]);
  }
}

/** Runs `fn` over items with `concurrency` in flight. */
export async function eachLimit<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  let i = 0;
  const one = async () => {
    while (i < items.length) {
      const k = i++;
      await fn(items[k] as T, k);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, one));
}

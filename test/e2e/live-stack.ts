import type { PayLinks } from '../../src/contracts/pay.js';
import type { Redis } from 'ioredis';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { depositCardAfter } from '../../src/bot/deposit/lifecycle.js';
import { statusCard } from '../../src/bot/status/card.js';
import type { BotCore } from '../../src/bot/core.js';
import { createCore } from '../../src/bot/create-core.js';
import type { Messenger } from '../../src/contracts/messenger.js';
import type { TrackingRenderer } from '../../src/contracts/tracking.js';
import type { ConsoleChat } from '../../src/platforms/console/bot.js';
import type { SwapDetails } from '../../src/layerswap/schemas.js';
import type { WorkerOptions } from '../../src/tracking/engine.js';
import { CatalogCache } from '../../src/layerswap/catalog-cache.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import type { Logger } from '../../src/log.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { LanguageStore } from '../../src/i18n/store.js';
import { memoryLogger } from '../support/log.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { waitFor, WAIT_MS } from '../support/wait.js';

/**
 * The real product behind a fake platform: the sandbox (manual clock, deposits on demand), the
 * client and the warmed catalogue, the core on real Redis under a unique prefix, and the tracking
 * engine delivering through the platform's real messenger to the same fake.
 */
export interface LiveStack {
  clock: ManualClock;
  sandbox: SandboxServer;
  api: LayerswapClient;
  core: BotCore;
  tracking: Tracking;
  redis: Redis;
  /** The core's key prefix (the platform adapter's keys go under it too, as in production). */
  prefix: string;
  logger: Logger;
  logLines: string[];
  close(): Promise<void>;
}

export async function startLiveStack(
  name: string,
  messengers: WorkerOptions['messengers'],
  /** The pay page's links, when a test wants the "Pay from wallet" button (test/pay). */
  opts: { payLinks?: (now: () => number) => PayLinks } = {},
): Promise<LiveStack> {
  const clock = new ManualClock();
  const sandbox = await startSandbox({
    clock,
    timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 10_000, expiryMs: 3_600_000, refundDelayMs: 10_000 },
  });
  const api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: WAIT_MS });
  const catalog = new CatalogCache(api, { ttlMs: 3_600_000, now: () => clock.now() });
  await catalog.warm(); // as the web process does at start: autocomplete reads only the cache
  const prefix = uniquePrefix(name);
  const redis = testRedis(prefix);
  // No secrets given to the redaction: nothing may log a token at all.
  const { logger, lines } = memoryLogger();
  const rate = { max: 100_000, duration: 1000 };
  const tracking = createTracking({
    redis: testRedisUrl(),
    // One prefix for the core and tracking, as in production: the quote card reads the route
    // times tracking records.
    prefix,
    api,
    limits: { maxPerChat: 100, maxPerUser: 100 },
    cadence: { fastMs: 50, slowMs: 100, stuckFactor: 4 },
    now: () => clock.now(),
    apiRate: rate,
    platformRates: { telegram: rate, discord: rate },
    workers: { notifyBackoffMs: 100 },
    // Watched addresses checked on the sandbox clock: every 1-8 s of it, looked at every 50 real ms.
    watch: { tickMs: 50, minMs: 1_000, maxMs: 8_000 },
    logger,
    languages: new LanguageStore(redis, prefix),
  });
  // The production renderer, with the card's "now" read from the sandbox clock.
  const render: TrackingRenderer<SwapDetails> = {
    ...trackingRenderer,
    depositCard: (details, locale) => depositCardAfter(details, clock.now(), locale),
    card: (details, _target, view, locale, audience) =>
      statusCard(details, {
        audience,
        locale,
        now: clock.now(),
        ...(view ? { followed: view } : {}),
      }),
  };
  await tracking.startWorkers({ messengers, render });
  const core = createCore({
    api,
    catalog,
    redis,
    keyPrefix: prefix,
    tracking: tracking.service,
    limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 },
    now: () => clock.now(),
    logger,
    ...(opts.payLinks ? { payLinks: opts.payLinks(() => clock.now()) } : {}),
  });
  return {
    clock,
    sandbox,
    api,
    core,
    tracking,
    redis,
    prefix,
    logger,
    logLines: lines,
    async close() {
      await tracking.close();
      await sandbox.close();
    },
  };
}

/**
 * Moves sandbox time 10 s at a time until the swap is completed. Each step waits for a poll after
 * the move and for every chat to be up to date (signals, not wall-clock gaps), so the chats see
 * every step.
 */
export async function driveToCompletion(live: Pick<LiveStack, 'clock' | 'tracking'>, swapId: string): Promise<void> {
  const upToDate = async () => (await live.tracking.pendingNotifications()) === 0;
  for (let i = 0; i < 60; i++) {
    if ((await live.tracking.swapState(swapId))?.status === 'completed') return;
    live.clock.advance(10_000);
    const at = live.clock.now();
    // A poll already running when the clock moved may see the end: a final swap is polled no more.
    const polledOrDone = async () => {
      const s = await live.tracking.swapState(swapId);
      return (s?.lastPolledAt ?? 0) >= at || s?.status === 'completed';
    };
    await waitFor(polledOrDone, 'a poll after the clock moved').catch(async (err: unknown) => {
      throw new Error(`${(err as Error).message} (at ${at}): ${JSON.stringify(await live.tracking.swapState(swapId))}`, { cause: err });
    });
    await waitFor(upToDate, 'the chats to be up to date');
  }
  throw new Error(`swap ${swapId} did not complete`);
}

/**
 * A live stack for the terminal chat: the tracking worker prints through the chat's own messenger
 * (the same screen, the same button numbers). The chat needs the stack's core, so it is attached
 * once started.
 */
export async function startConsoleLiveStack(name: string): Promise<{ live: LiveStack; attach(chat: ConsoleChat): void }> {
  let chat: ConsoleChat | undefined;
  const on = (): ConsoleChat => {
    if (!chat) throw new Error('no terminal chat attached to the live stack yet');
    return chat;
  };
  const proxy: Messenger = {
    platform: 'console',
    send: (target, reply) => on().messenger.send(target, reply),
    edit: (ref, reply) => on().messenger.edit(ref, reply),
  };
  const live = await startLiveStack(name, { console: proxy });
  return { live, attach: (c) => void (chat = c) };
}

import type { Redis } from 'ioredis';
import { trackingRenderer } from '../../../src/bot/cards/moments.js';
import { statusCard } from '../../../src/bot/cards/status.js';
import type { BotCore } from '../../../src/bot/core.js';
import { createCore } from '../../../src/bot/create-core.js';
import type { ChatTarget } from '../../../src/contracts/incoming.js';
import { CatalogCache } from '../../../src/layerswap/catalog-cache.js';
import { LayerswapClient } from '../../../src/layerswap/client.js';
import type { SwapDetails } from '../../../src/layerswap/schemas.js';
import { DiscordMessenger } from '../../../src/platforms/discord/messenger.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../../src/tracking/engine.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../../support/redis.js';
import type { DiscordWorld } from './harness.js';

/**
 * The real product behind the fake Discord: the sandbox (manual clock, deposits on demand), the
 * client and catalogue, the core on real Redis, and the tracking engine delivering through
 * DiscordMessenger to the same fake.
 */
export interface LiveStack {
  clock: ManualClock;
  sandbox: SandboxServer;
  api: LayerswapClient;
  core: BotCore;
  tracking: Tracking;
  messenger: DiscordMessenger;
  redis: Redis;
  close(): Promise<void>;
}

export async function startLiveStack(world: DiscordWorld): Promise<LiveStack> {
  const clock = new ManualClock();
  const sandbox = await startSandbox({ clock, timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 10_000, expiryMs: 3_600_000, refundDelayMs: 10_000 } });
  const api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: 5_000 });
  const catalog = new CatalogCache(api, { ttlMs: 3_600_000, now: () => clock.now() });
  await catalog.warm(); // as the web process does at start: autocomplete reads only the cache
  const prefix = uniquePrefix('dc');
  const redis = testRedis(prefix);
  const messenger = new DiscordMessenger({ token: world.token, api: world.fake.apiUrl });
  const tracking = createTracking({
    redis: testRedisUrl(),
    prefix: `${prefix}:trk`,
    api,
    limits: { maxPerChat: 100, maxPerUser: 100 },
    cadence: { fastMs: 50, slowMs: 100, stuckFactor: 4 },
    now: () => clock.now(),
    apiRate: { max: 100_000, duration: 1000 },
    platformRates: { discord: { max: 100_000, duration: 1000 } },
    workers: { notifyBackoffMs: 100 },
  });
  await tracking.startWorkers({
    messengers: { discord: messenger },
    render: { ...trackingRenderer, card: (details: SwapDetails, target: ChatTarget) => statusCard(details, { audience: target.chatKind === 'private' ? 'private' : 'public', now: clock.now() }) },
  });
  const core = createCore({ api, catalog, redis, keyPrefix: `${prefix}:core`, tracking: tracking.service, limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 }, now: () => clock.now() });
  return {
    clock, sandbox, api, core, tracking, messenger, redis,
    async close() {
      await tracking.close();
      await sandbox.close();
    },
  };
}

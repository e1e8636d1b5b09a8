import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { existsSync, readFileSync } from 'node:fs';
import type { Platform } from '../src/contracts/incoming.js';
import type { Messenger } from '../src/contracts/messenger.js';
import { LayerswapClient } from '../src/layerswap/client.js';
import { createLogger } from '../src/log.js';
import { DiscordMessenger } from '../src/platforms/discord/messenger.js';
import { TelegramMessenger } from '../src/platforms/telegram/messenger.js';
import { createTracking, type Tracking, type TrackingDeps } from '../src/tracking/engine.js';
import { NETWORKS } from '../src/sandbox/catalog.js';
import type { RateLimit } from '../src/tracking/queues.js';
import { trackingRenderer } from '../src/bot/renderer.js';
import { CountingMessenger } from './cards.js';
import { scaledNow, type ScaledTime } from './clock.js';
import { memoryMb, serve } from './ipc.js';

/**
 * One tracking worker process (`swapbot worker` as the benchmark configures it): the real
 * engine, the real client of the swap service (pointed at the sandbox) and the real Telegram and
 * Discord messengers (pointed at the fake platforms). The parent starts one or two of these.
 */

export interface WorkerConfig {
  redisUrl: string;
  prefix: string;
  sandboxUrl: string;
  apiKey: string;
  cadence: TrackingDeps['cadence'];
  /**
   * The sandbox's scaled clock (part 5): the engine reads it as its clock, and every poll delay
   * it schedules (sandbox ms) passes `speed` times faster in real time (the engine's realDelay),
   * so the production cadence runs unchanged on a compressed lifecycle.
   */
  time?: ScaledTime;
  apiRate: RateLimit;
  platformRates?: Partial<Record<Platform, RateLimit>>;
  concurrency: number;
  notifyConcurrency?: number;
  poll: boolean;
  notify: boolean;
  telegram?: { apiRoot: string; token: string };
  discord?: { api: string; token: string };
  /**
   * discord.js REST keeps its own global limit of 50 requests per second per process; the
   * fan-out run compresses time (limits per shorter window) and raises it to match.
   */
  discordGlobalPerSecond?: number;
  limits: { maxPerChat: number; maxPerUser: number };
  /** The chain watcher (part 5's chain row): every sandbox EVM network read at this RPC, its head every pollMs (real ms). */
  chain?: { rpc: string; pollMs: number; gapMs?: number };
}

let tracking: Tracking | undefined;
const counting = new CountingMessenger();
let peakRss = 0;
/** GET /swaps/{id} requests this worker made, by swap (one per call: the poller does not retry): when each was sent (epoch ms). */
const swapRequests = new Map<string, number[]>();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);
sampler.unref();

serve(
  {
    async start(c: WorkerConfig) {
      const t0 = performance.now();
      const logger = createLogger({
        level: process.env.BENCH_LOG_LEVEL ?? 'silent',
        destination: process.stderr,
        name: 'bench-worker',
        secrets: [c.apiKey],
      });
      const api = new LayerswapClient({ baseUrl: c.sandboxUrl, apiKey: c.apiKey, logger });
      // The poller's request is pollSwap (tracking/poll-job.ts); one call is one request (no retry).
      const pollSwap = api.pollSwap.bind(api);
      api.pollSwap = (...args) => {
        const times = swapRequests.get(args[0]) ?? [];
        times.push(Date.now());
        swapRequests.set(args[0], times);
        return pollSwap(...args);
      };
      const messengers: Partial<Record<Platform, Messenger>> = { console: counting };
      if (c.telegram)
        messengers.telegram = new TelegramMessenger({ token: c.telegram.token, apiRoot: c.telegram.apiRoot, botUsername: 'bench_swapbot' });
      if (c.discord) {
        const discord = new DiscordMessenger({ token: c.discord.token, api: c.discord.api });
        // The REST manager reads this option on every request.
        if (c.discordGlobalPerSecond)
          (discord.rest.options as { globalRequestsPerSecond: number }).globalRequestsPerSecond = c.discordGlobalPerSecond;
        messengers.discord = discord;
      }
      tracking = createTracking({
        redis: c.redisUrl,
        prefix: c.prefix,
        api,
        limits: c.limits,
        cadence: c.cadence,
        ...(c.time ? { now: scaledNow(c.time), realDelay: (ms: number) => ms / (c.time as ScaledTime).speed } : {}),
        logger,
        apiRate: c.apiRate,
        ...(c.platformRates ? { platformRates: c.platformRates } : {}),
        workers: { ...(c.notifyConcurrency ? { notifyConcurrency: c.notifyConcurrency } : {}) },
        ...(c.chain ? { chain: chainOptions(c.chain) } : {}),
      });
      await tracking.startWorkers({ messengers, render: trackingRenderer, poll: c.poll, notify: c.notify, concurrency: c.concurrency });
      return { startMs: performance.now() - t0 };
    },
    memory() {
      const m = memoryMb();
      return { ...m, peakRss: Math.max(peakRss, process.memoryUsage().rss) / 1048576 };
    },
    /** Where the memory is (MB): the process's parts, V8's heap spaces; a heap snapshot written to `snapshot` if given. */
    heap() {
      const mb = (n: number) => n / 1048576;
      const m = process.memoryUsage();
      const h = v8.getHeapStatistics();
      // Linux: the resident pages of files (the node binary, shared libraries) apart from the process's own.
      const status = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '';
      const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
      return {
        rss: mb(m.rss),
        rssAnon: kb('RssAnon'),
        rssFile: kb('RssFile'),
        heapTotal: mb(m.heapTotal),
        heapUsed: mb(m.heapUsed),
        external: mb(m.external),
        arrayBuffers: mb(m.arrayBuffers),
        mallocedMemory: mb(h.malloced_memory),
        heapSizeLimit: mb(h.heap_size_limit),
        spaces: Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_used_size)])),
      };
    },
    /** A heap snapshot (it grows the process: read heap() first). */
    snapshot(path: string) {
      return v8.writeHeapSnapshot(path);
    },
    resetPeak() {
      peakRss = 0;
      return true;
    },
    counts: () => ({ consoleSent: counting.sent, consoleEdited: counting.edited }),
    swapRequests: () => Object.fromEntries(swapRequests),
  },
  async () => {
    clearInterval(sampler);
    await tracking?.close();
  },
);

/** The sandbox's EVM networks on its one chain, with their confirmation counts and tokens. */
function chainOptions(c: NonNullable<WorkerConfig['chain']>): NonNullable<TrackingDeps['chain']> {
  const evm = NETWORKS.filter((n) => n.type === 'evm');
  return {
    evmRpcs: new Map(evm.map((n) => [n.name, c.rpc])),
    pollMs: c.pollMs,
    ...(c.gapMs !== undefined ? { evmGapMs: c.gapMs } : {}),
    network: async (name) => {
      const n = evm.find((x) => x.name === name);
      return n ? { required: n.max_confirmations, chainId: 31337, tokens: n.tokens } : undefined;
    },
  };
}

import { Worker, type Job } from 'bullmq';
import type { Redis, RedisOptions } from 'ioredis';
import type { ChatTarget, MessageRef, Platform } from '../contracts/incoming.js';
import { DeliveryError, type Messenger } from '../contracts/messenger.js';
import type { Reply } from '../contracts/reply.js';
import type { LayerswapApi } from '../layerswap/api.js';
import { scrub, silentLogger, type Logger } from '../log.js';
import { notifyDeliveries, rateLimited } from '../metrics.js';
import { createRedis, logRedisErrors, redisOptionsFromUrl, redisSecrets } from '../redis.js';
import type { TrackingRenderer, TrackingService } from '../contracts/tracking.js';
import type { WebhookCadence } from './cadence.js';
import { POLL_QUEUE, notifyQueueName } from './keys.js';
import { TrackingKeys } from '../contracts/keys.js';
import { LanguageStore } from '../i18n/store.js';
import { createNotifyProcessor, type NotifyDeps, type NotifyJobData } from './notify-job.js';
import type { SwapState } from './observe.js';
import { Pacer, type PaceRule } from './pacing.js';
import { createPollProcessor, type PollJobData } from './poll-job.js';
import { PLATFORMS } from '../contracts/incoming.js';
import { DEFAULT_API_RATE, DEFAULT_PLATFORM_RATES, notifyBackoff, POLL_WORKER_REMOVAL, TrackingQueues, type RateLimit } from './queues.js';
import { ChatMoves } from './chat-moves.js';
import { Subscriptions } from './subscriptions.js';
import { SettingsStore } from './settings.js';
import { SwapStore } from './swap-store.js';
import { RedisTrackingService } from './tracking-service.js';
import { redisReplayGuard, type ReplayGuard } from './webhook.js';
import { ChainWatch, type ChainWatchDeps } from './chain-watch.js';
import { createEvmWatcher } from '../chain/evm.js';
import { RouteTimesStore } from './route-times.js';
import { AddressWatch, DEFAULT_WATCH, type WatchSettings } from './address-watch.js';

/**
 * The tracking engine: subscriptions, the poll queue and the per-platform notify queues on one
 * Redis. The web process uses `service` and `pollNow` only; the worker process calls
 * startWorkers() with the messengers to deliver through and the renderer of what they deliver
 * (the core's). Several worker processes can run at once: all state is in Redis.
 */

export interface TrackingDeps {
  /** A redis://, rediss:// or unix:// URL, or ioredis options. */
  redis: string | RedisOptions;
  prefix: string;
  api: LayerswapApi;
  limits: { maxPerChat: number; maxPerUser: number };
  cadence: {
    fastMs: number;
    slowMs: number;
    stuckFactor: number;
    giveUpAfterMs?: number;
    notFoundGiveUpMs?: number;
    notFoundMinPolls?: number;
    /** Set when webhooks are trusted (LAYERSWAP_WEBHOOK_SECRET): polling becomes a safety net. */
    webhooks?: WebhookCadence;
  };
  logger?: Logger;
  /** The clock for swap state times and waits; defaults to Date.now (tests pass a sandbox clock). */
  now?: () => number;
  /** How many real ms a wait of `ms` on that clock lasts (default: as many; the bench's sandbox clock runs faster). */
  realDelay?: (ms: number) => number;
  /** Requests per window to the swap service over all pollers (default 50/s). */
  apiRate?: RateLimit;
  platformRates?: Partial<Record<Platform, RateLimit>>;
  /** Per-chat pacing (default: Telegram groups and channels 20/min). */
  pacing?: (target: ChatTarget) => PaceRule | undefined;
  /** How long finished swaps stay listed, in seconds (default 7 days). */
  retentionSeconds?: number;
  /** Watched addresses: check schedule and share of the API budget (defaults: address-watch.ts DEFAULT_WATCH). */
  watch?: Partial<Omit<WatchSettings, 'apiPerSecond'>>;
  /** Fault injection for tests: runs after a platform accepted a new message, before it is recorded. */
  faults?: { afterSend?: NotifyDeps['afterSend'] };
  /** Chain watchers (CHAIN_WATCH): EVM RPC URL per network name, and what the catalogue says of a network. */
  chain?: {
    evmRpcs: ReadonlyMap<string, string>;
    /** An RPC for an EVM network not in evmRpcs (CHAIN_WATCH=auto: the catalogue's node_url). */
    fallbackRpc?: (network: string) => Promise<string | undefined>;
    network: ChainWatchDeps['network'];
    /** How often each network's head is read (ms; default 2 s). */
    pollMs?: number;
  };
  workers?: {
    /** BullMQ lock; a killed worker's jobs are picked up again after it expires (default 30 s). */
    lockDurationMs?: number;
    stalledIntervalMs?: number;
    notifyConcurrency?: number;
    /** First retry delay of a notify job after a transient failure (default 2 s, doubling). */
    notifyBackoffMs?: number;
    /** The longest wait between retries of a notify job (default 5 min); it retries until delivered. */
    notifyBackoffMaxMs?: number;
    /** How often the worker re-creates missing poll jobs for followed swaps (default 5 min). */
    reconcileIntervalMs?: number;
  };
}

export interface WorkerOptions {
  /** One per platform to deliver to; a platform without one gets no notify worker. */
  messengers: Partial<Record<Platform, Messenger>>;
  /** Status cards, key moments and notices, rendered by the core. */
  render: TrackingRenderer;
  poll?: boolean;
  notify?: boolean;
  concurrency?: number;
}

export interface Tracking {
  service: TrackingService;
  startWorkers(opts: WorkerOptions): Promise<void>;
  /** Pulls a swap's poll job forward (a webhook hint): service.pollNow. */
  pollNow(swapId: string): Promise<void>;
  /** Drains: jobs in hand finish, nothing new starts, connections close. */
  close(): Promise<void>;
  /** The last state the poller stored (operators, tests). */
  swapState(swapId: string): Promise<SwapState | undefined>;
  /** Notify jobs not finished yet, over all platforms. */
  pendingNotifications(): Promise<number>;
  /** Re-creates missing poll jobs for every followed swap that is not final; returns how many swaps. */
  reconcile(): Promise<number>;
  /** Webhook replay protection shared by every web process (pass to createWebhookHandler). */
  webhookReplayGuard: ReplayGuard;
}

export function createTracking(deps: TrackingDeps): Tracking {
  const logger = deps.logger ?? silentLogger;
  const secrets = typeof deps.redis === 'string' ? redisSecrets(deps.redis) : deps.redis.password ? [deps.redis.password] : [];
  const connectionOptions: RedisOptions = typeof deps.redis === 'string' ? redisOptionsFromUrl(deps.redis) : deps.redis;
  const redis: Redis = createRedis(connectionOptions, { logger, name: 'tracking' });
  const keys = new TrackingKeys(deps.prefix);
  const store = new SwapStore(redis, keys);
  const routeTimes = new RouteTimesStore(redis, deps.prefix);
  const subs = new Subscriptions(redis, keys, store, deps.limits, deps.retentionSeconds);
  const w = deps.workers ?? {};
  const queues = new TrackingQueues(redis, keys, w.notifyBackoffMs ?? 2000);
  const now = deps.now ?? Date.now;
  const chatSettings = new SettingsStore(redis, keys);
  const moves = new ChatMoves(redis, keys, new LanguageStore(redis, deps.prefix));
  const apiRate = deps.apiRate ?? DEFAULT_API_RATE;
  const watches = new AddressWatch(redis, keys, now, { ...DEFAULT_WATCH, ...deps.watch, apiPerSecond: (apiRate.max * 1000) / apiRate.duration });
  const service = new RedisTrackingService(subs, store, queues, deps.limits, now, chatSettings, moves, watches);
  const workers: Worker[] = [];
  let reconcileTimer: NodeJS.Timeout | undefined;
  let watchTimer: NodeJS.Timeout | undefined;
  let watching: Promise<unknown> | undefined;
  let chainWatch: ChainWatch | undefined;
  let closing: Promise<void> | undefined;
  const clean = (e: unknown) => scrub(e instanceof Error ? e.message : String(e), secrets);
  for (const q of queues.all()) logRedisErrors(q, `queue ${q.name}`, logger, secrets);

  const reconcile = async (): Promise<number> => {
    let n = 0;
    for await (const ids of subs.eachActiveSwap()) {
      for (const id of ids) await queues.ensurePoll(id);
      n += ids.length;
    }
    return n;
  };

  // Each worker gets its own client (BullMQ duplicates it for its blocking reads); closed by us.
  const workerConnections: Redis[] = [];
  const workerConnection = (name: string) => {
    const c = createRedis(connectionOptions, { logger, name, maxRetriesPerRequest: null });
    workerConnections.push(c);
    return c;
  };
  const pollStoreConnection = () => {
    const c = createRedis({ ...connectionOptions, enableAutoPipelining: true }, { logger, name: 'tracking-poll-store' });
    workerConnections.push(c);
    return c;
  };
  // Consecutive failed polls over all swaps; a good poll clears it only when this process saw a
  // failure (no extra round trip per poll), and it expires 10 min after the last failure anyway.
  let failedHere = false;
  const outage = {
    async record() {
      failedHere = true;
      const [[, n] = []] = (await redis.multi().incr(keys.outage).pexpire(keys.outage, 10 * 60_000).exec()) ?? [];
      return Number(n ?? 1);
    },
    async clear() {
      if (!failedHere) return;
      failedHere = false;
      await redis.del(keys.outage);
    },
  };
  const workerBase = {
    prefix: keys.bull,
    ...(w.lockDurationMs ? { lockDuration: w.lockDurationMs } : {}),
    ...(w.stalledIntervalMs ? { stalledInterval: w.stalledIntervalMs } : {}),
  };

  const watch = (worker: Worker) => {
    logRedisErrors(worker, `worker ${worker.name}`, logger, secrets);
    worker.on('failed', (job: Job | undefined, e: Error) =>
      logger.warn({ queue: worker.name, jobId: job?.id, attempts: job?.attemptsMade, err: clean(e) }, 'tracking job failed'));
    workers.push(worker);
  };

  return {
    service,
    swapState: (swapId) => store.load(swapId),
    pendingNotifications: () => queues.pendingNotifications(),
    reconcile,
    webhookReplayGuard: redisReplayGuard(redis, deps.prefix),

    async startWorkers(opts) {
      if (closing) throw new Error('tracking is closing');
      if (workers.length > 0) throw new Error('tracking workers are already running');
      if (opts.poll !== false) {
        if (deps.chain && (deps.chain.evmRpcs.size > 0 || deps.chain.fallbackRpc)) {
          const chainDeps = deps.chain;
          const rpcs = new Map(chainDeps.evmRpcs);
          const fallback = chainDeps.fallbackRpc;
          let cw: ChainWatch | undefined = undefined;
          const evm = createEvmWatcher({
            rpcs,
            ...(chainDeps.pollMs ? { pollMs: chainDeps.pollMs } : {}),
            logger,
            events: {
              transfer: (e, t) => cw?.onTransfer(e, t),
              head: (n, h) => cw?.onHead(n, h),
              health: (n, up) => cw?.onHealth(n, up),
            },
          });
          cw = new ChainWatch({
            watchers: [evm],
            store,
            pollNow: (id) => service.pollNow(id),
            enqueueNotify: (f, swapId, version) => queues.enqueueNotify({ swapId, platform: f.platform, chatId: f.chatId, version }),
            now,
            logger,
            network: chainDeps.network,
            ...(fallback ? { prepare: async (n: string) => { if (!rpcs.has(n)) { const u = await fallback(n); if (u) rpcs.set(n, u); } } } : {}),
          });
          chainWatch = cw;
        }
        const processor = createPollProcessor({
          api: deps.api,
          subs,
          // Its own client with auto-pipelining (not on a cluster: see openCluster): the scripts of
          // concurrent polls go out in one socket write.
          store: new SwapStore(pollStoreConnection(), keys),
          outage,
          settings: { ...deps.cadence, giveUpAfterMs: deps.cadence.giveUpAfterMs ?? 24 * 3_600_000 },
          now,
          ...(deps.realDelay ? { realDelay: deps.realDelay } : {}),
          enqueueNotify: (f, swapId, version) => queues.enqueueNotify({ swapId, platform: f.platform, chatId: f.chatId, version }),
          rateLimit: (ms) => queues.poll.rateLimit(ms),
          logger,
          ...(chainWatch ? { chain: chainWatch } : {}),
          routeTimes,
        });
        watch(new Worker<PollJobData>(POLL_QUEUE, processor, {
          ...workerBase,
          connection: workerConnection('tracking-poll'),
          concurrency: opts.concurrency ?? 20,
          limiter: apiRate,
          ...POLL_WORKER_REMOVAL,
          // A poll job lives for hours and is safe to run again: tolerate many worker restarts.
          maxStalledCount: 100,
        }));
        await reconcile();
        if (chainWatch) {
          // Watches live in each worker's memory: this one's are rebuilt at once, not at the next poll.
          let restored = 0;
          for await (const ids of subs.eachActiveSwap()) restored += await chainWatch.restore(ids);
          if (restored > 0) logger.info({ restored }, 'deposit addresses watched on chain again');
        }
        const every = w.reconcileIntervalMs ?? 5 * 60_000;
        reconcileTimer = setInterval(() => void reconcile().catch((e: unknown) => logger.warn({ err: clean(e) }, 'reconcile failed')), every);
        reconcileTimer.unref();
        // Watched addresses: one tick at a time, each within its share of the API budget.
        watchTimer = setInterval(() => {
          watching ??= watches.tick(deps.api, service, logger).catch((e: unknown) => logger.warn({ err: clean(e) }, 'address watch tick failed')).finally(() => { watching = undefined; });
        }, deps.watch?.tickMs ?? DEFAULT_WATCH.tickMs);
        watchTimer.unref();
      }
      if (opts.notify !== false) {
        // The same platform rates as the queue limiters, counted in messages rather than jobs.
        const platformRate = (p: Platform) => {
          if (p === 'console') return undefined;
          const r = deps.platformRates?.[p] ?? DEFAULT_PLATFORM_RATES[p];
          return { limit: r.max, windowMs: r.duration };
        };
        const pacer = new Pacer(redis, keys, deps.pacing, platformRate);
        const languages = new LanguageStore(redis, deps.prefix);
        for (const platform of PLATFORMS) {
          const messenger = opts.messengers[platform];
          const queue = queues.notify.get(platform);
          if (!messenger || !queue) continue;
          const processor = createNotifyProcessor({
            subs,
            store,
            settings: chatSettings,
            now,
            messenger: counted(messenger),
            render: opts.render,
            languages,
            pacer,
            rateLimit: (ms) => queue.rateLimit(ms),
            onChatMoved: (from, toChatId) => service.moveChat(from.platform, from.chatId, toChatId),
            onBlocked: (target, swapIds) => moves.rememberAway(target, swapIds),
            routeTimes,
            logger,
            ...(deps.faults?.afterSend ? { afterSend: deps.faults.afterSend } : {}),
          });
          watch(new Worker<NotifyJobData>(notifyQueueName(platform), processor, {
            ...workerBase,
            connection: workerConnection(`tracking-notify-${platform}`),
            concurrency: w.notifyConcurrency ?? 10,
            limiter: deps.platformRates?.[platform] ?? DEFAULT_PLATFORM_RATES[platform],
            settings: { backoffStrategy: notifyBackoff(w.notifyBackoffMaxMs ?? 5 * 60_000) },
            maxStalledCount: 5,
          }));
        }
      }
      await Promise.all(workers.map((wk) => wk.waitUntilReady()));
    },

    pollNow: (swapId) => service.pollNow(swapId),

    close() {
      closing ??= (async () => {
        if (reconcileTimer) clearInterval(reconcileTimer);
        if (watchTimer) clearInterval(watchTimer);
        await watching;
        await chainWatch?.close();
        await Promise.all(workers.map((wk) => wk.close()));
        await queues.close();
        for (const c of [...workerConnections, redis]) await c.quit().catch(() => c.disconnect());
      })();
      return closing;
    },
  };
}

/** The messenger with each platform call counted (swapbot_notify_deliveries_total; 429s also in swapbot_rate_limited_total). */
function counted(messenger: Messenger): Messenger {
  const count = async <T>(call: Promise<T>): Promise<T> => {
    try {
      const result = await call;
      notifyDeliveries.labels(messenger.platform, 'delivered').inc();
      return result;
    } catch (err) {
      notifyDeliveries.labels(messenger.platform, 'failed').inc();
      if (err instanceof DeliveryError && err.failure === 'rate_limited') rateLimited.labels(messenger.platform).inc();
      throw err;
    }
  };
  return {
    platform: messenger.platform,
    ...(messenger.idempotentSends !== undefined ? { idempotentSends: messenger.idempotentSends } : {}),
    send: (target, reply, options) => count(messenger.send(target, reply, options)),
    edit: (ref, reply) => count(messenger.edit(ref, reply)),
    ...(messenger.editInPlace ? { editInPlace: (ref: MessageRef, reply: Reply) => count((messenger.editInPlace as NonNullable<Messenger['editInPlace']>).call(messenger, ref, reply)) } : {}),
    ...(messenger.react ? { react: (ref: MessageRef, emoji: string) => count((messenger.react as NonNullable<Messenger['react']>).call(messenger, ref, emoji)) } : {}),
  };
}

import { Worker, type Job } from 'bullmq';
import type { Redis, RedisOptions } from 'ioredis';
import type { Platform } from '../contracts/incoming.js';
import { scrub, silentLogger, type Logger } from '../log.js';
import { createRedis, logRedisErrors, redisOptionsFromUrl, redisSecrets } from '../redis.js';
import type { ChatLanguages } from '../contracts/tracking.js';
import { POLL_QUEUE, notifyQueueName } from './keys.js';
import { TrackingKeys } from '../contracts/keys.js';
import { NotifyProcessor, type NotifyJobData } from './notify-job.js';
import type { SwapState } from './observe.js';
import { Pacer } from './pacing.js';
import { PollProcessor, type PollJobData } from './poll-job.js';
import { PLATFORMS } from '../contracts/incoming.js';
import {
  DEFAULT_API_RATE,
  DEFAULT_PLATFORM_RATES,
  notifyBackoff,
  POLL_RETRY_MAX_MS,
  POLL_WORKER_REMOVAL,
  TrackingQueues,
  type RateLimit,
} from './queues.js';
import { ChatMoves } from './chat-moves.js';
import { Subscriptions } from './subscriptions.js';
import { SettingsStore } from './settings.js';
import { SwapStore, type Follower } from './swap-store.js';
import { RedisTrackingService } from './tracking-service.js';
import { redisReplayGuard, type ReplayGuard } from './webhook.js';
import type { ChainWatch } from './chain-watch.js';
import { redisLateList } from './chain-evidence.js';
import { RouteTimesStore } from './route-times.js';
import { AddressWatch, DEFAULT_WATCH, tellByMessenger } from './address-watch.js';
import { counted } from './counted-messenger.js';
import { OutageCounter } from './outage.js';

/**
 * The tracking engine: subscriptions, the poll queue and the per-platform notify queues on one
 * Redis. The web process uses `service` and `pollNow` only; the worker process calls
 * startWorkers() with the messengers to deliver through and the renderer of what they deliver
 * (the core's). Several worker processes can run at once: all state is in Redis.
 */

import type { Tracking, TrackingDeps, WorkerOptions } from './engine-options.js';

export type { Tracking, TrackingDeps, WorkerOptions };

/** No saved choices (TrackingDeps.languages not given). */
const NO_LANGUAGES: ChatLanguages = { get: () => Promise.resolve(undefined), move: () => Promise.resolve() };

export function createTracking(deps: TrackingDeps): Tracking {
  return new TrackingEngine(deps);
}

/**
 * The engine as one object, one method per step (model: BullMQ's Worker): the constructor opens
 * the shared client and the stores; startWorkers() starts the poll worker (with the chain watch
 * and the timers) and one notify worker per platform; close() drains them. The public methods
 * are bound, so `tracking.pollNow` can be handed on alone.
 */
class TrackingEngine implements Tracking {
  readonly service: RedisTrackingService;
  /** Built once over the engine's client: every web process claims webhook ids through it. */
  readonly webhookReplayGuard: ReplayGuard;
  private readonly logger: Logger;
  private readonly secrets: string[];
  private readonly connectionOptions: RedisOptions;
  private readonly redis: Redis;
  private readonly keys: TrackingKeys;
  private readonly store: SwapStore;
  private readonly routeTimes: RouteTimesStore;
  private readonly subs: Subscriptions;
  private readonly queues: TrackingQueues;
  private readonly now: () => number;
  private readonly chatSettings: SettingsStore;
  private readonly moves: ChatMoves;
  private readonly apiRate: RateLimit;
  private readonly watches: AddressWatch;
  private readonly workers: Worker[] = [];
  /** Each worker gets its own client (BullMQ duplicates it for its blocking reads); closed by us. */
  private readonly workerConnections: Redis[] = [];
  private readonly outage: OutageCounter;
  private reconcileTimer: NodeJS.Timeout | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private watching: Promise<unknown> | undefined;
  private chainWatch: ChainWatch | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly deps: TrackingDeps) {
    this.logger = deps.logger ?? silentLogger;
    this.secrets = typeof deps.redis === 'string' ? redisSecrets(deps.redis) : deps.redis.password ? [deps.redis.password] : [];
    this.connectionOptions = typeof deps.redis === 'string' ? redisOptionsFromUrl(deps.redis) : deps.redis;
    this.redis = createRedis(this.connectionOptions, { logger: this.logger, name: 'tracking' });
    this.keys = new TrackingKeys(deps.prefix);
    this.store = new SwapStore(this.redis, this.keys);
    this.routeTimes = new RouteTimesStore(this.redis, deps.prefix);
    this.subs = new Subscriptions(this.redis, this.keys, this.store, deps.limits, deps.retentionSeconds);
    this.queues = new TrackingQueues(this.redis, this.keys, deps.workers?.notifyBackoffMs ?? 2000);
    this.now = deps.now ?? Date.now;
    this.chatSettings = new SettingsStore(this.redis, this.keys);
    this.moves = new ChatMoves(this.redis, this.keys, deps.languages ?? NO_LANGUAGES);
    this.apiRate = deps.apiRate ?? DEFAULT_API_RATE;
    this.watches = new AddressWatch(this.redis, this.keys, this.now, {
      ...DEFAULT_WATCH,
      ...deps.watch,
      apiPerSecond: (this.apiRate.max * 1000) / this.apiRate.duration,
    });
    this.service = new RedisTrackingService(
      this.subs,
      this.store,
      this.queues,
      deps.limits,
      this.now,
      this.chatSettings,
      this.moves,
      this.watches,
    );
    this.outage = new OutageCounter(this.redis, this.keys);
    this.webhookReplayGuard = redisReplayGuard(this.redis, deps.prefix);
    for (const q of this.queues.all()) logRedisErrors(q, `queue ${q.name}`, this.logger, this.secrets);
  }

  readonly swapState = (swapId: string): Promise<SwapState | undefined> => this.store.load(swapId);

  readonly pendingNotifications = (): Promise<number> => this.queues.pendingNotifications();

  readonly pollNow = (swapId: string): Promise<void> => this.service.pollNow(swapId);

  readonly reconcile = (): Promise<number> => this.eachActiveSwap();

  /** Every active swap gets its poll job back (and `also` sees each page of them): how many there were. */
  private async eachActiveSwap(also?: (ids: string[]) => Promise<void>): Promise<number> {
    await this.service.repairCreated(); // first, the creators' follows a restart or crash left undone
    let n = 0;
    for await (const ids of this.subs.eachActiveSwap()) {
      for (const id of ids) await this.queues.ensurePoll(id);
      await also?.(ids);
      n += ids.length;
    }
    return n;
  }

  readonly startWorkers = async (opts: WorkerOptions): Promise<void> => {
    if (this.closing) throw new Error('tracking is closing');
    if (this.workers.length > 0) throw new Error('tracking workers are already running');
    if (opts.poll !== false) {
      await this.startChainWatch();
      this.startPollWorker(opts.concurrency ?? 20);
      await this.reconcileAndRestore();
      this.startTimers(tellByMessenger(opts.messengers, opts.render));
    }
    if (opts.notify !== false) this.startNotifyWorkers(opts);
    await Promise.all(this.workers.map((wk) => wk.waitUntilReady()));
  };

  /** Drains: jobs in hand finish, nothing new starts, connections close. */
  readonly close = (): Promise<void> => {
    this.closing ??= (async () => {
      if (this.reconcileTimer) clearInterval(this.reconcileTimer);
      if (this.watchTimer) clearInterval(this.watchTimer);
      await this.watching;
      await Promise.all(this.workers.map((wk) => wk.close()));
      await this.chainWatch?.close();
      await this.queues.close();
      for (const c of [...this.workerConnections, this.redis]) await c.quit().catch(() => c.disconnect());
    })();
    return this.closing;
  };

  /** The chain watch: one watch job per network, run by one worker at a time (chain-start.ts). */
  private async startChainWatch(): Promise<void> {
    const settings = this.deps.chain;
    // The watchers (viem's client, @solana/kit, @ton/*) load only when there is an RPC to watch.
    if (!settings || (settings.evmRpcs.size === 0 && !settings.fallbackRpc)) return;
    const { startSharedChainWatch } = await import('./chain-start.js');
    const started = startSharedChainWatch(settings, {
      base: {
        store: this.store,
        pollNow: (id, kind) => this.service.pollNow(id, kind),
        now: this.now,
        logger: this.logger,
        late: redisLateList(this.redis, this.keys.chainLate),
      },
      redis: this.redis,
      keys: this.keys,
      connection: () => this.workerConnection('tracking-chain'),
      onError: (err, network) => this.logger.warn({ err: this.clean(err), network }, 'chain watch run failed; trying again'),
      watchErrors: (e) => logRedisErrors(e, `chain ${e.name}`, this.logger, this.secrets),
    });
    this.chainWatch = started;
  }

  private startPollWorker(concurrency: number): void {
    const { deps, queues } = this;
    const processor = new PollProcessor({
      api: deps.api,
      subs: this.subs,
      // Its own client with auto-pipelining (not on a cluster: see openCluster): the scripts of
      // concurrent polls go out in one socket write.
      store: new SwapStore(this.pollStoreConnection(), this.keys),
      outage: this.outage,
      settings: { ...deps.cadence, giveUpAfterMs: deps.cadence.giveUpAfterMs ?? 24 * 3_600_000 },
      now: this.now,
      ...(deps.realDelay ? { realDelay: deps.realDelay } : {}),
      enqueueNotify: this.enqueueNotify,
      rateLimit: (ms) => queues.poll.rateLimit(ms),
      logger: this.logger,
      ...(this.chainWatch ? { chain: this.chainWatch } : {}),
      routeTimes: this.routeTimes,
    });
    this.watch(
      new Worker<PollJobData>(POLL_QUEUE, (job, token) => processor.process(job, token), {
        ...this.workerBase(POLL_QUEUE),
        connection: this.workerConnection('tracking-poll'),
        concurrency,
        limiter: this.apiRate,
        ...POLL_WORKER_REMOVAL,
        settings: { backoffStrategy: notifyBackoff(POLL_RETRY_MAX_MS) },
        // A poll job lives for hours and is safe to run again: tolerate many worker restarts.
        maxStalledCount: 100,
      }),
    );
  }

  /** At start, one pass over the active swaps: each gets its poll job back and, when waiting, its network's watch listed. */
  private async reconcileAndRestore(): Promise<void> {
    const chain = this.chainWatch;
    await this.eachActiveSwap(chain ? async (ids) => void (await chain.restore(ids)) : undefined);
  }

  private readonly enqueueNotify = (f: Follower, swapId: string, version: number): Promise<void> =>
    this.queues.enqueueNotify({ swapId, platform: f.platform, chatId: f.chatId, version });

  /** Missing poll jobs re-created every few minutes; watched addresses, one tick at a time, each within its share of the API budget. */
  private startTimers(tellWatch: ReturnType<typeof tellByMessenger>): void {
    const every = this.deps.workers?.reconcileIntervalMs ?? 5 * 60_000;
    this.reconcileTimer = setInterval(
      () => void this.reconcile().catch((e: unknown) => this.logger.warn({ err: this.clean(e) }, 'reconcile failed')),
      every,
    );
    this.reconcileTimer.unref();
    this.watchTimer = setInterval(() => {
      this.watching ??= this.watches
        .tick(this.deps.api, this.service, this.logger, tellWatch)
        .catch((e: unknown) => this.logger.warn({ err: this.clean(e) }, 'address watch tick failed'))
        .finally(() => {
          this.watching = undefined;
        });
    }, this.deps.watch?.tickMs ?? DEFAULT_WATCH.tickMs);
    this.watchTimer.unref();
  }

  private startNotifyWorkers(opts: WorkerOptions): void {
    const { deps } = this;
    const w = deps.workers ?? {};
    // The same platform rates as the queue limiters, counted in messages rather than jobs.
    const platformRate = (p: Platform) => {
      if (p === 'console' || p === 'mcp') return undefined;
      const r = deps.platformRates?.[p] ?? DEFAULT_PLATFORM_RATES[p];
      return { limit: r.max, windowMs: r.duration };
    };
    const pacer = new Pacer(this.redis, this.keys, deps.pacing, platformRate);
    const languages = this.deps.languages ?? NO_LANGUAGES;
    for (const platform of PLATFORMS) {
      const messenger = opts.messengers[platform];
      const queue = this.queues.notify.get(platform);
      if (!messenger || !queue) continue;
      const processor = new NotifyProcessor({
        subs: this.subs,
        store: this.store,
        settings: this.chatSettings,
        now: this.now,
        messenger: counted(messenger),
        render: opts.renderers?.[platform] ?? opts.render,
        languages,
        pacer,
        rateLimit: (ms) => queue.rateLimit(ms),
        onChatMoved: (from, toChatId) => this.service.moveChat(from.platform, from.chatId, toChatId),
        onBlocked: (target, swapIds) => this.moves.rememberAway(target, swapIds),
        routeTimes: this.routeTimes,
        logger: this.logger,
        ...(deps.faults?.afterSend ? { afterSend: deps.faults.afterSend } : {}),
      });
      this.watch(
        new Worker<NotifyJobData>(notifyQueueName(platform), (job, token) => processor.process(job, token), {
          ...this.workerBase(notifyQueueName(platform)),
          connection: this.workerConnection(`tracking-notify-${platform}`),
          // Enough jobs in hand to book a platform's rate a window ahead (pacing.ts), each waiting for its slot.
          concurrency: w.notifyConcurrency ?? Math.min(100, Math.max(10, 2 * (platformRate(platform)?.limit ?? 0))),
          limiter: deps.platformRates?.[platform] ?? DEFAULT_PLATFORM_RATES[platform],
          settings: { backoffStrategy: notifyBackoff(w.notifyBackoffMaxMs ?? 5 * 60_000) },
          maxStalledCount: 5,
        }),
      );
    }
  }

  private workerBase(queue: string) {
    const w = this.deps.workers ?? {};
    return {
      prefix: this.keys.queuePrefix(queue),
      ...(w.lockDurationMs ? { lockDuration: w.lockDurationMs } : {}),
      ...(w.stalledIntervalMs ? { stalledInterval: w.stalledIntervalMs } : {}),
    };
  }

  private workerConnection(name: string): Redis {
    const c = createRedis(this.connectionOptions, { logger: this.logger, name, maxRetriesPerRequest: null });
    this.workerConnections.push(c);
    return c;
  }

  private pollStoreConnection(): Redis {
    const c = createRedis({ ...this.connectionOptions, enableAutoPipelining: true }, { logger: this.logger, name: 'tracking-poll-store' });
    this.workerConnections.push(c);
    return c;
  }

  /** Logs a worker's Redis errors and failed jobs, and keeps it for close(). */
  private watch(worker: Worker): void {
    logRedisErrors(worker, `worker ${worker.name}`, this.logger, this.secrets);
    worker.on('failed', (job: Job | undefined, e: Error) =>
      this.logger.warn({ queue: worker.name, jobId: job?.id, attempts: job?.attemptsMade, err: this.clean(e) }, 'tracking job failed'),
    );
    this.workers.push(worker);
  }

  private clean(e: unknown): string {
    return scrub(e instanceof Error ? e.message : String(e), this.secrets);
  }
}

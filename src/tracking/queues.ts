import { Queue, type BackoffStrategy, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { PLATFORMS, type Platform } from '../contracts/incoming.js';
import { notifyDedupId, notifyQueueName, POLL_QUEUE, pollJobId, targetKey } from './keys.js';
import type { TrackingKeys } from '../contracts/keys.js';
import type { NotifyJobData } from './notify-job.js';
import type { PollJobData } from './poll-job.js';

/**
 * The BullMQ queues: one poll queue (one job per followed swap) and one notify queue per
 * platform, so each platform has its own rate limiter and a 429 from one platform pauses only
 * that platform's deliveries.
 */

export interface RateLimit {
  max: number;
  duration: number;
}

/**
 * Platform-wide delivery rates (BullMQ limiters, global across workers): Telegram about 30
 * messages/s, Discord 50 requests/s (45 leaves room for the web process). The console has no
 * limit but BullMQ needs a limiter for manual rate-limiting to take effect, hence a high one.
 */
export const DEFAULT_PLATFORM_RATES: Readonly<Record<Platform, RateLimit>> = {
  telegram: { max: 30, duration: 1000 },
  discord: { max: 45, duration: 1000 },
  console: { max: 10_000, duration: 1000 },
  mcp: { max: 10_000, duration: 1000 },
};

/** Requests to the swap service per second, over all poll jobs and workers. */
export const DEFAULT_API_RATE: RateLimit = { max: 50, duration: 1000 };

/**
 * Removed when done so the same swap can be followed (and polled) again later: the poll worker's
 * POLL_WORKER_REMOVAL. A run that fails on a Redis error (out of memory, a restart, a failover) is
 * retried with a capped back-off (POLL_RETRY), so the swap goes on as soon as Redis does rather
 * than at the next reconcile minutes later; any other failure ends the job at once (poll-job.ts
 * makes it unrecoverable) and the reconcile re-creates it from the set of followed swaps.
 */
export const POLL_WORKER_REMOVAL = { removeOnComplete: { count: 0 }, removeOnFail: { count: 0 } };
/** A Redis outage of an hour at the 30 s cap: 1 s, 2 s, 4 s … 30 s, 30 s … */
export const POLL_RETRY = { attempts: 150, backoff: { type: 'capped', delay: 1000 } } as const;
export const POLL_RETRY_MAX_MS = 30_000;

/** BullMQ's event streams (one per queue) are read by nothing here: keep them short. */
const EVENTS_MAX_LEN = 50;

/**
 * A notify job retries until the chat has everything, however long the platform is down: a fixed
 * attempt cap lost the last updates of any outage longer than its budget (the swap is no longer
 * polled by then, so nothing would queue the chat again). It ends when the chat is up to date, no
 * longer follows, is gone (403, deleted channel), or when the swap's data expires after retention.
 */
const NOTIFY_ATTEMPTS = 2 ** 31 - 1;
const NOTIFY_BACKOFF = 'capped';

function notifyJobOptions(backoffMs: number): JobsOptions {
  return {
    attempts: NOTIFY_ATTEMPTS,
    backoff: { type: NOTIFY_BACKOFF, delay: backoffMs },
    removeOnComplete: true,
    removeOnFail: { age: 7 * 86_400, count: 1000 },
  };
}

/** The notify and poll workers' backoff strategy (BullMQ asks it for non-builtin types): doubling from the job's delay, capped at maxMs. */
export function notifyBackoff(maxMs: number): BackoffStrategy {
  return (attemptsMade, _type, _err, job) => {
    const b = job?.opts.backoff;
    const base = typeof b === 'object' && b.delay ? b.delay : 1000;
    return Math.min(base * 2 ** Math.min(Math.max(attemptsMade - 1, 0), 30), maxMs);
  };
}

export class TrackingQueues {
  readonly poll: Queue<PollJobData>;
  readonly notify: ReadonlyMap<Platform, Queue<NotifyJobData>>;

  constructor(
    connection: Redis,
    keys: TrackingKeys,
    private readonly notifyBackoffMs: number,
  ) {
    const base = { connection, streams: { events: { maxLen: EVENTS_MAX_LEN } } };
    this.poll = new Queue<PollJobData>(POLL_QUEUE, { ...base, prefix: keys.queuePrefix(POLL_QUEUE) });
    this.notify = new Map(
      PLATFORMS.map((p) => [p, new Queue<NotifyJobData>(notifyQueueName(p), { ...base, prefix: keys.queuePrefix(notifyQueueName(p)) })]),
    );
  }

  /** Adds the swap's poll job unless one exists (same job id): one poller per swap. */
  async ensurePoll(swapId: string): Promise<void> {
    await this.poll.add('poll', {}, { jobId: pollJobId(swapId), ...POLL_RETRY });
  }

  /** One job per chat and swap; while one is queued, more adds are absorbed (it delivers the newest). */
  async enqueueNotify(data: NotifyJobData): Promise<void> {
    const queue = this.notify.get(data.platform);
    if (!queue) return;
    await queue.add('notify', data, {
      ...notifyJobOptions(this.notifyBackoffMs),
      deduplication: { id: notifyDedupId(targetKey(data), data.swapId), keepLastIfActive: true },
    });
  }

  /** Jobs not finished yet in every notify queue (for draining in tests and health checks). */
  async pendingNotifications(): Promise<number> {
    let n = 0;
    for (const q of this.notify.values()) {
      const c = await q.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
      n += Object.values(c).reduce((a, b) => a + b, 0);
    }
    return n;
  }

  all(): Queue[] {
    return [this.poll, ...this.notify.values()] as Queue[];
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((q) => q.close()));
  }
}

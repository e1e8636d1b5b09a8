import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import { onScrape, type QueueReading } from '../metrics.js';
import { logRedisErrors } from '../redis.js';
import { notifyQueueName, POLL_QUEUE } from '../tracking/keys.js';
import { TrackingKeys } from '../contracts/keys.js';
import { PLATFORMS } from '../contracts/incoming.js';

/**
 * What /metrics reads from Redis when scraped: each tracking queue's job counts and its oldest
 * waiting job, and how many swaps are followed. Read-only Queue handles on the process's own
 * connection (no extra connections). Returns the unregistration, for the runtime's close.
 * Their errors go to the outage log: a Queue without an 'error' listener prints each one as a raw
 * stack trace (BullMQ's console.error), dozens a second while Redis is away.
 */
export function scrapeTracking(redis: Redis, prefix: string, logger: Logger, secrets: readonly string[]): () => Promise<void> {
  const keys = new TrackingKeys(prefix);
  const queues = [POLL_QUEUE, ...PLATFORMS.map(notifyQueueName)].map(
    (name) => new Queue(name, { connection: redis, prefix: keys.queuePrefix(name) }),
  );
  for (const q of queues) logRedisErrors(q, `metrics queue ${q.name}`, logger, secrets);
  const off = onScrape({
    queues: () => answered(redis, () => Promise.all(queues.map(readQueue))),
    followedSwaps: () => answered(redis, () => redis.scard(keys.activeSwaps)),
  });
  return async () => {
    off();
    await Promise.all(queues.map((q) => q.close()));
  };
}

/** A scrape must answer while Redis is away (a BullMQ read waits for its connection for good): fail fast instead. */
const SCRAPE_READ_MS = 2_000;
async function answered<T>(redis: Redis, read: () => Promise<T>): Promise<T> {
  if (redis.status !== 'ready') throw new Error(`Redis is ${redis.status}`);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error('Redis did not answer the scrape in time')), SCRAPE_READ_MS)),
  );
  try {
    return await Promise.race([read(), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function readQueue(q: Queue): Promise<QueueReading> {
  const counts = await q.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
  // Oldest first: how long work has been due without a worker taking it (workers behind, or a
  // rate limit). A step job (poll) was due `delay` after its last run, not after its creation.
  const [oldest] = await q.getJobs(['wait'], 0, 0, true);
  const dueAt = oldest ? (oldest.processedOn ?? oldest.timestamp) + (oldest.delay ?? 0) : undefined;
  const oldestWaitingSeconds = dueAt !== undefined ? Math.max(0, (Date.now() - dueAt) / 1000) : undefined;
  return { queue: q.name, counts, oldestWaitingSeconds };
}

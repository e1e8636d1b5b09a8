import { createHmac } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { TrackingKeys } from '../contracts/keys.js';
import { asError, type Logger } from '../log.js';
import { logRedisErrors } from '../redis.js';
import type { AgentEvent } from './events.js';
import type { AgentKeyStore } from './key-store.js';

/**
 * Signed webhooks for agents that cannot hold a connection. One BullMQ job per event, its id the
 * event id (a second enqueue of the same moment is absorbed), retried with doubling back-off for
 * about a day; the receiver gets each moment at least once and drops a repeat by X-Swapbot-Event-Id.
 * Signature: X-Swapbot-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>, so a
 * receiver checks the body and its age (Stripe's and Svix's scheme).
 */
const WEBHOOK_QUEUE = 'mcp-webhook';
const ATTEMPTS = 20;
const FIRST_RETRY_MS = 1_000;
const TIMEOUT_MS = 10_000;

function signature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export class WebhookQueue {
  private readonly queue: Queue<AgentEvent>;
  constructor(
    connection: Redis,
    prefix: string,
    private readonly keys: AgentKeyStore,
    logger: Logger,
  ) {
    this.queue = new Queue<AgentEvent>(WEBHOOK_QUEUE, { connection, prefix: new TrackingKeys(prefix).queuePrefix(WEBHOOK_QUEUE) });
    // Redis outages go to the one outage log, not to stderr as BullMQ's unhandled 'error' would.
    logRedisErrors(this.queue, `queue ${WEBHOOK_QUEUE}`, logger);
  }

  /** Queued only when the key has a webhook; the event id is the job id (once per moment). */
  async enqueue(event: AgentEvent): Promise<void> {
    const key = await this.keys.byId(event.key_id);
    if (!key?.webhookUrl) return;
    await this.queue.add('deliver', event, {
      jobId: event.id,
      attempts: ATTEMPTS,
      backoff: { type: 'exponential', delay: FIRST_RETRY_MS },
      removeOnComplete: { age: 7 * 86_400 },
      removeOnFail: { age: 7 * 86_400 },
    });
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

/** The worker that POSTs each event to its key's current URL; a non-2xx or no answer retries. */
export function startWebhookWorker(connection: Redis, prefix: string, keys: AgentKeyStore, logger: Logger): Worker<AgentEvent> {
  const worker = new Worker<AgentEvent>(
    WEBHOOK_QUEUE,
    async (job: Job<AgentEvent>) => {
      const key = await keys.byId(job.data.key_id);
      if (!key?.webhookUrl || !key.webhookSecret) return 'no_webhook';
      const body = JSON.stringify(job.data);
      const t = Math.floor(Date.now() / 1000);
      const res = await fetch(key.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-swapbot-event-id': job.data.id,
          'x-swapbot-signature': `t=${t},v1=${signature(key.webhookSecret, t, body)}`,
        },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await res.body?.cancel();
      if (res.status < 200 || res.status >= 300) throw new Error(`webhook answered ${res.status}`);
      return 'delivered';
    },
    { connection, prefix: new TrackingKeys(prefix).queuePrefix(WEBHOOK_QUEUE), concurrency: 10 },
  );
  logRedisErrors(worker, `worker ${WEBHOOK_QUEUE}`, logger);
  worker.on('failed', (job, err) =>
    logger.warn(
      { keyId: job?.data.key_id, eventId: job?.data.id, attempts: job?.attemptsMade, err: asError(err) },
      'mcp webhook delivery failed; retrying',
    ),
  );
  return worker;
}

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics: one registry and typed instruments, served as text on
 * GET /metrics by the web and the worker process (app/http-server.ts). Labels are fixed words
 * (operations, outcomes, platforms, queues): never ids, addresses or anything a user typed, so the
 * page holds nothing private and its size stays bounded.
 *
 * Gauges that describe shared state (queue depths, followed swaps) are read from Redis when
 * scraped, through sources registered with `onScrape`; every process reports the same values,
 * so sum the counters over processes but take max() of those gauges.
 */

const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'swapbot_' });

/** What became of one HTTP attempt to the swap service. */
export type ApiOutcome = 'ok' | 'client_error' | 'rate_limited' | 'server_error' | 'timeout' | 'connection' | 'bad_response';

export const apiRequests = new Counter({
  name: 'swapbot_api_requests_total',
  help: 'HTTP attempts to the Layerswap API, by operation (method and route, no ids) and outcome (429s are outcome="rate_limited")',
  labelNames: ['operation', 'outcome'] as const,
  registers: [registry],
});

export const apiLatency = new Histogram({
  name: 'swapbot_api_request_duration_seconds',
  help: 'Time from sending a request to the Layerswap API to its whole answer (or failure), by operation',
  labelNames: ['operation'] as const,
  buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  registers: [registry],
});

/** What one poll of a followed swap ended with (the poll job's outcome). */
export const polls = new Counter({
  name: 'swapbot_polls_total',
  help: 'Poll runs of followed swaps, by outcome: polled again later (changed, unchanged, not_found_yet, unreadable), ended (final, unfollowed, not_found, abandoned), api_unavailable (all pollers paused), failed',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Swap answers that would have moved a swap back through its lifecycle (stale replicas, caches). */
export const backwardAnswers = new Counter({
  name: 'swapbot_backward_swap_answers_total',
  help: 'Polled swap answers whose status would move the swap back (an earlier status, or no deposit after one was seen), by outcome: ignored (a stale answer, not shown), confirmed (answers in a row agreed: shown as a regression)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookHints = new Counter({
  name: 'swapbot_webhook_hints_total',
  help: 'Layerswap webhook calls, by result (accepted, replayed, rejected: bad signature or headers, ignored: no swap id, failed: could not schedule the check)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const notifyDeliveries = new Counter({
  name: 'swapbot_notify_deliveries_total',
  help: 'Platform calls that send or edit status cards and key-moment messages, by platform and outcome (delivered, failed: any refusal, 429 or network error)',
  labelNames: ['platform', 'outcome'] as const,
  registers: [registry],
});

export const rateLimited = new Counter({
  name: 'swapbot_rate_limited_total',
  help: 'HTTP 429 answers, by who sent them (layerswap, telegram, discord)',
  labelNames: ['source'] as const,
  registers: [registry],
});

/** The service refusing our API key (403 API_KEY_FORBIDDEN, 401/403 INVALID_CREDENTIALS): the operator must act. */
export const apiKeyRefused = new Counter({
  name: 'swapbot_api_key_refused_total',
  help: 'Layerswap answers refusing LAYERSWAP_API_KEY (API_KEY_FORBIDDEN or INVALID_CREDENTIALS); the log says it once per stretch of refusals',
  registers: [registry],
});

export const redisErrors = new Counter({
  name: 'swapbot_redis_errors_total',
  help: 'Error events from Redis connections, BullMQ queues and workers (every retry counts; the log has one line per outage)',
  registers: [registry],
});

/** One reading of a BullMQ queue: job counts by state and how long its oldest waiting job has waited. */
export interface QueueReading {
  queue: string;
  counts: Readonly<Record<string, number>>;
  /** Seconds the oldest waiting job has waited; undefined when none waits. */
  oldestWaitingSeconds?: number | undefined;
}

/** What a process can read from Redis at scrape time. */
export interface ScrapeSource {
  queues?(): Promise<QueueReading[]>;
  followedSwaps?(): Promise<number>;
}

const sources = new Set<ScrapeSource>();

/** Registers a source read on every scrape; returns its removal (call it when the part closes). */
export function onScrape(source: ScrapeSource): () => void {
  sources.add(source);
  return () => void sources.delete(source);
}

/** A source that fails (Redis down) is left out of that scrape: the page still answers. */
async function readAll<T>(read: (s: ScrapeSource) => Promise<T> | undefined): Promise<T[]> {
  const out: T[] = [];
  for (const s of sources) {
    const p = read(s);
    if (!p) continue;
    try {
      out.push(await p);
    } catch {
      redisErrors.inc();
    }
  }
  return out;
}

new Gauge({
  name: 'swapbot_queue_jobs',
  help: 'BullMQ jobs by queue and state, read from Redis when scraped',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const readings of await readAll((s) => s.queues?.())) {
      for (const r of readings) for (const [state, n] of Object.entries(r.counts)) this.set({ queue: r.queue, state }, n);
    }
  },
});

new Gauge({
  name: 'swapbot_queue_oldest_waiting_seconds',
  help: 'How long the oldest job waiting in each BullMQ queue has waited (0 when none waits): the queue delay',
  labelNames: ['queue'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const readings of await readAll((s) => s.queues?.())) {
      for (const r of readings) this.set({ queue: r.queue }, r.oldestWaitingSeconds ?? 0);
    }
  },
});

new Gauge({
  name: 'swapbot_followed_swaps',
  help: 'Swaps followed by at least one chat and not final yet, read from Redis when scraped',
  registers: [registry],
  async collect() {
    this.reset();
    const values = await readAll((s) => s.followedSwaps?.());
    if (values.length > 0) this.set(Math.max(...values));
  },
});

/** The page GET /metrics serves, and its content type. */
export async function metricsPage(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

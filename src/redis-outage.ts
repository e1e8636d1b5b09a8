import { asError, type Logger } from './log.js';
import { redisErrors } from './metrics.js';

/**
 * Redis trouble told once per outage: what every connection, BullMQ queue and worker of the
 * process reports its errors to (redis.ts hands them over).
 */
/** What the outage log needs of a connection to ask it for a good reply. */
export interface ProbedClient {
  readonly status: string;
  ping(): Promise<string>;
}

export interface OutageLogOptions {
  now?: () => number;
  /** While an outage lasts, how often a ready connection is asked for a PONG to end it. */
  probeEveryMs?: number;
  /** How long a PING may take before it counts as no answer. */
  probeTimeoutMs?: number;
}

interface Trouble {
  since: number;
  errors: number;
  sources: Set<string>;
}

/**
 * Redis trouble as an operator wants to read it: one warning when an outage starts and one line
 * when Redis answers again, however many connections, queues and workers of the process report it
 * and however often each retries (a 2 s outage used to print ~100 lines, a wrong password ~40 a
 * second). Shared per logger: every connection, queue and worker error listener reports here.
 *
 * An outage ends on evidence that Redis works: a watched connection's 'ready', or a PONG to the
 * PING it sends a ready connection every probeEveryMs while the outage lasts. An error while
 * connections are ready (a queue or worker reporting a failure from before the recovery) opens an
 * outage only if a ready connection then fails to answer a PING: errors arrive from emitters
 * (BullMQ queues, workers, their own duplicated connections) whose recovery no 'ready' announces,
 * so an outage they alone opened used to last for good, and "available again" was never logged.
 */
export class RedisOutageLog {
  private outage: Trouble | undefined;
  /** Errors seen while a PING checks whether Redis answers after all. */
  private suspect: Trouble | undefined;
  /** Watched connections, each with how often it has lost its connection. */
  private readonly clients = new Map<ProbedClient, { drops: number }>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly probeEveryMs: number;
  private readonly probeTimeoutMs: number;

  constructor(
    private readonly logger: Logger,
    options: OutageLogOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.probeEveryMs = options.probeEveryMs ?? 1_000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 1_000;
  }

  get down(): boolean {
    return this.outage !== undefined;
  }

  /** Errors reported during the current outage, or while one is being confirmed (0 when Redis is fine). */
  get errors(): number {
    return (this.outage ?? this.suspect)?.errors ?? 0;
  }

  /** Follows a connection: its 'ready' ends an outage, and it answers the PINGs that confirm or end one. */
  watch(client: ProbedClient & { on(event: 'ready' | 'close' | 'end', listener: () => void): unknown }, name: string): void {
    const seen = { drops: 0 };
    this.clients.set(client, seen);
    client.on('ready', () => this.ready(name));
    client.on('close', () => seen.drops++);
    client.on('end', () => this.clients.delete(client));
  }

  /** An 'error' event from a connection, queue or worker; `secrets` are scrubbed from the message. */
  error(source: string, err: unknown, secrets: readonly string[] = []): void {
    redisErrors.inc();
    const open = this.outage ?? this.suspect;
    if (open) {
      open.errors++;
      open.sources.add(source);
      return;
    }
    const message = asError(err, { secrets }).message;
    this.suspect = { since: this.now(), errors: 1, sources: new Set([source]) };
    void this.answered().then((ok) => {
      const s = this.suspect;
      this.suspect = undefined;
      if (!s || this.outage) return;
      if (ok) {
        this.logger.debug(
          { connection: source, errors: s.errors },
          `Redis error while Redis answers (a report from before it recovered): ${message}`,
        );
        return;
      }
      this.outage = s;
      this.logger.warn({ connection: source }, `Redis connection problem: ${message} (retrying; logged once until Redis answers again)`);
      this.timer = setInterval(() => void this.answered().then((yes) => yes && this.ready('ping')), this.probeEveryMs);
      this.timer.unref();
    });
  }

  /** Redis answered (a connection is ready again, or a PONG): ends the outage, if there was one. */
  ready(source: string): void {
    const o = this.outage;
    if (!o) return;
    this.outage = undefined;
    clearInterval(this.timer);
    const seconds = Math.round((this.now() - o.since) / 100) / 10;
    this.logger.info({ connection: source, errors: o.errors, affected: [...o.sources] }, `Redis available again after ${seconds} s`);
  }

  /**
   * True when a ready connection answers PING within probeTimeoutMs without losing its connection
   * meanwhile (a PONG after a reconnect says Redis is back, not that the error was from before).
   */
  private async answered(): Promise<boolean> {
    const ready = [...this.clients].filter(([c]) => c.status === 'ready');
    if (ready.length === 0) return false;
    const pong = async ([client, seen]: (typeof ready)[number]) => {
      const drops = seen.drops;
      const reply = await client.ping();
      if (reply !== 'PONG' || seen.drops !== drops) throw new Error('no answer on the same connection');
      return true;
    };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), this.probeTimeoutMs)));
    try {
      return await Promise.race([Promise.any(ready.map(pong)).catch(() => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

const outageLogs = new WeakMap<Logger, RedisOutageLog>();

/** The outage log of this logger (one per process in practice: the root logger). */
export function redisOutageLog(logger: Logger): RedisOutageLog {
  let log = outageLogs.get(logger);
  if (!log) outageLogs.set(logger, (log = new RedisOutageLog(logger)));
  return log;
}

const REDIS_ERROR_NAMES = new Set(['ReplyError', 'MaxRetriesPerRequestError', 'AbortError', 'ClusterAllFailedError', 'InterruptError']);
const REDIS_ERROR_TEXT =
  /^(OOM|LOADING|READONLY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|MOVED|ASK|BUSY)\b|Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT/;

/**
 * Whether an error came from Redis rather than from the job's own logic: a reply error (out of
 * memory, loading after a restart, a failover's READONLY), or a connection that was lost. Such a
 * failure passes once Redis does, so it is worth retrying; the cause chain is searched too.
 */
export function isRedisError(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (REDIS_ERROR_NAMES.has(e.name) || REDIS_ERROR_TEXT.test(e.message)) return true;
    if ('code' in e && typeof e.code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)$/.test(e.code)) return true;
  }
  return false;
}

import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { redisDb } from './config.js';
import { silentLogger, scrub, type Logger } from './log.js';
import { redisErrors } from './metrics.js';

/**
 * Redis connections for the stores and BullMQ, and the embedded redis-server that `swapbot start`
 * launches when REDIS_URL is unset. URLs are redis://, rediss:// or unix:///abs/path/redis.sock,
 * or `redis-cluster:` + REDIS_CLUSTER_NODES for a Redis Cluster (clusterUrl). The password never
 * reaches a log line or an error message.
 */

/** RedisOptions, plus the seed nodes when the target is a Redis Cluster. */
export interface RedisTarget extends RedisOptions {
  clusterNodes?: Array<{ host: string; port: number }>;
}

const CLUSTER_SCHEME = 'redis-cluster:';

/**
 * REDIS_CLUSTER_NODES as one connection string, so everything that takes a Redis URL (the
 * runtime, tracking, test harnesses) runs on a cluster unchanged: `redis-cluster:h1:p1,h2:p2`.
 */
export function clusterUrl(nodes: string): string {
  return `${CLUSTER_SCHEME}${nodes}`;
}

/**
 * Seed nodes, as host:port or redis(s)://[user:pass@]host:port entries. ioredis uses one set of
 * options for every node, so the first entry with credentials (or rediss://) gives them to all.
 */
function clusterOptions(list: string): RedisTarget {
  const out: RedisTarget = { clusterNodes: [] };
  for (const raw of list.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    if (/^rediss?:\/\//.test(entry)) {
      const o = redisOptionsFromUrl(entry);
      out.clusterNodes!.push({ host: o.host ?? '127.0.0.1', port: o.port ?? 6379 });
      if (o.password && out.password === undefined) {
        out.password = o.password;
        if (o.username) out.username = o.username;
      }
      if (o.tls) out.tls = o.tls;
      continue;
    }
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(entry);
    if (!m) throw new Error('REDIS_CLUSTER_NODES lists nodes as host:port separated by commas, such as 10.0.0.1:6379,10.0.0.2:6379');
    out.clusterNodes!.push({ host: m[1] as string, port: Number(m[2]) });
  }
  if (out.clusterNodes!.length === 0) throw new Error('REDIS_CLUSTER_NODES names no node: list them as host:port separated by commas');
  return out;
}

/** ioredis options for a URL (BullMQ takes these as `connection` and makes its own clients). */
export function redisOptionsFromUrl(url: string): RedisTarget {
  if (url.startsWith(CLUSTER_SCHEME)) return clusterOptions(url.slice(CLUSTER_SCHEME.length));
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('REDIS_URL is not a valid URL: use redis://host:6379, rediss://host:6380 or unix:///path/to/redis.sock');
  }
  const auth: RedisOptions = {};
  if (u.username) auth.username = decodeURIComponent(u.username);
  if (u.password) auth.password = decodeURIComponent(u.password);
  if (u.protocol === 'unix:') {
    const path = decodeURIComponent(u.pathname);
    if (!path.startsWith('/')) throw new Error('a unix:// Redis URL needs an absolute socket path, such as unix:///srv/swapbot/.data/redis.sock');
    return { ...auth, path, db: databaseOf(url) };
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new Error(`REDIS_URL uses ${u.protocol}//: use redis://, rediss:// or unix://`);
  }
  return {
    ...auth,
    host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: Number(u.port || 6379),
    db: databaseOf(url),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/** The URL's database number; a path that is not one is refused rather than read as database 0. */
function databaseOf(url: string): number {
  const db = redisDb(url);
  if (typeof db === 'string') throw new Error(`REDIS_URL: ${db}`);
  return db;
}

/** The secrets inside a Redis URL, for scrubbing. */
export function redisSecrets(url: string): string[] {
  if (url.startsWith(CLUSTER_SCHEME)) return url.slice(CLUSTER_SCHEME.length).split(',').flatMap((e) => (/^rediss?:\/\//.test(e.trim()) ? redisSecrets(e.trim()) : []));
  try {
    const u = new URL(url);
    return u.password ? [u.password, decodeURIComponent(u.password)] : [];
  } catch {
    return [];
  }
}

export interface CreateRedisOptions extends Omit<RedisOptions, 'host' | 'port' | 'path' | 'password' | 'username'> {
  logger?: Logger;
  /** Name used in log lines. */
  name?: string;
}

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
    const message = scrub(err instanceof Error ? err.message : String(err), secrets);
    this.suspect = { since: this.now(), errors: 1, sources: new Set([source]) };
    void this.answered().then((ok) => {
      const s = this.suspect;
      this.suspect = undefined;
      if (!s || this.outage) return;
      if (ok) {
        this.logger.debug({ connection: source, errors: s.errors }, `Redis error while Redis answers (a report from before it recovered): ${message}`);
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

/** Sends an emitter's 'error' events (a BullMQ Queue or Worker) to the outage log instead of one line each. */
export function logRedisErrors(emitter: { on(event: 'error', listener: (err: Error) => void): unknown }, source: string, logger: Logger, secrets: readonly string[] = []): void {
  const outage = redisOutageLog(logger);
  emitter.on('error', (err) => outage.error(source, err, secrets));
}

/**
 * One ioredis client for a URL (or ready-made options). Connection errors go to the outage log
 * (scrubbed of the password) instead of crashing the process; ioredis keeps reconnecting.
 *
 * A cluster target (clusterUrl, or options with clusterNodes) gives an ioredis Cluster. It is
 * typed as Redis because it takes the same commands and BullMQ accepts it as a connection;
 * keys of one command or script must share a hash slot ({tag}), which tracking/keys.ts ensures.
 */
export function createRedis(target: string | RedisTarget, opts: CreateRedisOptions = {}): Redis {
  const { logger = silentLogger, name = 'redis', ...rest } = opts;
  const base: RedisTarget = typeof target === 'string' ? redisOptionsFromUrl(target) : target;
  const secrets = typeof target === 'string' ? redisSecrets(target) : target.password ? [target.password] : [];
  const client = base.clusterNodes ? openCluster(base, rest) : new Redis({ ...base, ...rest });
  const outage = redisOutageLog(logger);
  client.on('error', (err: unknown) => outage.error(name, err, secrets));
  outage.watch(client, name);
  return client;
}

/**
 * One connection attempt and a PING, no retries: undefined when Redis answers, else why not
 * (scrubbed of the password). For a start that cannot go on without Redis (the terminal chat), so
 * it can say so once instead of retrying forever behind a chat that fails every command.
 */
export async function probeRedis(url: string, timeoutMs = 5_000): Promise<string | undefined> {
  const { clusterNodes, ...options } = redisOptionsFromUrl(url);
  const single = { ...options, lazyConnect: true, connectTimeout: timeoutMs, retryStrategy: () => null, maxRetriesPerRequest: 0 };
  const client: Redis = clusterNodes
    ? (new Cluster(clusterNodes, { redisOptions: single, lazyConnect: true, clusterRetryStrategy: () => null, enableReadyCheck: false }) as unknown as Redis)
    : new Redis(single);
  let reported: unknown;
  client.on('error', (err: unknown) => (reported ??= err));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)));
  try {
    await Promise.race([client.connect().then(() => client.ping()), late]);
    return undefined;
  } catch (err) {
    // The connection's own error (ECONNREFUSED, WRONGPASS) says more than "Connection is closed".
    const why = reported ?? err;
    return scrub(why instanceof Error ? why.message : String(why), redisSecrets(url));
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

/**
 * How long, at least, a cluster command waits for its slot to be served again (a failover: the
 * master's cluster-node-timeout, 15 s by default, plus the replica's election) before it fails;
 * one retry every CLUSTER_RETRY_MS meanwhile. ioredis counts each retry as a redirection (a retry
 * can take two: a MOVED to the master that is down, then its closed connection), and its default
 * of 16 gave up after about 3 s, long before a replica took over.
 */
const CLUSTER_FAILOVER_BUDGET_MS = 30_000;
const CLUSTER_RETRY_MS = 300;

function openCluster(target: RedisTarget, extra: RedisOptions): Redis {
  // No auto-pipelining on a cluster, whatever the caller asked: ioredis batches the commands of
  // one node, and retries a batch only when all its commands got the same redirection, so after
  // a failover commands of different slots failed with MOVED instead of following it (a poll job
  // failed and its swap went unpolled until the next reconcile). ioredis issue #2075.
  const { clusterNodes = [], enableAutoPipelining: _autoPipelining, ...nodeOptions } = { ...target, ...extra };
  const options: ClusterOptions = {
    // Per-node options: credentials, TLS, retries per command (BullMQ reads them from here).
    redisOptions: nodeOptions,
    // A failover takes seconds: keep retrying a moved, down or unreachable slot meanwhile.
    retryDelayOnFailover: CLUSTER_RETRY_MS,
    retryDelayOnClusterDown: CLUSTER_RETRY_MS,
    retryDelayOnTryAgain: CLUSTER_RETRY_MS,
    maxRedirections: (2 * CLUSTER_FAILOVER_BUDGET_MS) / CLUSTER_RETRY_MS,
    clusterRetryStrategy: (times) => Math.min(100 * times, 2_000),
    // Ready once the slots are known. With the ready check, a connect() during a failover (the
    // cluster says fail) reconnects without ever settling its promise (ioredis PR #741), and a
    // BullMQ worker that reconnects its blocking client so waited for good: polling stopped.
    // While the cluster is down, commands get CLUSTERDOWN and are retried as above.
    enableReadyCheck: false,
  };
  return new Cluster(clusterNodes, options) as unknown as Redis;
}

// ---- embedded redis-server ----

export interface EmbeddedRedis {
  /** unix:///abs/path/redis.sock */
  url: string;
  stop(): Promise<void>;
}

/**
 * hash-max-listpack-value for the embedded Redis, and the value documented for production: each
 * followed swap's hash (tracking/swap-store.ts) stays a compact listpack, its card data being
 * ~0.5-1.5 KB.
 */
export const HASH_MAX_LISTPACK_VALUE = 2048;

const REDIS_MISSING_MESSAGE =
  'swapbot needs Redis to track swaps, and no redis-server was found on PATH. Install one ' +
  '(Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a running Redis ' +
  '(for example REDIS_URL=redis://127.0.0.1:6379).';

function findOnPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** PING over the socket; true when Redis answers (even NOAUTH). */
function pingSocket(path: string, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const sock = net.connect({ path });
    const finish = (ok: boolean) => {
      sock.destroy();
      done(ok);
    };
    sock.setTimeout(timeoutMs, () => finish(false));
    sock.on('error', () => finish(false));
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => finish(/^(\+PONG|-NOAUTH)/.test(d.toString())));
  });
}

const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * Starts redis-server on a unix socket under dataDir with append-only persistence, so followed
 * swaps survive a restart. A server already answering on that socket (left over by a killed run)
 * is reused.
 */
export async function startEmbeddedRedis(options: { dataDir: string; logger?: Logger; binary?: string }): Promise<EmbeddedRedis> {
  const logger = options.logger ?? silentLogger;
  const dir = resolve(options.dataDir);
  const socket = join(dir, 'redis.sock');
  if (Buffer.byteLength(socket) > 100) {
    throw new Error(`The Redis socket path ${socket} is too long for a unix socket (max ~100 bytes): set DATA_DIR to a shorter path`);
  }
  const url = `unix://${socket}`;
  const binary = options.binary ?? findOnPath('redis-server');
  if (!binary) throw new Error(REDIS_MISSING_MESSAGE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });

  if (existsSync(socket)) {
    if (await pingSocket(socket)) {
      logger.warn({ socket }, 'reusing the redis-server already running on this socket');
      return { url, stop: () => shutdownOverSocket(socket) };
    }
    rmSync(socket, { force: true });
  }

  const conf = join(dir, 'redis.conf');
  writeFileSync(
    conf,
    [
      'port 0',
      `unixsocket ${quote(socket)}`,
      'unixsocketperm 700',
      `dir ${quote(dir)}`,
      'appendonly yes',
      'appendfsync everysec',
      'maxmemory-policy noeviction',
      // The Redis 6 name of hash-max-listpack-value, still accepted by Redis 7.
      `hash-max-ziplist-value ${HASH_MAX_LISTPACK_VALUE}`,
      'daemonize no',
      'logfile ""',
      'save ""',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );

  const child = spawn(binary, [conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: { code: number | null; signal: string | null } | undefined;
  let spawnError: Error | undefined;
  const exit = new Promise<void>((res) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      res();
    });
    child.on('error', (err) => {
      spawnError = err;
      res();
    });
  });

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (spawnError) {
      const missing = (spawnError as NodeJS.ErrnoException).code === 'ENOENT';
      throw new Error(missing ? REDIS_MISSING_MESSAGE : `redis-server could not start: ${spawnError.message}`);
    }
    if (exited) {
      throw new Error(`redis-server exited at start (code ${exited.code ?? exited.signal}). Its last output:\n${output.trim().split('\n').slice(-8).join('\n')}`);
    }
    if (await pingSocket(socket)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not answer on ${socket} within 15 s. Its last output:\n${output.trim().split('\n').slice(-8).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  logger.info({ socket, pid: child.pid }, 'embedded redis-server started (append-only file in the data directory)');

  let stopping: Promise<void> | undefined;
  return {
    url,
    stop: () => {
      stopping ??= (async () => {
        if (exited) return;
        // SIGTERM makes redis-server flush the append-only file and exit cleanly.
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
        logger.info('embedded redis-server stopped');
      })();
      return stopping;
    },
  };
}

async function shutdownOverSocket(path: string): Promise<void> {
  const client = new Redis({ path, maxRetriesPerRequest: 1, retryStrategy: () => null, lazyConnect: true });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.call('SHUTDOWN').catch(() => undefined);
  } catch {
    // already gone
  } finally {
    client.disconnect();
  }
}

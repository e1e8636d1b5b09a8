import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { redisDb } from './redis-url.js';
import { asError, silentLogger, type Logger } from './log.js';
import { redisOutageLog } from './redis-outage.js';

/**
 * Redis connections for the stores and BullMQ. URLs are redis://, rediss:// or
 * unix:///abs/path/redis.sock, or `redis-cluster:` + REDIS_CLUSTER_NODES for a Redis Cluster
 * (clusterUrl); without REDIS_URL, `swapbot start` launches one (redis-server.ts). Errors go to the
 * outage log (redis-outage.ts). The password never reaches a log line or an error message.
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
    if (!path.startsWith('/'))
      throw new Error('a unix:// Redis URL needs an absolute socket path, such as unix:///srv/swapbot/.data/redis.sock');
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
  if (url.startsWith(CLUSTER_SCHEME))
    return url
      .slice(CLUSTER_SCHEME.length)
      .split(',')
      .flatMap((e) => (/^rediss?:\/\//.test(e.trim()) ? redisSecrets(e.trim()) : []));
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

/** Sends an emitter's 'error' events (a BullMQ Queue or Worker) to the outage log instead of one line each. */
export function logRedisErrors(
  emitter: { on(event: 'error', listener: (err: Error) => void): unknown },
  source: string,
  logger: Logger,
  secrets: readonly string[] = [],
): void {
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
    ? (new Cluster(clusterNodes, {
        redisOptions: single,
        lazyConnect: true,
        clusterRetryStrategy: () => null,
        enableReadyCheck: false,
      }) as unknown as Redis)
    : new Redis(single);
  let reported: unknown;
  client.on('error', (err: unknown) => (reported ??= err));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)),
  );
  try {
    await Promise.race([client.connect().then(() => client.ping()), late]);
    return undefined;
  } catch (err) {
    // The connection's own error (ECONNREFUSED, WRONGPASS) says more than "Connection is closed".
    const why = reported ?? err;
    return asError(why, { secrets: redisSecrets(url) }).message;
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

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createRedis } from '../src/redis.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../src/redis-server.js';

/**
 * The Redis the benchmark uses: TEST_REDIS_URL, REDIS_URL or 127.0.0.1:6379 when one answers,
 * else an embedded redis-server in a temporary directory. Every key it writes is under one
 * prefix unique to the run, deleted at the end.
 */

export interface BenchRedis {
  url: string;
  /** Where the URL came from, for the report (never the URL itself: it may hold a password). */
  source: string;
  client: Redis;
  prefix: string;
  version: string;
  close(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const probe = createRedis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * BENCH_EMBEDDED_REDIS=1 (or `embedded`, part 8's own Redis) skips the shared candidates: a private redis-server keeps other
 * clients' traffic out of the memory figures.
 */
export async function openRedis(options: { embedded?: boolean } = {}): Promise<BenchRedis> {
  const candidates: Array<[string, string | undefined]> =
    process.env.BENCH_EMBEDDED_REDIS === '1' || options.embedded
      ? []
      : [
          ['TEST_REDIS_URL', process.env.TEST_REDIS_URL],
          ['REDIS_URL', process.env.REDIS_URL],
          ['127.0.0.1:6379', 'redis://127.0.0.1:6379'],
        ];
  let url: string | undefined;
  let source = '';
  for (const [name, candidate] of candidates) {
    if (candidate && (await answers(candidate))) {
      url = candidate;
      source = name;
      break;
    }
  }
  let embedded: EmbeddedRedis | undefined;
  let dir: string | undefined;
  if (!url) {
    dir = mkdtempSync(join(tmpdir(), 'swapbot-bench-'));
    embedded = await startEmbeddedRedis({ dataDir: dir });
    url = embedded.url;
    source = 'embedded redis-server (temporary directory)';
  }
  const client = createRedis(url, { maxRetriesPerRequest: null });
  const info = await client.info('server');
  const version = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  return {
    url,
    source,
    client,
    prefix,
    version,
    async close() {
      await deleteKeys(client, prefix).catch(() => undefined);
      await client.quit().catch(() => client.disconnect());
      if (embedded) await embedded.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Deletes every key under the prefix; returns how many. */
export async function deleteKeys(client: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let n = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 2000);
    cursor = next;
    if (keys.length) n += await client.unlink(...keys);
  } while (cursor !== '0');
  return n;
}

/** INFO memory used_memory, in bytes. */
export async function usedMemory(client: Redis): Promise<number> {
  const info = await client.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? NaN);
}

export interface KeyBytes {
  bytes: number;
  keys: number;
  /** By kind of key (ids replaced by placeholders): bytes and count. */
  kinds: Map<string, { bytes: number; keys: number }>;
}

/** What kind of key this is: the key with its prefix dropped and ids replaced by placeholders. */
function keyKind(key: string, prefix: string): string {
  return key
    .slice(prefix.length)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{swap}')
    .replace(/(console|telegram|discord):[^:]+/g, '$1:{chat}')
    .replace(/:\d+$/, ':{n}');
}

/** The sum of MEMORY USAGE over the keys under a prefix, and how many keys there are. */
export async function keyBytes(client: Redis, prefix: string): Promise<KeyBytes> {
  let cursor = '0';
  let bytes = 0;
  let keys = 0;
  const kinds = new Map<string, { bytes: number; keys: number }>();
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 2000);
    cursor = next;
    if (batch.length) {
      const pipe = client.pipeline();
      for (const k of batch) pipe.memory('USAGE', k, 'SAMPLES', '0');
      const res = (await pipe.exec()) ?? [];
      res.forEach(([err, v], i) => {
        if (err || typeof v !== 'number') return;
        bytes += v;
        const kind = keyKind(batch[i] as string, prefix);
        const k = kinds.get(kind) ?? { bytes: 0, keys: 0 };
        k.bytes += v;
        k.keys++;
        kinds.set(kind, k);
      });
      keys += batch.length;
    }
  } while (cursor !== '0');
  return { bytes, keys, kinds };
}

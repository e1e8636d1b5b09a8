import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';

/** The real Redis the test run uses (see test/global-setup.ts). */
export function testRedisUrl(): string {
  return process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** A key prefix no other test uses, after BullMQ's suite: a unique queue name per test. */
export function uniquePrefix(label = 't'): string {
  return `test-${label}-${randomBytes(5).toString('hex')}`;
}

/**
 * A connection for one test file, closed after it; keys under the given prefix are deleted at
 * the end so repeated runs leave the shared Redis clean.
 */
export function testRedis(prefix?: string): Redis {
  const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null, lazyConnect: false });
  afterAll(async () => {
    if (prefix) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    }
    redis.disconnect();
  });
  return redis;
}

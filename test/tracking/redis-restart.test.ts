import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { createRedis, redisOptionsFromUrl } from '../../src/redis.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis-server.js';
import { POLL_QUEUE } from '../../src/tracking/keys.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import { startHarness, type Harness } from './support/harness.js';
import { memoryLogger } from '../support/log.js';
import { waitFor } from '../support/wait.js';

/**
 * The embedded redis-server `swapbot start` launches when REDIS_URL is unset: a unix socket under
 * the data directory, append-only persistence. Restarting it loses no subscription and no poll
 * job, and the running engine reconnects and carries on.
 */

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'swapbot-redis-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('embedded redis-server', () => {
  let server: EmbeddedRedis | undefined;
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.close().catch(() => undefined);
    await server?.stop();
  });

  it('keeps subscriptions and poll jobs across a restart, and tracking carries on', async () => {
    const dataDir = tempDir();
    server = await startEmbeddedRedis({ dataDir });
    expect(server.url).toBe(`unix://${join(dataDir, 'redis.sock')}`);
    expect(statSync(join(dataDir, 'redis.sock')).mode & 0o777).toBe(0o700);

    h = await startHarness({ redisUrl: server.url, fastMs: 100, slowMs: 200 });
    await h.startWorkers();
    const chats: ChatTarget[] = [
      { platform: 'console', chatId: 'a', chatKind: 'private' },
      { platform: 'telegram', chatId: '-1009', chatKind: 'group' },
    ];
    const ids = [await h.createSwap(), await h.createSwap()];
    for (const id of ids) for (const c of chats) await h.tracking.service.follow(id, c, { userId: 'u1' });
    await h.settle(ids);

    await server.stop();
    server = await startEmbeddedRedis({ dataDir });

    const check = createRedis(server.url);
    const queue = new Queue(POLL_QUEUE, { connection: check, prefix: h.keys.queuePrefix(POLL_QUEUE) });
    for (const id of ids) {
      expect((await check.hkeys(h.keys.swap(id))).filter((f) => f.startsWith('f:')).sort()).toEqual(['f:console:a', 'f:telegram:-1009']);
      expect(await queue.getJob(`swap-${id}`)).toBeDefined();
    }
    expect((await h.tracking.service.listFollowed(chats[0] as ChatTarget)).map((f) => f.swapId).sort()).toEqual([...ids].sort());
    await queue.close();
    check.disconnect();

    // The engine (same process, same connections) reconnects and delivers what happens next.
    h.clock.advance(1_000);
    for (const id of ids) h.sandbox.deposit(id);
    await h.settle(ids);
    for (const c of chats) {
      const titles = h.messengers[c.platform].forChat(c.chatId).map((r) => r.reply.title);
      expect(titles.filter((t) => t === MOMENT_TITLES.deposit_seen)).toHaveLength(2);
    }
  });

  it('says how to install redis-server or set REDIS_URL when there is none', async () => {
    const path = process.env.PATH;
    process.env.PATH = tempDir();
    try {
      await expect(startEmbeddedRedis({ dataDir: tempDir() })).rejects.toThrow(
        /apt-get install redis-server.*brew install redis.*REDIS_URL/s,
      );
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('redis connections', () => {
  it('understands unix:// URLs and never logs the password', async () => {
    expect(redisOptionsFromUrl('unix:///srv/app/.data/redis.sock')).toMatchObject({ path: '/srv/app/.data/redis.sock' });
    expect(redisOptionsFromUrl('redis://:pw@10.0.0.2:6380/3')).toMatchObject({ host: '10.0.0.2', port: 6380, db: 3, password: 'pw' });
    expect(() => redisOptionsFromUrl('http://x')).toThrow(/redis:\/\/, rediss:\/\/ or unix:\/\//);

    const { logger, lines } = memoryLogger();
    const client = createRedis('redis://:s3cret-passw0rd@127.0.0.1:1', { logger, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    await waitFor(() => lines.some((l) => l.includes('Redis connection problem')), 'a connection error to be logged');
    client.disconnect();
    expect(lines.join('')).not.toContain('s3cret-passw0rd');
  });
});

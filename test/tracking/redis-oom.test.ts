import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import { createRedis } from '../../src/redis.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis-server.js';
import { startHarness, type Harness } from './support/harness.js';
import { memoryLogger } from '../support/log.js';
import { waitFor } from '../support/wait.js';

/**
 * Redis out of memory for a while (its own redis-server, `maxmemory` set below what it holds):
 * every poll that runs then fails on an OOM reply. Once Redis has room again, the swap goes on by
 * itself, retried with back-off, without waiting for the reconcile pass minutes later (issue 33:
 * "Swap completed" came 293 s late).
 */
const dir = mkdtempSync(join(tmpdir(), 'swapbot-oom-'));
let server: EmbeddedRedis | undefined;
let h: Harness | undefined;
let admin: Redis | undefined;
afterAll(async () => {
  admin?.disconnect();
  await h?.close().catch(() => undefined);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Redis out of memory', () => {
  it('poll jobs that fail on an OOM error are retried once Redis has room, not dropped until the reconcile', async () => {
    server = await startEmbeddedRedis({ dataDir: dir });
    const { logger, lines } = memoryLogger();
    h = await startHarness({
      redisUrl: server.url,
      tracking: {
        logger,
        // The reconcile far away (as in production, minutes): only the retry can bring the swap back.
        workers: { notifyBackoffMs: 100, reconcileIntervalMs: 3_600_000, lockDurationMs: 2_000, stalledIntervalMs: 1_000 },
      },
    });
    await h.startWorkers();
    const chat: ChatTarget = { platform: 'console', chatId: 'oom', chatKind: 'private' };
    const id = await h.createSwap();
    await h.tracking.service.follow(id, chat, { userId: 'oom' });
    await h.settle([id]);

    admin = createRedis(server.url);
    const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
    await admin.config('SET', 'maxmemory', String(Math.max(1, used - 1_000_000)));
    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    await waitFor(
      () => lines.some((l) => l.includes('"queue":"poll"') && l.includes('tracking job failed') && l.includes('OOM')),
      'a poll job failing on an OOM reply',
    );

    await admin.config('SET', 'maxmemory', '0');
    await h.settle([id]);
    const titles = h.messengers.console.forChat('oom').map((r) => r.reply.title);
    expect(titles).toContain(MOMENT_TITLES.deposit_seen);
    await h.settleUntilCompleted(id, 10);
    expect(h.messengers.console.forChat('oom').map((r) => r.reply.title)).toContain(MOMENT_TITLES.completed);
  });
});

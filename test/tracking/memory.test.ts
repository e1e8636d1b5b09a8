import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis-server.js';
import { startHarness, type Harness } from './support/harness.js';
import { bytesPerSwap } from './support/memory.js';

/**
 * Redis per followed swap, on the embedded redis-server (configured as docs/deploying.md says for
 * production): at most 1.8 KB while waiting for the deposit and while it gathers confirmations.
 */

const SWAPS = 200;
const LIMIT = 1.8 * 1024;

describe('Redis memory per followed swap', () => {
  let server: EmbeddedRedis;
  let dataDir: string;
  let h: Harness;
  const ids: string[] = [];
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'swb-mem-'));
    server = await startEmbeddedRedis({ dataDir });
    h = await startHarness({ redisUrl: server.url, fastMs: 60_000, slowMs: 60_000 });
    await h.startWorkers({ concurrency: 50 });
    for (let i = 0; i < SWAPS; i++) {
      const id = await h.createSwap();
      const chat: ChatTarget = { platform: i % 2 ? 'telegram' : 'discord', chatId: `${100_000 + i}`, chatKind: 'private' };
      await h.tracking.service.follow(id, chat, { userId: chat.chatId, creator: i % 3 === 0 });
      ids.push(id);
    }
    await h.settle(ids);
  });
  afterAll(async () => {
    await h?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stays under 1.8 KB while waiting for the deposit, and once the deposit is seen', async () => {
    const waiting = await bytesPerSwap(h.redis, h.prefix, SWAPS);
    h.clock.advance(1_000);
    for (const id of ids) h.sandbox.deposit(id);
    for (const id of ids) await h.tracking.pollNow(id);
    await h.settle(ids);
    const confirming = await bytesPerSwap(h.redis, h.prefix, SWAPS);
    // The figures, for docs/benchmarks.md and the lead's report.
    console.info(
      `redis bytes per followed swap: waiting ${waiting.perSwap.toFixed(0)}, confirming ${confirming.perSwap.toFixed(0)} (fixed: ${confirming.fixed} bytes)`,
      confirming.byKind,
    );
    expect(waiting.perSwap).toBeLessThanOrEqual(LIMIT);
    expect(confirming.perSwap).toBeLessThanOrEqual(LIMIT);
  });
});

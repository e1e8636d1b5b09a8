import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import type { TrackingService } from '../../src/contracts/tracking.js';
import { createRedis } from '../../src/redis.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/redis-server.js';
import { coreOver, startHarness, type Harness } from '../tracking/support/harness.js';
import { ChatUser } from './support/conversation.js';
import { waitFor } from '../support/wait.js';

/**
 * A Redis restart while Confirm is handled (issue 33: the swap was created and its deposit card
 * sent, but its creator was never followed: no live card, no "Swap completed"). Its own
 * redis-server (append-only), restarted between the creation record and the creator's follow,
 * whose commands the restart cut off: the record survives the restart, and the next start of
 * tracking (its reconcile pass) follows the creator, who then hears the swap through to the end.
 */
const dir = mkdtempSync(join(tmpdir(), 'swapbot-create-restart-'));
let server: EmbeddedRedis | undefined;
let h: Harness | undefined;
afterAll(async () => {
  await h?.close().catch(() => undefined);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a Redis restart between creating a swap and following it', () => {
  it('the creator is followed from the creation record at the next start, and told the swap completed', async () => {
    server = await startEmbeddedRedis({ dataDir: dir });
    h = await startHarness({ redisUrl: server.url });
    await h.startWorkers({ render: trackingRenderer });
    const service = h.tracking.service;
    let restarted = false;
    // The creator's follow meets the restart: Redis goes down and comes back, and the follow's commands are lost with the connection.
    const tracking: TrackingService = Object.assign(Object.create(service) as TrackingService, {
      follow: async (...a: Parameters<TrackingService['follow']>) => {
        if (a[2].creator && !restarted) {
          restarted = true;
          await server!.stop();
          server = await startEmbeddedRedis({ dataDir: dir });
          throw new Error('Connection is closed.');
        }
        return service.follow(...a);
      },
    });
    const core = coreOver(h, { tracking, redis: createRedis(server.url) });
    const u = new ChatUser({ core }, { userId: 'u-restart' });
    const { id } = await u.createsSwap('/swap 25 USDC arbitrum base', '0x2222222222222222222222222222222222222222');
    expect(restarted).toBe(true);
    const chat = { platform: 'console' as const, chatId: 'u-restart', chatKind: 'private' as const };
    expect((await service.listFollowed(chat)).map((f) => f.swapId)).toEqual([]);

    // What every start of tracking (and each reconcile) runs first, once the Confirm is no longer in hand.
    h.clock.advance(11_000);
    await h.tracking.reconcile();
    expect((await service.listFollowed(chat)).map((f) => f.swapId)).toEqual([id]);
    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    await h.settleUntilCompleted(id, 10);
    await waitFor(
      () => h!.messengers.console.forChat('u-restart').some((r) => r.reply.title === MOMENT_TITLES.completed),
      '"Swap completed" for the creator',
    );
    // The record is done with: the next pass follows nothing again.
    expect(await h.tracking.reconcile()).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { outageDelay } from '../../src/tracking/cadence.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import { startHarness, type Harness } from './support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * The swap service failing for a while: 500s, then 429s with Retry-After. Every poller pauses
 * together (BullMQ rate limiter on the poll queue) for a growing back-off or the Retry-After,
 * never spinning; afterwards they catch up and every chat still gets every key message.
 * One poll at a time here, so each pause can be checked against the next request.
 */

const FAST = 100;
const SLOW = 200;

describe('swap service outages', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ fastMs: FAST, slowMs: SLOW });
    await h.startWorkers({ concurrency: 1 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('slows every poller during 500s and 429s, then catches up without losing a notification', async () => {
    const chats: ChatTarget[] = Array.from({ length: 6 }, (_, i) => ({ platform: 'console', chatId: `c${i}`, chatKind: 'private' }));
    const ids: string[] = [];
    for (const chat of chats) {
      const id = await h.createSwap();
      ids.push(id);
      await h.tracking.service.follow(id, chat, { userId: chat.chatId, creator: true });
    }
    await h.settle(ids);

    h.sandbox.injectFault({ status: 500, count: 4, pathPrefix: '/api/v2/swaps/' });
    h.sandbox.injectFault({ status: 429, count: 2, retryAfterSeconds: 1, pathPrefix: '/api/v2/swaps/' });
    h.clock.advance(1_000);
    for (const id of ids) h.sandbox.deposit(id);
    await waitFor(() => h.api.polls.filter((p) => p.status).length === 6, 'all injected faults to be consumed');

    // After each failure, no request starts before the pause it imposed.
    const calls = h.api.polls.slice(h.api.polls.findIndex((p) => p.status));
    let failures = 0;
    for (let i = 0; i + 1 < calls.length; i++) {
      const c = calls[i];
      if (!c?.status) {
        failures = 0;
        continue;
      }
      failures++;
      const pause = outageDelay(failures, { fastMs: FAST, slowMs: SLOW }, c.retryAfterMs);
      if (c.status === 429) expect(pause).toBe(1000);
      expect((calls[i + 1]?.at ?? Infinity) - (c.end ?? 0)).toBeGreaterThanOrEqual(pause - 10);
    }

    // Then the pollers catch up: every swap completes and every chat hears both key moments.
    for (let k = 0; k < 5; k++) {
      h.clock.advance(10_000);
      await h.settle(ids);
    }
    for (const [i, id] of ids.entries()) {
      expect((await h.tracking.swapState(id))?.status).toBe('completed');
      const titles = h.messengers.console.forChat(chats[i]?.chatId as string).map((r) => r.reply.title);
      expect(titles.filter((t) => t !== 'Status card')).toEqual([MOMENT_TITLES.deposit_seen, MOMENT_TITLES.completed]);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { MOMENT_TITLES, STOPPED_TITLE } from '../../src/bot/status/moments.js';
import { CARD_TITLE, startHarness, type Harness } from './support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * Nothing lost: a chat behind is caught up however long its platform is down, also after the
 * swap's last poll; a swap the service cannot find for a while (a proxy glitch, replica lag) is
 * still tracked, and only a long "not found" streak stops tracking, with a notice to the chats.
 * Back-offs are shortened (10 ms doubling, capped at 100 ms) so "longer than the retry budget"
 * takes a second; the 30-minute streak is measured on the sandbox clock.
 */

describe('catching up after long failures', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      tracking: {
        cadence: { fastMs: 50, slowMs: 100, stuckFactor: 4, notFoundMinPolls: 3 },
        workers: { notifyBackoffMs: 10, notifyBackoffMaxMs: 100 },
      },
    });
    await h.startWorkers();
  });
  afterAll(async () => {
    await h?.close();
  });

  const polledNow = (id: string) => async () => ((await h.tracking.swapState(id))?.lastPolledAt ?? 0) >= h.clock.now();

  it('delivers the last updates after an outage longer than the retry budget, when the swap is no longer polled', async () => {
    const chat: ChatTarget = { platform: 'console', chatId: 'outage', chatKind: 'private' };
    const id = await h.createSwap();
    await h.tracking.service.follow(id, chat, { userId: 'u1', creator: true });
    await h.settle([id]);

    h.messengers.console.fail({ failure: 'transient', chatId: chat.chatId });
    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    for (let k = 0; k < 6 && (await h.tracking.swapState(id))?.status !== 'completed'; k++) {
      h.clock.advance(10_000);
      await waitFor(polledNow(id), 'a poll after the clock moved');
    }
    expect((await h.tracking.swapState(id))?.status).toBe('completed');
    await waitFor(async () => !(await h.redis.exists(`${h.keys.queuePrefix('poll')}:poll:swap-${id}`)), 'the poll job to end');

    // Well past the old budget of 8 attempts, with nothing polling the swap any more.
    const refused = h.messengers.console.refusals.length;
    await waitFor(() => h.messengers.console.refusals.length >= refused + 12, 'retries past the old attempt cap');
    h.messengers.console.heal();
    await h.settle([id]);

    const mine = h.messengers.console.forChat(chat.chatId);
    expect(mine.filter((r) => r.reply.title !== CARD_TITLE).map((r) => r.reply.title)).toEqual([
      MOMENT_TITLES.deposit_seen,
      MOMENT_TITLES.completed,
    ]);
    expect(replyText(mine.filter((r) => r.reply.title === CARD_TITLE).at(-1)?.reply ?? { lines: [], target: 'here' })).toContain(
      'status completed',
    );
  });

  it('keeps tracking through a streak of "not found" right after creation', async () => {
    const chat: ChatTarget = { platform: 'console', chatId: 'lagging-replica', chatKind: 'private' };
    const id = await h.createSwap();
    h.sandbox.injectFault({ status: 404, count: 5, pathPrefix: `/api/v2/swaps/${id}` });
    await h.tracking.service.follow(id, chat, { userId: 'u2', creator: true });
    await waitFor(() => h.api.polls.filter((p) => p.swapId === id && p.status === 404).length === 5, 'five "not found" answers');
    await h.settle([id]);

    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    await h.settle([id]);
    expect(h.messengers.console.forChat(chat.chatId).map((r) => r.reply.title)).toContain(MOMENT_TITLES.deposit_seen);
  });

  it('stops only after a long "not found" streak, and tells every chat that followed why', async () => {
    const chats: ChatTarget[] = [
      { platform: 'console', chatId: 'lost-private', chatKind: 'private' },
      { platform: 'console', chatId: 'lost-group', chatKind: 'group' },
    ];
    const id = await h.createSwap();
    h.sandbox.injectFault({ status: 404, count: 10_000, pathPrefix: `/api/v2/swaps/${id}` });
    for (const c of chats) await h.tracking.service.follow(id, c, { userId: `u-${c.chatId}` });
    const notFound = () => h.api.polls.filter((p) => p.swapId === id && p.status === 404).length;

    // More answers than the minimum, but within 30 minutes: still tracked, nobody told anything.
    await waitFor(() => notFound() >= 6, 'six "not found" answers');
    expect((await h.tracking.service.listFollowed(chats[0] as ChatTarget)).map((f) => f.swapId)).toContain(id);
    expect(await h.redis.exists(`${h.keys.queuePrefix('poll')}:poll:swap-${id}`)).toBe(1);
    for (const c of chats) expect(h.messengers.console.forChat(c.chatId)).toEqual([]);

    h.clock.advance(31 * 60_000);
    for (const c of chats) await waitFor(() => h.messengers.console.forChat(c.chatId).length > 0, `the notice in ${c.chatId}`);
    await waitFor(async () => !(await h.redis.exists(`${h.keys.queuePrefix('poll')}:poll:swap-${id}`)), 'the poll job to end');
    await waitFor(async () => (await h.tracking.pendingNotifications()) === 0, 'no notification left');
    for (const c of chats) {
      const got = h.messengers.console.forChat(c.chatId);
      expect(got.map((r) => r.reply.title)).toEqual([STOPPED_TITLE]);
      expect(replyText(got[0]?.reply ?? { lines: [], target: 'here' })).toContain(id);
      expect(replyText(got[0]?.reply ?? { lines: [], target: 'here' })).toMatch(/not found this swap for over 30 minutes/);
    }
  });
});

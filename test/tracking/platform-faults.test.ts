import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import { CARD_TITLE, isAbout, startHarness, type Harness } from './support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * Platforms in trouble: a 429 pauses that platform's deliveries for the time asked; a chat that
 * is gone (403: blocked, kicked, unknown channel) is unsubscribed from everything; a deleted card
 * is replaced; a busy Telegram group is paced and gets the newest card. One delivery at a time
 * per platform here, so waits can be checked against the next delivery.
 */

/**
 * A Telegram group's pace, compressed from 20 a minute. The window is counted when a message is
 * admitted and the platform sees it after the job renders and records it: on a loaded machine that
 * lag reached a third of a 1 s window, so the window is long enough for the lag to stay a fraction.
 */
const PACE = { limit: 3, windowMs: 2500 };

describe('platform failures and limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      tracking: {
        workers: { notifyConcurrency: 1, notifyBackoffMs: 100 },
        pacing: (t) => (t.platform === 'telegram' && t.chatKind !== 'private' ? PACE : undefined),
      },
    });
    await h.startWorkers();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function followed(chats: ChatTarget[]): Promise<string> {
    const id = await h.createSwap();
    for (const c of chats) await h.tracking.service.follow(id, c, { userId: `u-${c.chatId}` });
    return id;
  }

  it('obeys a 429: no delivery to that chat before the wait is over, and nothing is lost', async () => {
    const chats: ChatTarget[] = ['t1', 't2', 't3'].map((chatId) => ({ platform: 'telegram', chatId, chatKind: 'private' }));
    const ids = [];
    for (const c of chats) ids.push(await followed([c]));
    await h.settle(ids);

    h.messengers.telegram.fail({ failure: 'rate_limited', retryAfterMs: 700, count: 1 });
    h.clock.advance(1_000);
    for (const id of ids) h.sandbox.deposit(id);
    await h.settle(ids);

    const refusal = h.messengers.telegram.refusals.find((r) => r.failure === 'rate_limited');
    expect(refusal).toBeDefined();
    const next = h.messengers.telegram.log.find((r) => r.at >= (refusal?.at ?? 0) && r.chatId === refusal?.chatId);
    expect((next?.at ?? 0) - (refusal?.at ?? 0)).toBeGreaterThanOrEqual(690);
    for (const c of chats) {
      expect(h.messengers.telegram.forChat(c.chatId).filter((r) => r.reply.title === MOMENT_TITLES.deposit_seen)).toHaveLength(1);
    }
  });

  it("holds back only the chat a per-chat 429 was for: that chat's other swaps wait, other chats do not", async () => {
    const slow: ChatTarget = { platform: 'telegram', chatId: '-100429', chatKind: 'group' };
    const other: ChatTarget = { platform: 'telegram', chatId: 'quick', chatKind: 'private' };
    const first = await followed([slow]);
    const second = await followed([slow]);
    const others = await followed([other]);
    await h.settle([first, second, others]);

    const HOLD_MS = 3_000;
    h.messengers.telegram.fail({ failure: 'rate_limited', retryAfterMs: HOLD_MS, chatId: slow.chatId, count: 1 });
    h.clock.advance(1_000);
    h.sandbox.deposit(first);
    await waitFor(() => h.messengers.telegram.refusals.some((r) => r.chatId === slow.chatId), 'the 429');
    const refusal = h.messengers.telegram.refusals.find((r) => r.chatId === slow.chatId)?.at ?? 0;
    h.sandbox.deposit(second);
    h.sandbox.deposit(others);
    h.clock.advance(1_000);
    await h.settle([first, second, others]);

    const after = (chatId: string) => h.messengers.telegram.forChat(chatId).filter((r) => r.at >= refusal);
    expect(after(other.chatId).map((r) => r.reply.title)).toContain(MOMENT_TITLES.deposit_seen);
    expect(after(slow.chatId).length).toBeGreaterThanOrEqual(4); // both swaps' cards and deposit messages
    for (const r of after(slow.chatId)) expect(r.at - refusal).toBeGreaterThanOrEqual(HOLD_MS - 10);
    // The other chat did not wait for the hold: its news came before the held chat's.
    expect(after(other.chatId)[0]?.at ?? Infinity).toBeLessThan(after(slow.chatId)[0]?.at ?? 0);
  });

  it('pauses the whole platform for a global 429', async () => {
    const a: ChatTarget = { platform: 'discord', chatId: 'global-a', chatKind: 'channel' };
    const b: ChatTarget = { platform: 'discord', chatId: 'global-b', chatKind: 'channel' };
    const ida = await followed([a]);
    const idb = await followed([b]);
    await h.settle([ida, idb]);

    h.messengers.discord.fail({ failure: 'rate_limited', retryAfterMs: 1_500, scope: 'global', chatId: a.chatId, count: 1 });
    h.clock.advance(1_000);
    h.sandbox.deposit(ida);
    await waitFor(() => h.messengers.discord.refusals.some((r) => r.chatId === a.chatId && r.failure === 'rate_limited'), 'the 429');
    const refusal = h.messengers.discord.refusals.find((r) => r.chatId === a.chatId && r.failure === 'rate_limited')?.at ?? 0;
    h.sandbox.deposit(idb);
    h.clock.advance(1_000);
    await h.settle([ida, idb]);
    const after = h.messengers.discord.log.filter((r) => r.at >= refusal);
    expect(after.map((r) => r.chatId)).toContain(b.chatId);
    for (const r of after) expect(r.at - refusal).toBeGreaterThanOrEqual(1_490);
  });

  it('unsubscribes a chat that is gone from every swap it followed, and stops writing to it', async () => {
    const gone: ChatTarget = { platform: 'discord', chatId: 'gone-channel', chatKind: 'channel' };
    const alive: ChatTarget = { platform: 'discord', chatId: 'alive-channel', chatKind: 'channel' };
    h.messengers.discord.fail({ failure: 'gone', chatId: gone.chatId });
    const a = await followed([gone, alive]);
    const b = await followed([gone]);
    await h.settle([a, b]);

    expect(await h.tracking.service.listFollowed(gone)).toEqual([]);
    expect((await h.tracking.service.listFollowed(alive)).map((f) => f.swapId)).toEqual([a]);
    const refusals = h.messengers.discord.refusals.length;
    expect(refusals).toBeGreaterThanOrEqual(1);

    h.clock.advance(1_000);
    h.sandbox.deposit(a);
    h.sandbox.deposit(b);
    await h.settle([a, b]);
    expect(h.messengers.discord.refusals).toHaveLength(refusals);
    // b has no follower left: its poll job ended.
    await waitFor(
      async () => !(await h.redis.exists(`${h.keys.queuePrefix('poll')}:poll:swap-${b}`)),
      'the poll job of an unfollowed swap to end',
    );
    expect(h.messengers.discord.forChat(alive.chatId).map((r) => r.reply.title)).toContain(MOMENT_TITLES.deposit_seen);
    expect(h.messengers.discord.forChat(gone.chatId)).toEqual([]);
  });

  it('sends a new card when the old one was deleted, and edits that one from then on', async () => {
    const chat: ChatTarget = { platform: 'console', chatId: 'deleted-card', chatKind: 'private' };
    const id = await followed([chat]);
    await h.settle([id]);
    h.messengers.console.fail({ failure: 'message_gone', count: 1 });
    for (let k = 0; k < 3; k++) {
      h.clock.advance(k === 0 ? 1_000 : 10_000);
      if (k === 0) h.sandbox.deposit(id);
      await h.settle([id]);
    }
    const cards = h.messengers.console.forChat(chat.chatId).filter((r) => r.reply.title === CARD_TITLE);
    expect(cards[0]?.op).toBe('send');
    expect(cards[1]?.op).toBe('send');
    expect(cards[1]?.messageId).not.toBe(cards[0]?.messageId);
    expect(cards.slice(2).filter((c) => !(c.op === 'edit' && c.messageId === cards[1]?.messageId))).toEqual([]);
    expect(cards.length).toBeGreaterThanOrEqual(4);
  });

  it('paces a Telegram group and still brings it up to date with the newest card', async () => {
    const group: ChatTarget = { platform: 'telegram', chatId: '-100777', chatKind: 'group' };
    const ids = [await followed([group]), await followed([group]), await followed([group])];
    await h.settle(ids);
    h.clock.advance(1_000);
    for (const id of ids) h.sandbox.deposit(id);
    await h.settle(ids);
    h.clock.advance(10_000);
    await h.settle(ids);

    const sent = h.messengers.telegram.forChat(group.chatId);
    // At most `limit` messages in any window. (Delivery times trail the pacer's own clock by a
    // few ms of Redis and rendering, hence the margin; unpaced messages would be ms apart.)
    expect(sent.length).toBeGreaterThan(PACE.limit * 2);
    for (let i = PACE.limit; i < sent.length; i++) {
      expect((sent[i]?.at ?? 0) - (sent[i - PACE.limit]?.at ?? 0)).toBeGreaterThanOrEqual(PACE.windowMs * 0.75);
    }
    for (const id of ids) {
      const mine = sent.filter((r) => isAbout(r.reply, id));
      expect(mine.filter((r) => r.reply.title === MOMENT_TITLES.deposit_seen)).toHaveLength(1);
      const last = mine.filter((r) => r.reply.title === CARD_TITLE).at(-1);
      expect(replyText(last?.reply ?? { lines: [], target: 'here' })).toContain('input pending 1/3');
    }
  });
});

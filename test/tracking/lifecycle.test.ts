import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { isFinalStatus } from '../../src/tracking/cadence.js';
import { POLL_QUEUE } from '../../src/tracking/keys.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import type { SwapDetails } from '../../src/layerswap/schemas.js';
import type { MomentKind } from '../../src/contracts/tracking.js';
import { CARD_TITLE, isAbout, startHarness, testCard, type Harness } from './support/harness.js';

/**
 * 100 swaps, each followed by 1 to 3 chats (private and public, three platforms), driven through
 * their whole lifecycles by the sandbox clock. After every clock step the test waits until the
 * engine has polled every swap and brought every chat up to date, then records what each chat's
 * card should show now. At the end each chat must have seen exactly that sequence of cards (one
 * message edited in place) and exactly the key messages of its swap's story, once each.
 */

type Story = 'complete' | 'refund' | 'expire' | 'under_min' | 'stuck';
const STORIES: Story[] = ['complete', 'refund', 'expire', 'under_min', 'stuck'];
const EXPECTED_MOMENTS: Record<Story, MomentKind[]> = {
  complete: ['deposit_seen', 'completed'],
  refund: ['deposit_seen', 'pending_refund', 'refunded'],
  expire: ['expired'],
  under_min: ['deposit_seen', 'failed'],
  stuck: ['deposit_seen', 'stuck'],
};
const FAST_MS = 150;

const CHATS: ChatTarget[] = [
  ...Array.from({ length: 24 }, (_, k): ChatTarget => ({ platform: 'telegram', chatId: `${1000 + k}`, chatKind: 'private' })),
  ...Array.from({ length: 12 }, (_, k): ChatTarget => ({ platform: 'discord', chatId: `dm-${k}`, chatKind: 'private' })),
  ...Array.from({ length: 4 }, (_, k): ChatTarget => ({ platform: 'console', chatId: `console-${k}`, chatKind: 'private' })),
  ...Array.from({ length: 5 }, (_, k): ChatTarget => ({ platform: 'telegram', chatId: `-100${k}`, chatKind: 'group' })),
  ...Array.from({ length: 3 }, (_, k): ChatTarget => ({ platform: 'discord', chatId: `channel-${k}`, chatKind: 'channel' })),
];
const chatKey = (c: ChatTarget) => `${c.platform}:${c.chatId}`;

describe('tracking 100 swaps through their whole lifecycles', () => {
  let h: Harness;
  let pollQueue: Queue;
  beforeAll(async () => {
    // Per-group pacing (20/min on Telegram) is exercised in platform-faults.test.ts; here it would only slow the run.
    h = await startHarness({ fastMs: FAST_MS, slowMs: 300, tracking: { pacing: () => undefined } });
    pollQueue = new Queue(POLL_QUEUE, { connection: h.redis, prefix: h.keys.queuePrefix(POLL_QUEUE) });
    await h.startWorkers({ concurrency: 40 });
  });
  afterAll(async () => {
    await pollQueue?.close();
    await h?.close();
  });

  it('delivers every card update and key message to every following chat, exactly once', async () => {
    const swaps: Array<{ id: string; story: Story; followers: ChatTarget[] }> = [];
    const plan = Array.from({ length: 100 }, (_, i) => ({
      story: STORIES[i % STORIES.length] as Story,
      followers: Array.from({ length: 1 + (i % 3) }, (_, j) => CHATS[(i * 7 + j * 13) % CHATS.length] as ChatTarget),
    }));
    for (let b = 0; b < plan.length; b += 25) {
      const batch = await Promise.all(
        plan.slice(b, b + 25).map(async (p, k) => {
          const i = b + k;
          const id = await h.createSwap({ refund: p.story === 'refund' });
          for (const [j, chat] of p.followers.entries()) {
            const res = await h.tracking.service.follow(id, chat, { userId: `user-${(i + j) % 30}`, creator: j === 0 });
            expect(res).toEqual({ ok: true, alreadyFollowing: false });
          }
          return { id, ...p };
        }),
      );
      swaps.push(...batch);
    }
    const ids = swaps.map((s) => s.id);

    // What each chat's card must show, step by step (consecutive duplicates collapse).
    const expectedCards = new Map<string, string[]>();
    const ended = new Set<string>();
    const recordExpected = async () => {
      const live = swaps.filter((s) => !ended.has(s.id)); // polling stops at a final status
      const fetched = await Promise.all(live.map((s) => h.client.getSwap(s.id, { exclude_deposit_actions: true })));
      for (const [i, s] of live.entries()) {
        const details = fetched[i] as SwapDetails;
        if (isFinalStatus(details.swap.status)) ended.add(s.id);
        for (const chat of s.followers) {
          const key = `${chatKey(chat)}|${s.id}`;
          const list = expectedCards.get(key) ?? [];
          const card = replyText(testCard(details, chat));
          if (list.at(-1) !== card) list.push(card);
          expectedCards.set(key, list);
        }
      }
    };
    const step = async (advanceMs: number, act?: () => void) => {
      h.clock.advance(advanceMs);
      act?.();
      await h.settle(ids);
      await recordExpected();
    };

    await step(0);
    // One poll job per swap, whatever its number of followers.
    const jobs = await pollQueue.getJobs(['delayed', 'waiting', 'active', 'prioritized']);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(jobs.length);
    expect(jobs.map((j) => j.id).sort()).toEqual(ids.map((id) => `swap-${id}`).sort());

    await step(60_000, () => {
      for (const s of swaps) {
        if (s.story === 'complete') h.sandbox.deposit(s.id);
        if (s.story === 'refund' || s.story === 'stuck') h.sandbox.deposit(s.id, { outcome: 'fail_execution' });
        if (s.story === 'under_min') h.sandbox.deposit(s.id, { amount: 0.5 });
      }
    });
    for (let k = 0; k < 5; k++) await step(10_000); // confirmations 1..3, payout, refund
    await step(2 * 3_600_000); // expiry of swaps never funded; ls_transfer_pending far too long

    for (const s of swaps) {
      const state = await h.tracking.swapState(s.id);
      const expectedStatus = {
        complete: 'completed',
        refund: 'refunded',
        expire: 'expired',
        under_min: 'failed',
        stuck: 'ls_transfer_pending',
      }[s.story];
      expect(state?.status).toBe(expectedStatus);

      for (const [j, chat] of s.followers.entries()) {
        const messenger = h.messengers[chat.platform];
        const mine = messenger.forChat(chat.chatId).filter((r) => isAbout(r.reply, s.id));
        const cards = mine.filter((r) => r.reply.title === CARD_TITLE);
        const moments = mine.filter((r) => r.reply.title !== CARD_TITLE);
        // One card message, sent once and then edited in place, through every expected state.
        expect(cards[0]?.op).toBe('send');
        expect(cards.slice(1).filter((c) => !(c.op === 'edit' && c.messageId === cards[0]?.messageId))).toEqual([]);
        // The creator (the first follower) was handed the deposit card, which stands for the new
        // swap: their status card starts with the first change, so it always comes below it.
        const expected = expectedCards.get(`${chatKey(chat)}|${s.id}`) ?? [];
        expect({ story: s.story, chat, cards: cards.map((c) => replyText(c.reply)) }).toEqual({
          story: s.story,
          chat,
          cards: j === 0 ? expected.slice(1) : expected,
        });
        // The key messages of this story, in order, each once.
        expect(moments.map((m) => m.reply.title)).toEqual(EXPECTED_MOMENTS[s.story].map((k) => MOMENT_TITLES[k]));
        if (chat.chatKind !== 'private') {
          for (const m of moments) expect(replyText(m.reply)).not.toMatch(/\b0x[0-9a-f]{40}\b/i);
        }
      }

      // Never two polls of one swap closer than the fast cadence, however many chats follow it.
      const polls = h.api.pollsOf(s.id);
      for (let i = 1; i < polls.length; i++) expect((polls[i] as number) - (polls[i - 1] as number)).toBeGreaterThanOrEqual(FAST_MS - 2);
    }
    // Finished swaps no longer have a poll job; only the stuck ones are still watched.
    const left = await pollQueue.getJobs(['delayed', 'waiting', 'active', 'prioritized']);
    expect(left.map((j) => j.id).sort()).toEqual(
      swaps
        .filter((s) => s.story === 'stuck')
        .map((s) => `swap-${s.id}`)
        .sort(),
    );
  });
});

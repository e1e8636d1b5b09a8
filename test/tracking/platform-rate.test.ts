import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import { TokenBucket } from '../../bench/sinks/token-bucket.js';
import { startHarness, type Harness } from './support/harness.js';

/**
 * A platform's rate is booked message by message across every chat (tracking/pacing.ts): one
 * change to many chats reaches the platform as fast as its limit allows and never faster. The
 * platform is modelled as the fake platforms model it (bench/sinks/token-bucket.ts): a bucket
 * `max` deep, refilled at `max` per `duration`; every call must find a token there, whatever the
 * machine's load did to the timers.
 */

const RATE = { max: 10, duration: 250 }; // 40 messages/s: a burst of 8, then one every 25 ms
const CHATS = 40;

/** The calls a platform limited this way would have refused (429), replaying their start times through the fakes' own bucket. */
function refusedBy(rate: typeof RATE, starts: readonly number[]): number {
  const bucket = new TokenBucket(rate.max, rate.duration);
  return [...starts].sort((a, b) => a - b).filter((at) => bucket.take(at) > 0).length;
}

describe("a platform's rate, shared by every chat", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ tracking: { platformRates: { telegram: RATE, discord: { max: 100_000, duration: 1000 } } } });
    await h.startWorkers();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('sends one change to many chats within the platform limit, every chat getting it', async () => {
    const chats: ChatTarget[] = Array.from({ length: CHATS }, (_, i) => ({ platform: 'telegram', chatId: `r${i}`, chatKind: 'private' }));
    const id = await h.createSwap();
    for (const c of chats) await h.tracking.service.follow(id, c, { userId: `u-${c.chatId}` });
    await h.settle([id]);
    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    await h.settle([id]);

    const tg = h.messengers.telegram;
    // Every chat: its card, the card edited, and the "deposit seen" message: 120 calls over 40 chats.
    for (const c of chats) {
      expect(tg.forChat(c.chatId).filter((r) => r.op === 'send' && r.reply.title === MOMENT_TITLES.deposit_seen)).toHaveLength(1);
      expect(tg.forChat(c.chatId).some((r) => r.op === 'edit')).toBe(true);
    }
    expect(tg.started.length).toBeGreaterThanOrEqual(3 * CHATS);
    // At once they would have met 429s by the dozen; booked, none.
    expect(
      refusedBy(
        RATE,
        tg.started.map(() => 0),
      ),
    ).toBeGreaterThan(100);
    expect(
      refusedBy(
        RATE,
        tg.started.map((s) => s.at),
      ),
    ).toBe(0);
    expect(tg.refusals).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { burstOf, Pacer, type PaceRule } from '../../src/tracking/pacing.js';
import { testRedis, uniquePrefix } from '../support/redis.js';

/** Platform limits are counted in messages, across every chat and worker, atomically with per-chat ones. */
describe('message pacing', () => {
  const prefix = uniquePrefix('pace');
  const redis = testRedis(prefix);
  const group = (chatId: string): ChatTarget => ({ platform: 'telegram', chatId, chatKind: 'group' });
  const telegramOnly = (rule: PaceRule) => (p: string) => (p === 'telegram' ? rule : undefined);

  it('books the whole platform at its rate, whichever chats the messages go to: a burst at once, then one slot per interval', async () => {
    const keys = new TrackingKeys(uniquePrefix('pace1'));
    // 10 per minute: a burst of 8, then one every 6 s, booked up to a minute ahead.
    const rule = { limit: 10, windowMs: 60_000 };
    const pacer = new Pacer(redis, keys, () => undefined, telegramOnly(rule));
    const paces = [];
    const t0 = Date.now();
    for (let i = 0; i < 20; i++) paces.push(await pacer.take(group(`c${i}`), `telegram:c${i}`));
    const booked = paces.filter((p) => p.at !== undefined).map((p) => Math.max(0, (p.at as number) - t0));
    for (const ms of booked.slice(0, burstOf(rule))) expect(ms).toBeLessThan(1000);
    // Then the rate: each next slot 6 s after the one before, up to the window's end (the clock moved a little meanwhile).
    const later = booked.slice(burstOf(rule));
    expect(later.length).toBe(10);
    later.forEach((ms, i) => expect(Math.abs(ms - 6000 * (i + 1))).toBeLessThan(1000));
    // Past a window ahead nothing is booked: come back when the horizon reaches the next slot.
    const refused = paces.filter((p) => p.retryMs !== undefined);
    expect(refused.length).toBe(2);
    for (const p of refused) expect(p.retryMs).toBeGreaterThan(0);
    // Another platform is not affected.
    expect((await pacer.take({ platform: 'discord', chatId: 'x', chatKind: 'group' }, 'discord:x')).at).toBeLessThanOrEqual(Date.now());
  });

  it('does not spend a chat budget when the platform is booked a window ahead, nor the platform budget when the chat is full', async () => {
    const k2 = new TrackingKeys(uniquePrefix('pace2'));
    // A burst of 1 and one slot per minute, bookable a minute ahead: two bookings, then refusals.
    const pacer = new Pacer(redis, k2, () => ({ limit: 1, windowMs: 60_000 }), telegramOnly({ limit: 1, windowMs: 60_000 }));
    expect((await pacer.take(group('x'), 'telegram:x')).at).toBeLessThanOrEqual(Date.now()); // chat x: 1/1; platform slot now
    expect((await pacer.take(group('x'), 'telegram:x')).retryMs).toBeGreaterThan(0); // chat x full; platform untouched
    const y = await pacer.take(group('y'), 'telegram:y'); // the platform's next slot, a minute on
    expect((y.at ?? 0) - Date.now()).toBeGreaterThan(58_000);
    expect((await pacer.take(group('z'), 'telegram:z')).retryMs).toBeGreaterThan(0); // booked beyond the window
    expect(await redis.zcard(k2.pace('telegram:z'))).toBe(0); // z's chat budget was given back
  });
});

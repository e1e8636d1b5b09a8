import { describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { Pacer } from '../../src/tracking/pacing.js';
import { testRedis, uniquePrefix } from '../support/redis.js';

/** Platform limits are counted in messages, across every chat and worker, atomically with per-chat ones. */
describe('message pacing', () => {
  const prefix = uniquePrefix('pace');
  const redis = testRedis(prefix);
  const keys = new TrackingKeys(prefix);
  const group = (chatId: string): ChatTarget => ({ platform: 'telegram', chatId, chatKind: 'group' });

  it('stops the whole platform at its rate, whichever chats the messages go to', async () => {
    const pacer = new Pacer(
      redis,
      keys,
      () => undefined,
      (p) => (p === 'telegram' ? { limit: 3, windowMs: 60_000 } : undefined),
    );
    const waits = [];
    for (const c of ['a', 'b', 'c', 'd']) waits.push(await pacer.take(group(c), `telegram:${c}`));
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeGreaterThan(0);
    // Another platform is not affected.
    expect(await pacer.take({ platform: 'discord', chatId: 'x', chatKind: 'group' }, 'discord:x')).toBe(0);
  });

  it('does not spend a chat budget when the platform is full, nor the platform budget when the chat is', async () => {
    const p2 = uniquePrefix('pace2');
    const k2 = new TrackingKeys(p2);
    const pacer = new Pacer(
      redis,
      k2,
      () => ({ limit: 1, windowMs: 60_000 }),
      () => ({ limit: 2, windowMs: 60_000 }),
    );
    expect(await pacer.take(group('x'), 'telegram:x')).toBe(0); // chat x: 1/1, platform 1/2
    expect(await pacer.take(group('x'), 'telegram:x')).toBeGreaterThan(0); // chat x full; platform untouched
    expect(await pacer.take(group('y'), 'telegram:y')).toBe(0); // platform 2/2
    expect(await pacer.take(group('z'), 'telegram:z')).toBeGreaterThan(0); // platform full
    expect(await redis.zcard(k2.pace('telegram:z'))).toBe(0); // z's chat budget was not spent
    await redis.del(k2.pace('telegram:x'), k2.pace('telegram:y'), k2.pace('platform:telegram'));
  });
});

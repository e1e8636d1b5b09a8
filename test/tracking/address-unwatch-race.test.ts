import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { AddressWatch, type WatchHooks, type WatchSettings } from '../../src/tracking/address-watch.js';
import { memoryLogger } from '../support/log.js';
import { testRedis } from '../support/redis.js';
import { startHarness, type Harness } from './support/harness.js';

/**
 * `/addresses unwatch` while a worker checks that address: the unwatch wins wherever it lands.
 * The check's put-back was a read (still watched?) and a separate write, so an unwatch between
 * the two was undone and the address stayed watched; the hook lands it exactly there.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const settings: WatchSettings = { minMs: 1_000, maxMs: 8_000, share: 0.1, apiPerSecond: 50, tickMs: 1_000 };
const worker = (hooks?: WatchHooks) => new AddressWatch(testRedis(), h.keys, () => h.clock.now(), settings, hooks);

describe('an unwatch during a check of the address', () => {
  it('lands between the check and the put-back: the address is no longer watched', async () => {
    const address = '0x8888888888888888888888888888888888888881';
    const me: ChatTarget = { platform: 'console', chatId: 'race-1', chatKind: 'private' };
    const unwatched: string[] = [];
    const w = worker({
      beforePutBack: async (m) => {
        unwatched.push(m);
        await worker().set(address, me, { userId: 'race-1' }, false);
      },
    });
    await w.set(address, me, { userId: 'race-1' }, true);
    expect(await w.tick(h.api, h.tracking.service, memoryLogger().logger)).toBe(1);
    expect(unwatched).toHaveLength(1);
    const redis = testRedis();
    expect(await redis.zscore(h.keys.watchDue, unwatched[0]!)).toBeNull();
    expect(await redis.hget(h.keys.watchState, unwatched[0]!)).toBeNull();
    // Nothing left to check at any later time.
    h.clock.advance(settings.maxMs);
    expect(await w.tick(h.api, h.tracking.service, memoryLogger().logger)).toBe(0);
  });

  it('without an unwatch the checked address goes back, due after its interval', async () => {
    const address = '0x8888888888888888888888888888888888888882';
    const me: ChatTarget = { platform: 'console', chatId: 'race-2', chatKind: 'private' };
    const w = worker();
    await w.set(address, me, { userId: 'race-2' }, true);
    const at = h.clock.now();
    expect(await w.tick(h.api, h.tracking.service, memoryLogger().logger)).toBe(1);
    const due = await testRedis().zrange(h.keys.watchDue, 0, -1, 'WITHSCORES');
    const i = due.findIndex((m) => m.endsWith(address));
    // Nothing new in the first answer: the interval doubles from the minimum.
    expect(Number(due[i + 1])).toBe(at + 2 * settings.minMs);
    await w.set(address, me, { userId: 'race-2' }, false);
  });

  it('entries kept under the untagged keys of older versions are still checked', async () => {
    const redis = testRedis();
    const m = 'console:race-3|0x8888888888888888888888888888888888888883';
    const old = h.keys.watchLegacy;
    await redis.hset(old.state, m, JSON.stringify({ u: 'race-3', i: settings.minMs, b: h.clock.now() }));
    await redis.zadd(old.due, h.clock.now(), m);
    // A watch set after the upgrade, before any worker ticked: both are kept.
    const since = 'console:race-4|0x8888888888888888888888888888888888888884';
    await redis.hset(h.keys.watchState, since, JSON.stringify({ u: 'race-4', i: settings.minMs, b: h.clock.now() }));
    await redis.zadd(h.keys.watchDue, h.clock.now() + settings.maxMs, since);
    expect(await worker().tick(h.api, h.tracking.service, memoryLogger().logger)).toBe(1);
    expect(await redis.exists(old.state, old.due)).toBe(0);
    expect(await redis.zscore(h.keys.watchDue, m)).not.toBeNull();
    expect(await redis.zscore(h.keys.watchDue, since)).toBe(String(h.clock.now() + settings.maxMs));
    await redis.multi().zrem(h.keys.watchDue, m, since).hdel(h.keys.watchState, m, since).exec();
  });
});

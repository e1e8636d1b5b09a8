import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { ManualClock } from '../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { POLL_QUEUE } from '../../src/tracking/keys.js';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { Subscriptions } from '../../src/tracking/subscriptions.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { observe } from '../../src/tracking/observe.js';
import { SwapStore } from '../../src/tracking/swap-store.js';
import type { SwapDetails } from '../../src/layerswap/schemas.js';

/** Caps and bookkeeping of who follows what, as the web process uses them (no workers running). */

const prefixRoot = uniquePrefix('subs');
const redis = testRedis(prefixRoot);
const open: Tracking[] = [];
afterAll(async () => {
  for (const t of open) await t.close();
});

const group: ChatTarget = { platform: 'telegram', chatId: '-1001', chatKind: 'group' };
const dm = (id: string): ChatTarget => ({ platform: 'telegram', chatId: id, chatKind: 'private' });

function setup(limits: { maxPerChat: number; maxPerUser: number }) {
  const prefix = `${prefixRoot}-${randomUUID().slice(0, 8)}`;
  const clock = new ManualClock(Date.now());
  const tracking = createTracking({
    redis: testRedisUrl(),
    prefix,
    // Never called: no poll worker runs in these tests (the web process's view).
    api: new LayerswapClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' }),
    limits,
    cadence: { fastMs: 1000, slowMs: 2000, stuckFactor: 4 },
    now: () => clock.now(),
  });
  open.push(tracking);
  const keys = new TrackingKeys(prefix);
  const store = new SwapStore(redis, keys);
  return { clock, tracking, service: tracking.service, keys, store, subs: new Subscriptions(redis, keys, store, limits) };
}

describe('following swaps', () => {
  let t: ReturnType<typeof setup>;
  beforeEach(() => {
    t = setup({ maxPerChat: 3, maxPerUser: 2 });
  });

  it('refuses a chat past its cap, and frees the slot on /untrack', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const [i, id] of ids.slice(0, 3).entries()) {
      expect(await t.service.follow(id, group, { userId: `admin-${i}` })).toEqual({ ok: true, alreadyFollowing: false });
    }
    expect(await t.service.follow(ids[3] as string, group, { userId: 'admin-9' })).toEqual({ ok: false, reason: 'chat_limit', limit: 3 });
    expect(await t.service.unfollow(ids[0] as string, group)).toBe(true);
    expect(await t.service.unfollow(ids[0] as string, group)).toBe(false);
    expect(await t.service.follow(ids[3] as string, group, { userId: 'admin-9' })).toEqual({ ok: true, alreadyFollowing: false });
  });

  it('counts what a user started following in any chat against their cap; the creator of a swap always follows it', async () => {
    const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect((await t.service.follow(a, dm('7'), { userId: '7' })).ok).toBe(true);
    expect((await t.service.follow(b, group, { userId: '7' })).ok).toBe(true);
    expect(await t.service.follow(c, dm('7'), { userId: '7' })).toEqual({ ok: false, reason: 'user_limit', limit: 2 });
    // Another admin can still add it to the group: the cap is per user.
    expect((await t.service.follow(c, group, { userId: '8' })).ok).toBe(true);
    // A swap the user just created is followed in their private chat regardless of the cap.
    expect((await t.service.follow(d, dm('7'), { userId: '7', creator: true })).ok).toBe(true);
    expect(await t.subs.counts('telegram', '7', dm('7'))).toEqual({ user: 3, chat: 2 });
  });

  it('is idempotent: following twice counts once and keeps one poll job per swap', async () => {
    const id = randomUUID();
    expect(await t.service.follow(id, dm('1'), { userId: '1' })).toEqual({ ok: true, alreadyFollowing: false });
    expect(await t.service.follow(id, dm('1'), { userId: '1' })).toEqual({ ok: true, alreadyFollowing: true });
    expect((await t.service.follow(id, group, { userId: '2' })).ok).toBe(true);
    expect(await t.subs.counts('telegram', '1', dm('1'))).toEqual({ user: 1, chat: 1 });
    const queue = new Queue(POLL_QUEUE, { connection: redis, prefix: t.keys.queuePrefix(POLL_QUEUE) });
    const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized']);
    await queue.close();
    expect(jobs.map((j) => j.id)).toEqual([`swap-${id}`]);
  });

  it('holds the caps under concurrent /track commands', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.service.follow(randomUUID(), group, { userId: `u${i}` })));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok && r.reason === 'chat_limit')).toHaveLength(17);
  });

  it('lists what a chat follows, newest first, with the last status seen', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await t.service.follow(a, group, { userId: '1' });
    t.clock.advance(5);
    await t.service.follow(b, group, { userId: '1' });
    const state = observe(
      undefined,
      { swap: { id: a, status: 'ls_transfer_pending', transactions: [] } } as unknown as SwapDetails,
      t.clock.now(),
      4,
    ).state;
    await t.store.pollCommit(0, state, { changed: true, moments: [] });
    const list = await t.service.listFollowed(group);
    expect(list.map((f) => f.swapId)).toEqual([b, a]);
    expect(list[1]?.status).toBe('ls_transfer_pending');
    expect(list[0]?.status).toBeUndefined();
    expect(list[0]?.since).toBeGreaterThanOrEqual(list[1]?.since ?? Infinity);
  });

  it('frees cap slots when a swap ends but keeps it listed', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await t.service.follow(a, dm('5'), { userId: '5' });
    await t.service.follow(b, dm('5'), { userId: '5' });
    expect((await t.service.follow(c, dm('5'), { userId: '5' })).ok).toBe(false);
    await t.subs.retire(a);
    expect((await t.service.follow(c, dm('5'), { userId: '5' })).ok).toBe(true);
    expect((await t.service.listFollowed(dm('5'))).map((f) => f.swapId).sort()).toEqual([a, b, c].sort());
    expect(await redis.ttl(t.keys.swap(a))).toBeGreaterThan(0);
    // Retiring again (a repeated final poll) frees nothing twice.
    await t.subs.retire(a);
    expect(await t.subs.counts('telegram', '5', dm('5'))).toEqual({ user: 2, chat: 2 });
  });

  it('unsubscribes a chat that is gone from everything it followed', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await t.service.follow(a, group, { userId: '1' });
    await t.service.follow(b, group, { userId: '2' });
    await t.service.follow(b, dm('2'), { userId: '2' });
    expect(await t.subs.removeTarget(group)).toBe(2);
    expect(await t.service.listFollowed(group)).toEqual([]);
    expect((await t.subs.followers(b)).map((f) => f.chatId)).toEqual(['2']);
    expect(await t.subs.counts('telegram', '1', group)).toEqual({ user: 0, chat: 0 });
    // a has no follower left: it leaves the set of swaps to poll
    const active: string[] = [];
    for await (const page of t.subs.eachActiveSwap()) active.push(...page);
    expect(active).toEqual([b]);
  });

  it('refuses something that is not a swap id with a clear message', async () => {
    await expect(t.service.follow('abc:def', group, { userId: '1' })).rejects.toThrow(/not a swap id/);
    expect(await t.service.unfollow('abc', group)).toBe(false);
  });
});

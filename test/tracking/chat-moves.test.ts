import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { LanguageStore } from '../../src/i18n/store.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { AWAY_MAX_SWAPS, AWAY_TTL_SECONDS, ChatMoves } from '../../src/tracking/chat-moves.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { Subscriptions } from '../../src/tracking/subscriptions.js';
import { SwapStore } from '../../src/tracking/swap-store.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';

/** Moving an upgraded group's follows, and the record of what a block dropped, on real Redis. */
const prefixRoot = uniquePrefix('moves');
const redis = testRedis(prefixRoot);
const open: Tracking[] = [];
afterAll(async () => {
  for (const t of open) await t.close();
});

function setup() {
  const prefix = `${prefixRoot}-${randomUUID().slice(0, 8)}`;
  const languages = new LanguageStore(redis, prefix);
  const tracking = createTracking({
    redis: testRedisUrl(),
    prefix,
    api: new LayerswapClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' }),
    limits: { maxPerChat: 10, maxPerUser: 10 },
    cadence: { fastMs: 1000, slowMs: 2000, stuckFactor: 4 },
    languages,
  });
  open.push(tracking);
  const keys = new TrackingKeys(prefix);
  const store = new SwapStore(redis, keys);
  return {
    service: tracking.service,
    keys,
    store,
    languages,
    subs: new Subscriptions(redis, keys, store, { maxPerChat: 10, maxPerUser: 10 }),
    moves: new ChatMoves(redis, keys, languages),
  };
}

const oldGroup: ChatTarget = { platform: 'telegram', chatId: '-4001', chatKind: 'group' };
const newGroup: ChatTarget = { platform: 'telegram', chatId: '-1009001', chatKind: 'group' };

describe('a chat moving to a new id', () => {
  it('takes its follows, delivery progress, settings, language and cap count along, once', async () => {
    const t = setup();
    const [a, b] = [randomUUID(), randomUUID()];
    await t.service.follow(a, oldGroup, { userId: '7' });
    await t.service.follow(b, oldGroup, { userId: '7' });
    const before = await t.store.snapshotFor(a, 'telegram:-4001');
    const saved = await t.store.setDelivery(
      a,
      'telegram:-4001',
      { version: 3, moments: 1, ref: { platform: 'telegram', chatId: '-4001', messageId: '55' }, cardHash: 'h' },
      before.deliveryRaw,
    );
    expect(saved.result).toBe('saved');
    await t.service.saveSettings(oldGroup, { moments: ['completed'], minorEdits: false, minUsd: 250 });
    await t.languages.set('chat', 'telegram', '-4001', 'ru');

    expect((await t.service.moveChat?.('telegram', '-4001', '-1009001')) ?? 0).toBe(2);

    expect((await t.service.listFollowed(newGroup)).map((f) => f.swapId).sort()).toEqual([a, b].sort());
    expect(await t.service.listFollowed(oldGroup)).toEqual([]);
    // Key moments already sent stay sent; the old card cannot be edited from the new chat: a new one is due.
    const snap = await t.store.snapshotFor(a, 'telegram:-1009001');
    expect(snap.delivery).toEqual({ version: 0, moments: 1 });
    expect(await t.service.settings(newGroup)).toMatchObject({ moments: ['completed'], minorEdits: false, minUsd: 250 });
    expect(await t.languages.get('chat', 'telegram', '-1009001')).toBe('ru');
    expect(await t.languages.get('chat', 'telegram', '-4001')).toBeUndefined();
    expect((await t.subs.counts('telegram', '7', newGroup)).chat).toBe(2);
    expect((await t.store.followers(a)).map((f) => f.chatId)).toEqual(['-1009001']);

    // The service message and a refused send may both report it: the second move finds nothing.
    expect(await t.service.moveChat?.('telegram', '-4001', '-1009001')).toBe(0);
    expect((await t.subs.counts('telegram', '7', newGroup)).chat).toBe(2);
  });

  it('drops a follow the new chat already has, giving its slots back', async () => {
    const t = setup();
    const [a, b] = [randomUUID(), randomUUID()];
    const from: ChatTarget = { platform: 'telegram', chatId: '-4002', chatKind: 'group' };
    const to: ChatTarget = { platform: 'telegram', chatId: '-1009002', chatKind: 'group' };
    await t.service.follow(a, from, { userId: '8' });
    await t.service.follow(b, from, { userId: '8' });
    await t.service.follow(a, to, { userId: '9' });
    expect(await t.service.moveChat?.('telegram', '-4002', '-1009002')).toBe(1);
    expect((await t.service.listFollowed(to)).map((f) => f.swapId).sort()).toEqual([a, b].sort());
    expect((await t.store.followers(a)).map((f) => `${f.chatId}/${f.userId}`)).toEqual(['-1009002/9']);
    expect((await t.subs.counts('telegram', '8', to)).chat).toBe(2);
    // User 8 now holds only the follow of b (moved); the duplicate of a gave its slot back.
    expect((await t.subs.counts('telegram', '8', to)).user).toBe(1);
  });
});

describe('what a block dropped', () => {
  const dm: ChatTarget = { platform: 'telegram', chatId: '5001', chatKind: 'private' };

  it('is kept bounded with a TTL, told once, and taken by Follow again', async () => {
    const t = setup();
    const ids = Array.from({ length: AWAY_MAX_SWAPS + 5 }, () => randomUUID());
    await t.moves.rememberAway(dm, ids);
    const ttl = await redis.ttl(t.keys.away('telegram:5001'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(AWAY_TTL_SECONDS);

    const told = await t.service.droppedWhileAway?.(dm);
    expect(told?.map((s) => s.swapId)).toEqual(ids.slice(0, AWAY_MAX_SWAPS));
    expect(await t.service.droppedWhileAway?.(dm)).toEqual([]);
    expect(await redis.ttl(t.keys.away('telegram:5001'))).toBeGreaterThan(0);

    expect(await t.moves.takeAway(dm)).toHaveLength(AWAY_MAX_SWAPS);
    expect(await t.moves.takeAway(dm)).toEqual([]);
  });
});

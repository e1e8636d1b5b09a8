import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { targetKey } from '../../src/tracking/keys.js';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { SwapStore, type Follower } from '../../src/tracking/swap-store.js';
import { testRedis, uniquePrefix } from '../support/redis.js';

/** The per-swap hash keeps what the notifier needs to edit the right message later. */

const prefix = uniquePrefix('store');
const redis = testRedis(prefix);
const store = new SwapStore(redis, new TrackingKeys(prefix));

describe('the per-swap store', () => {
  it("keeps a card's message in another channel than the chat id (a Discord DM) and in the chat itself", async () => {
    const id = randomUUID();
    const dm: Follower = { platform: 'discord', chatId: '111', chatKind: 'private', userId: '111', since: 1 };
    const group: Follower = { platform: 'telegram', chatId: '-100:{x}', chatKind: 'group', userId: 'u:1', since: 2 };
    for (const f of [dm, group]) expect(await store.addFollower(id, f, false)).toBe('followed');
    expect((await store.followers(id)).sort((a, b) => a.since - b.since)).toEqual([dm, group]);

    const dmRef = { platform: 'discord' as const, chatId: '999', messageId: 'm1' };
    const groupRef = { platform: 'telegram' as const, chatId: '-100:{x}', messageId: '7' };
    const prev = async (f: Follower) => (await store.snapshotFor(id, targetKey(f))).deliveryRaw;
    expect((await store.setDelivery(id, targetKey(dm), { version: 1, moments: 0, ref: dmRef }, await prev(dm))).result).toBe('saved');
    expect(
      (
        await store.setDelivery(
          id,
          targetKey(group),
          { version: 1, moments: 0, ref: groupRef, sending: { what: 'moment', key: 'k' } },
          await prev(group),
        )
      ).result,
    ).toBe('saved');
    // Over a record another run changed meanwhile: refused.
    expect((await store.setDelivery(id, targetKey(dm), { version: 2, moments: 0 }, undefined)).result).toBe('conflict');
    expect((await store.snapshotFor(id, targetKey(dm))).delivery?.ref).toEqual(dmRef);
    expect((await store.snapshotFor(id, targetKey(group))).delivery).toEqual({
      version: 1,
      moments: 0,
      ref: groupRef,
      sending: { what: 'moment', key: 'k' },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { BUCKET_BOUNDS_S, routeTimesId, WEEK_MS } from '../../src/contracts/route-times.js';
import { readRouteTimes, RouteTimesStore } from '../../src/tracking/route-times.js';
import { testRedis, uniquePrefix } from '../support/redis.js';

/** A route's summary stays small and recent whatever its traffic (real Redis, the Lua script). */
const prefix = uniquePrefix('rt');
// Closed, and its keys deleted, after the file.
const redis = testRedis(prefix);

describe('route times in Redis', () => {
  it('a busy route: at most 2 KB, whatever the number of swaps and their durations', async () => {
    const store = new RouteTimesStore(redis, prefix);
    const route = routeTimesId({
      sourceNetwork: 'ARBITRUM_MAINNET',
      sourceToken: 'USDC',
      destinationNetwork: 'BASE_MAINNET',
      destinationToken: 'USDC',
    });
    const start = 100 * WEEK_MS;
    // 4 weeks of swaps, thousands each, in every bucket.
    for (let week = 0; week < 4; week++) {
      for (const s of [...BUCKET_BOUNDS_S, 200_000]) {
        for (let k = 0; k < 3; k++) {
          const now = start + week * WEEK_MS;
          await store.recordCompleted(
            route,
            { depositSeenAt: now - s * 1000, history: [{ status: 'ls_transfer_pending', at: now - s * 500 }] },
            now,
          );
        }
      }
    }
    const bytes = Number(await redis.memory('USAGE', new TrackingKeys(prefix).routeTimes(route)));
    expect(bytes).toBeLessThanOrEqual(2048);
    const times = await readRouteTimes(redis, prefix, route, start + 3 * WEEK_MS);
    expect(times.seen?.count).toBe(4 * 3 * (BUCKET_BOUNDS_S.length + 1));
  });

  it('weeks past the window are dropped on the next write, and ignored on reading before it', async () => {
    const store = new RouteTimesStore(redis, prefix, 0);
    const route = routeTimesId({
      sourceNetwork: 'OPTIMISM_MAINNET',
      sourceToken: 'ETH',
      destinationNetwork: 'BASE_MAINNET',
      destinationToken: 'ETH',
    });
    const old = 200 * WEEK_MS;
    for (let i = 0; i < 6; i++) await store.recordCompleted(route, { depositSeenAt: old - 600_000, history: [] }, old);
    expect((await store.read(route, old)).seen?.count).toBe(6);
    // Five weeks later: the old figures no longer count.
    const later = old + 5 * WEEK_MS;
    expect((await store.read(route, later)).seen).toBeUndefined();
    await store.recordCompleted(route, { depositSeenAt: later - 30_000, history: [] }, later);
    expect(await redis.hkeys(new TrackingKeys(prefix).routeTimes(route))).toEqual([`${Math.floor(later / WEEK_MS)}:s`]);
    expect((await store.read(route, later)).seen).toMatchObject({ count: 1, p50Ms: 30_000 });
  });
});

import type { Redis } from 'ioredis';
import { lastEntered } from '../contracts/tracking.js';
import { BUCKET_COUNT, bucketOf, ROUTE_TIMES_WEEKS, summarizeRouteTimes, WEEK_MS, type RouteTimes } from '../contracts/route-times.js';
import type { SwapState } from './observe.js';
import { scripts, type ScriptRunner } from '../scripts.js';
import { TrackingKeys } from '../contracts/keys.js';

/** Reads a route's observed times (one HGETALL). */
export async function readRouteTimes(redis: Redis, prefix: string, routeId: string, now: number): Promise<RouteTimes> {
  return summarizeRouteTimes(await redis.hgetall(new TrackingKeys(prefix).routeTimes(routeId)), now);
}

/**
 * The tracker's side of observed arrival times (contracts/route-times.ts): a completed swap's
 * durations go into its route's histograms, and the stuck alert reads a route's distribution
 * from a short in-process cache (one read per route a minute, not one per poll).
 */
export class RouteTimesStore {
  private readonly run: ScriptRunner;
  private readonly cache = new Map<string, { at: number; times: RouteTimes }>();
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly cacheMs = 60_000,
  ) {
    this.run = scripts(redis);
  }

  /** Records a swap that completed at `now`: deposit seen → now, deposit confirmed → now. */
  async recordCompleted(routeId: string, state: Pick<SwapState, 'depositSeenAt' | 'history'>, now: number): Promise<void> {
    const seenAt = state.depositSeenAt;
    const confirmedAt = lastEntered(state.history, 'ls_transfer_pending');
    const seen = seenAt !== undefined && seenAt < now ? bucketOf(now - seenAt) : -1;
    const confirmed = confirmedAt !== undefined && confirmedAt < now ? bucketOf(now - confirmedAt) : -1;
    if (seen < 0 && confirmed < 0) return;
    const slot = Math.floor(now / WEEK_MS);
    await this.run(
      'routeTime',
      [new TrackingKeys(this.prefix).routeTimes(routeId)],
      [slot, slot - ROUTE_TIMES_WEEKS + 1, ROUTE_TIMES_WEEKS * WEEK_MS, BUCKET_COUNT, seen, confirmed],
    );
    this.cache.delete(routeId);
  }

  async read(routeId: string, now: number): Promise<RouteTimes> {
    const hit = this.cache.get(routeId);
    if (hit && Date.now() - hit.at < this.cacheMs) return hit.times;
    const times = await readRouteTimes(this.redis, this.prefix, routeId, now);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(routeId, { at: Date.now(), times });
    return times;
  }
}

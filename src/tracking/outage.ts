import type { Redis } from 'ioredis';
import type { TrackingKeys } from '../contracts/keys.js';

/**
 * Consecutive failed polls over all swaps; a good poll clears it only when this process saw a
 * failure (no extra round trip per poll), and it expires 10 min after the last failure anyway.
 */
export class OutageCounter {
  private failedHere = false;

  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
  ) {}

  async record(): Promise<number> {
    this.failedHere = true;
    const [[, n] = []] =
      (await this.redis
        .multi()
        .incr(this.keys.outage)
        .pexpire(this.keys.outage, 10 * 60_000)
        .exec()) ?? [];
    return Number(n ?? 1);
  }

  async clear(): Promise<void> {
    if (!this.failedHere) return;
    this.failedHere = false;
    await this.redis.del(this.keys.outage);
  }
}

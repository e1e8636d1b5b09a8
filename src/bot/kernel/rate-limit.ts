import type { Redis } from 'ioredis';
import type { Platform } from '../../contracts/incoming.js';
import { CoreKeys } from '../../contracts/keys.js';
import { scripts, type ScriptRunner } from '../../scripts.js';

/**
 * A token bucket per platform and user in Redis, refilled continuously at commandsPerMinute and
 * holding at most that many. One Lua script (scripts/takeToken-1.lua) reads, refills and takes
 * atomically, so every process shares one bucket per user. Time comes from the caller (testable clocks).
 */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

export class RateLimiter {
  private readonly run: ScriptRunner;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly perMinute: number,
    /** Inline queries have a bucket of their own (CoreKeys.rate). */
    private readonly bucket: 'commands' | 'inline' = 'commands',
  ) {
    this.run = scripts(redis);
  }

  async take(platform: Platform, userId: string, now: number): Promise<RateDecision> {
    const key = new CoreKeys(this.prefix).rate(platform, userId, this.bucket);
    const result = await this.run('takeToken', [key], [String(this.perMinute), String(this.perMinute / 60_000), String(Math.floor(now))]);
    const [allowed, wait] = Array.isArray(result) ? result.map(Number) : [1, 0];
    return allowed === 1 ? { allowed: true } : { allowed: false, retryAfterMs: Math.max(1, wait ?? 1000) };
  }
}

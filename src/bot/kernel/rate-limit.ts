import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Platform } from '../../contracts/incoming.js';
import { CoreKeys } from '../../contracts/keys.js';

/**
 * A token bucket per platform and user in Redis, refilled continuously at commandsPerMinute and
 * holding at most that many. One Lua script reads, refills and takes atomically, so every process
 * shares one bucket per user. Time comes from the caller (testable clocks).
 */
const SCRIPT = `
local capacity = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local data = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(data[1])
local ts = tonumber(data[2])
if tokens == nil or ts == nil then tokens = capacity; ts = now end
if now > ts then
  tokens = math.min(capacity, tokens + (now - ts) * per_ms)
  ts = now
end
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.ceil((1 - tokens) / per_ms)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(ts))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / per_ms) + 60000)
return {allowed, wait}
`;
const SHA = createHash('sha1').update(SCRIPT).digest('hex');

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly perMinute: number,
  ) {}

  async take(platform: Platform, userId: string, now: number): Promise<RateDecision> {
    const key = new CoreKeys(this.prefix).rate(platform, userId);
    const args = [String(this.perMinute), String(this.perMinute / 60_000), String(Math.floor(now))];
    let result: unknown;
    try {
      result = await this.redis.evalsha(SHA, 1, key, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !/NOSCRIPT/.test(err.message)) throw err;
      result = await this.redis.eval(SCRIPT, 1, key, ...args);
    }
    const [allowed, wait] = Array.isArray(result) ? result.map(Number) : [1, 0];
    return allowed === 1 ? { allowed: true } : { allowed: false, retryAfterMs: Math.max(1, wait ?? 1000) };
  }
}

import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChatTarget } from '../bot/incoming.js';
import type { TrackingKeys } from './keys.js';
import { LuaScript } from './lua.js';

/**
 * Per-chat pacing: a sliding window of send times per chat in Redis, shared by every worker.
 * Telegram allows about 20 messages a minute in one group; the platform-wide rates (Telegram
 * ~30/s, Discord ~45/s) are BullMQ limiters on each platform's notify queue instead.
 */

export interface PaceRule {
  limit: number;
  windowMs: number;
}

/** The default rules: Telegram groups and channels 20 per minute; everything else unpaced. */
export function defaultPaceRule(target: ChatTarget): PaceRule | undefined {
  if (target.platform === 'telegram' && target.chatKind !== 'private') return { limit: 20, windowMs: 60_000 };
  return undefined;
}

const TAKE = new LuaScript(`
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`);

export class Pacer {
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
    private readonly rule: (target: ChatTarget) => PaceRule | undefined = defaultPaceRule,
  ) {}

  /** 0 when the chat may get a message now (and counts it), else how long to wait (ms). */
  async take(target: ChatTarget, tk: string): Promise<number> {
    const r = this.rule(target);
    if (!r) return 0;
    const wait = await TAKE.run(this.redis, [this.keys.pace(tk)], [Date.now(), r.windowMs, r.limit, `${Date.now()}-${randomBytes(4).toString('hex')}`]);
    return Number(wait);
  }
}

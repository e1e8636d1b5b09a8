import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChatTarget, Platform } from '../bot/incoming.js';
import type { TrackingKeys } from './keys.js';
import { LuaScript } from './lua.js';

/**
 * Message pacing: sliding windows of send times in Redis, shared by every worker, one per chat
 * where the platform has a per-chat limit (Telegram: about 20 messages a minute in one group)
 * and one per platform (Telegram ~30/s, Discord ~45/s). The platform window matters because the
 * BullMQ limiter on each notify queue counts jobs, and one job may send two messages (the card
 * and a key moment): this counts messages. All windows are checked and taken atomically.
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

// KEYS: one sorted set per window; ARGV: now, member, then (window ms, limit) per key.
const TAKE = new LuaScript(`
local now = tonumber(ARGV[1])
local wait = 0
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[1 + i * 2])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= tonumber(ARGV[2 + i * 2]) then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    wait = math.max(wait, 1, tonumber(oldest[2]) + window - now)
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, tonumber(ARGV[1 + i * 2]))
end
return 0
`);

export class Pacer {
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
    private readonly rule: (target: ChatTarget) => PaceRule | undefined = defaultPaceRule,
    /** Messages per window for the whole platform; undefined: no platform window. */
    private readonly platformRule: (platform: Platform) => PaceRule | undefined = () => undefined,
  ) {}

  /** 0 when the chat may get a message now (and counts it), else how long to wait (ms). */
  async take(target: ChatTarget, tk: string): Promise<number> {
    const windows: Array<[string, PaceRule]> = [];
    const chat = this.rule(target);
    if (chat) windows.push([this.keys.pace(tk), chat]);
    const platform = this.platformRule(target.platform);
    if (platform) windows.push([this.keys.pace(`platform:${target.platform}`), platform]);
    if (windows.length === 0) return 0;
    const now = Date.now();
    const args: Array<string | number> = [now, `${now}-${randomBytes(4).toString('hex')}`];
    for (const [, r] of windows) args.push(r.windowMs, r.limit);
    const wait = await TAKE.run(this.redis, windows.map(([k]) => k), args);
    return Number(wait);
  }
}

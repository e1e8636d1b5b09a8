import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChatTarget, Platform } from '../contracts/incoming.js';
import type { TrackingKeys } from './keys.js';
import { LuaScript } from './lua.js';

/**
 * Message pacing: sliding windows of send times in Redis, shared by every worker, one per chat
 * where the platform has a per-chat limit (Telegram: about 20 messages a minute in one group)
 * and one per platform (Telegram ~30/s, Discord ~45/s). The platform window matters because the
 * BullMQ limiter on each notify queue counts jobs, and one job may send two messages (the card
 * and a key moment): this counts messages. All windows are checked and taken atomically. A chat
 * the platform rate-limited (429) is on hold until the wait it asked for is over.
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

// KEYS: the chat's hold (a 429's wait), then one sorted set per window; ARGV: now, member, then
// (window ms, limit) per window.
const TAKE = new LuaScript(`
local hold = redis.call('PTTL', KEYS[1])
if hold > 0 then return hold end
local now = tonumber(ARGV[1])
local wait = 0
for i = 2, #KEYS do
  local key = KEYS[i]
  local window = tonumber(ARGV[1 + (i - 1) * 2])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= tonumber(ARGV[2 + (i - 1) * 2]) then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    wait = math.max(wait, 1, tonumber(oldest[2]) + window - now)
  end
end
if wait > 0 then return wait end
for i = 2, #KEYS do
  redis.call('ZADD', KEYS[i], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[1 + (i - 1) * 2]))
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

  /**
   * 0 when the chat may get a message now (and counts it), else how long to wait (ms): while the
   * chat is on hold after a 429, or while a window is full.
   */
  async take(target: ChatTarget, tk: string): Promise<number> {
    const windows: Array<[string, PaceRule]> = [];
    const chat = this.rule(target);
    if (chat) windows.push([this.keys.pace(tk), chat]);
    const platform = this.platformRule(target.platform);
    if (platform) windows.push([this.keys.pace(`platform:${target.platform}`), platform]);
    const now = Date.now();
    const args: Array<string | number> = [now, `${now}-${randomBytes(4).toString('hex')}`];
    for (const [, r] of windows) args.push(r.windowMs, r.limit);
    const wait = await TAKE.run(this.redis, [this.keys.chatHold(tk), ...windows.map(([k]) => k)], args);
    return Number(wait);
  }

  /**
   * A per-chat 429: every job for this chat (any swap, any worker) waits `ms`; other chats go on.
   * Never shortens a longer hold already in place.
   */
  async hold(tk: string, ms: number): Promise<void> {
    const key = this.keys.chatHold(tk);
    const left = await this.redis.pttl(key);
    if (left < ms) await this.redis.set(key, String(Date.now() + ms), 'PX', Math.max(1, Math.ceil(ms)));
  }
}

import type { Redis } from 'ioredis';
import type { ChatKind, ChatTarget, Platform } from '../contracts/incoming.js';
import { targetKey, type TrackingKeys } from './keys.js';
import { LuaScript } from './lua.js';

/**
 * Who follows what, in Redis: swap -> followers (hash), chat -> swaps (zset, for /tracking),
 * and the sets behind the caps. A chat's cap counts the swaps it follows that are not final yet;
 * a user's cap counts the follows that user started (in any chat) that are not final yet. When a
 * swap ends, retire() frees those slots and lets its keys expire after a retention period.
 * Every multi-key change is one Lua script, so caps hold under concurrent /track commands.
 * (Scripts build chat and user keys from stored data: fine on one Redis, not on a cluster.)
 */

export interface Follower extends ChatTarget {
  /** The user who started following here (counted against their cap). */
  userId: string;
  since: number;
}

export type FollowOutcome = 'followed' | 'already' | 'chat_limit' | 'user_limit';

const FOLLOW = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[5]) then return -1 end
local maxUser = tonumber(ARGV[6])
if maxUser > 0 and redis.call('SCARD', KEYS[4]) >= maxUser then return -2 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PERSIST', KEYS[1])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('SADD', KEYS[4], ARGV[7])
redis.call('SADD', KEYS[5], ARGV[3])
if redis.call('HEXISTS', KEYS[6], ARGV[1]) == 0 then
  -- A new follower starts at the moments already announced: it gets the card, not old news.
  redis.call('HSET', KEYS[6], ARGV[1], cjson.encode({version = 0, moments = redis.call('LLEN', KEYS[7])}))
end
return 1
`);

const UNFOLLOW = new LuaScript(`
local removed = redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('SREM', KEYS[3], ARGV[2])
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if entry then
  local f = cjson.decode(entry)
  redis.call('SREM', ARGV[3] .. f.platform .. ':' .. f.userId .. ':active', ARGV[2] .. '|' .. ARGV[1])
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[5], ARGV[1])
  if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[4], ARGV[2]) end
  return 1
end
return removed
`);

const RETIRE = new LuaScript(`
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local tk = all[i]
  local f = cjson.decode(all[i + 1])
  redis.call('SREM', ARGV[3] .. tk .. ':active', ARGV[1])
  redis.call('SREM', ARGV[4] .. f.platform .. ':' .. f.userId .. ':active', ARGV[1] .. '|' .. tk)
end
redis.call('SREM', KEYS[2], ARGV[1])
for i = 3, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[2]) end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return #all / 2
`);

export interface SubscriptionLimits {
  maxPerChat: number;
  maxPerUser: number;
}

export class Subscriptions {
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
    private readonly limits: SubscriptionLimits,
    /** How long a finished swap stays listed (and its state kept), in seconds. */
    private readonly retentionSeconds = 7 * 86_400,
  ) {}

  async follow(swapId: string, target: ChatTarget, by: { userId: string; creator?: boolean }, now: number): Promise<FollowOutcome> {
    const tk = targetKey(target);
    const k = this.keys;
    const follower: Follower = { platform: target.platform, chatId: target.chatId, chatKind: target.chatKind, userId: by.userId, since: now };
    const res = await FOLLOW.run(
      this.redis,
      [k.followers(swapId), k.chatSwaps(tk), k.chatActive(tk), k.userActive(target.platform, by.userId), k.activeSwaps, k.deliveries(swapId), k.moments(swapId)],
      // The creator's own swap is always followed in their private chat: the per-user cap is
      // for /track, so a creator at the cap still gets updates about what they just created.
      [tk, JSON.stringify(follower), swapId, now, this.limits.maxPerChat, by.creator ? 0 : this.limits.maxPerUser, `${swapId}|${tk}`],
    );
    if (res === 1) return 'followed';
    if (res === 0) return 'already';
    return res === -1 ? 'chat_limit' : 'user_limit';
  }

  async unfollow(swapId: string, target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<boolean> {
    const tk = targetKey(target);
    const k = this.keys;
    const res = await UNFOLLOW.run(this.redis, [k.followers(swapId), k.chatSwaps(tk), k.chatActive(tk), k.activeSwaps, k.deliveries(swapId)], [tk, swapId, k.userPrefix]);
    return res === 1;
  }

  /** A chat that is gone for good (bot blocked or kicked): stop everything it followed. */
  async removeTarget(target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<number> {
    const tk = targetKey(target);
    const swaps = await this.redis.zrange(this.keys.chatSwaps(tk), 0, -1);
    let n = 0;
    for (const swapId of swaps) if (await this.unfollow(swapId, target)) n++;
    await this.redis.del(this.keys.chatSwaps(tk), this.keys.chatActive(tk));
    return n;
  }

  async followers(swapId: string): Promise<Follower[]> {
    const all = await this.redis.hgetall(this.keys.followers(swapId));
    return Object.values(all).flatMap((v) => {
      const f = parseFollower(v);
      return f ? [f] : [];
    });
  }

  async follower(swapId: string, target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<Follower | undefined> {
    const v = await this.redis.hget(this.keys.followers(swapId), targetKey(target));
    return v ? parseFollower(v) : undefined;
  }

  /** Swap ids a chat follows with when it started, newest first; drops entries whose retention ran out. */
  async listForChat(target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<Array<{ swapId: string; since: number }>> {
    const tk = targetKey(target);
    const raw = await this.redis.zrevrange(this.keys.chatSwaps(tk), 0, -1, 'WITHSCORES');
    const entries: Array<{ swapId: string; since: number }> = [];
    for (let i = 0; i + 1 < raw.length; i += 2) entries.push({ swapId: raw[i] as string, since: Number(raw[i + 1]) });
    if (entries.length === 0) return entries;
    const pipe = this.redis.pipeline();
    for (const e of entries) pipe.hexists(this.keys.followers(e.swapId), tk);
    const exists = (await pipe.exec()) ?? [];
    const stale = entries.filter((_, i) => exists[i]?.[1] !== 1);
    if (stale.length) await this.redis.zrem(this.keys.chatSwaps(tk), ...stale.map((e) => e.swapId));
    return entries.filter((_, i) => exists[i]?.[1] === 1);
  }

  /** The swap ended (or polling gave up): free cap slots, keep it listed for the retention period. */
  async retire(swapId: string): Promise<void> {
    const k = this.keys;
    await RETIRE.run(
      this.redis,
      [k.followers(swapId), k.activeSwaps, k.state(swapId), k.details(swapId), k.moments(swapId), k.deliveries(swapId), k.stopped(swapId)],
      [swapId, this.retentionSeconds, k.chatPrefix, k.userPrefix],
    );
  }

  /** Nobody follows any more: the swap leaves the set of swaps to poll. */
  async markUnfollowed(swapId: string): Promise<void> {
    await this.redis.srem(this.keys.activeSwaps, swapId);
  }

  /** Swaps that should have a poll job (followed, not final). */
  async activeSwaps(): Promise<string[]> {
    return this.redis.smembers(this.keys.activeSwaps);
  }

  /** How many not-final swaps a user started following, and a chat follows (for tests and /tracking). */
  async counts(platform: Platform, userId: string, target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<{ user: number; chat: number }> {
    const [user, chat] = await Promise.all([
      this.redis.scard(this.keys.userActive(platform, userId)),
      this.redis.scard(this.keys.chatActive(targetKey(target))),
    ]);
    return { user, chat };
  }
}

const KINDS: ReadonlySet<string> = new Set<ChatKind>(['private', 'group', 'channel']);

/** A stored follower entry; undefined when it is not one (skipped, never crashes a job). */
export function parseFollower(v: string): Follower | undefined {
  try {
    const f = JSON.parse(v) as Partial<Follower>;
    if (typeof f.platform !== 'string' || typeof f.chatId !== 'string' || !KINDS.has(String(f.chatKind)) || typeof f.userId !== 'string') return undefined;
    return { platform: f.platform, chatId: f.chatId, chatKind: f.chatKind as ChatKind, userId: f.userId, since: Number(f.since ?? 0) };
  } catch {
    return undefined;
  }
}

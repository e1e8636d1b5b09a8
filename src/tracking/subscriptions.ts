import type { Redis } from 'ioredis';
import type { ChatTarget, Platform } from '../contracts/incoming.js';
import type { FollowBy } from '../contracts/tracking.js';
import { targetKey } from './keys.js';
import type { TrackingKeys } from '../contracts/keys.js';
import { scripts, type ScriptRunner } from '../scripts.js';
import type { Follower, SwapStore } from './swap-store.js';

/**
 * Who follows what: the follower entries live in each swap's hash (swap-store.ts); around them,
 * in each chat's and user's hash (keys.party), what the chat follows (for /tracking) and the
 * counters of unfinished follows (the caps). These are keys of different hash tags, so a follow is
 * a few one-slot steps: list it, take a chat slot, take a user slot, add the follower, giving the
 * slots back if the last step finds the chat already following. A crash between two steps can
 * leave a slot taken (the cap is then one stricter until the swap ends), never let a chat past it.
 */

/** The counter fields of a party's hash (keys.party). */
const CHAT = 'c';
const USER = 'u';

/** A user's party is their private chat's: one hash for both. */
const userKey = (platform: Platform, userId: string) => targetKey({ platform, chatId: userId });

export type FollowOutcome = 'followed' | 'already' | 'chat_limit' | 'user_limit';

export interface SubscriptionLimits {
  maxPerChat: number;
  maxPerUser: number;
}

export class Subscriptions {
  private readonly run: ScriptRunner;
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
    private readonly store: SwapStore,
    private readonly limits: SubscriptionLimits,
    /** How long a finished swap stays listed (and its state kept), in seconds. */
    private readonly retentionSeconds = 7 * 86_400,
  ) {
    this.run = scripts(redis);
  }

  async follow(swapId: string, target: ChatTarget, by: FollowBy, now: number): Promise<FollowOutcome> {
    const tk = targetKey(target);
    const k = this.keys;
    if (await this.store.follower(swapId, tk)) return 'already';
    const chat = k.party(tk);
    const user = k.party(userKey(target.platform, by.userId));
    if ((await this.run('reserveSlot', [chat], [CHAT, this.limits.maxPerChat])) !== 1) return 'chat_limit';
    // The creator's own swap is always followed in their private chat: the per-user cap is for
    // /track, so a creator at the cap still gets updates about what they just created (it counts).
    if ((await this.run('reserveSlot', [user], [USER, by.creator ? 0 : this.limits.maxPerUser])) !== 1) {
      await this.run('releaseSlot', [chat], [CHAT]);
      return 'user_limit';
    }
    const follower: Follower = {
      platform: target.platform,
      chatId: target.chatId,
      chatKind: target.chatKind,
      userId: by.userId,
      since: now,
      ...(target.threadId ? { threadId: target.threadId } : {}),
      ...(by.locale ? { locale: by.locale } : {}),
      ...((by.creator || by.own) && target.chatKind === 'private' ? { own: true } : {}),
    };
    // Listed first: the listing may name a swap the chat does not follow (listForChat drops it),
    // never miss one it does (removeTarget goes by it).
    await this.redis.hsetnx(chat, `s:${swapId}`, now);
    const added = await this.store.addFollower(swapId, follower, by.creator === true);
    if (added !== 'followed') {
      // Followed meanwhile (a concurrent /track), or a swap that already ended: no slots held.
      await this.run('releaseSlot', [chat], [CHAT]);
      await this.run('releaseSlot', [user], [USER]);
    }
    if (added === 'already') return 'already';
    if (added === 'followed') await this.redis.sadd(k.activeSwaps, swapId);
    return 'followed';
  }

  /** The creation record of a creator's follow (keys.pendingFollows); done() removes it. */
  async pending(swapId: string, target: ChatTarget, by: FollowBy, now: number): Promise<void> {
    await this.redis.hset(this.keys.pendingFollows, swapId, JSON.stringify({ target, by, at: now }));
  }

  async pendingDone(swapId: string): Promise<void> {
    await this.redis.hdel(this.keys.pendingFollows, swapId);
  }

  /** Creation records older than `before` (ms): follows a restart or a crash left undone. */
  async pendingBefore(before: number): Promise<Array<{ swapId: string; target: ChatTarget; by: FollowBy }>> {
    const all = await this.redis.hgetall(this.keys.pendingFollows);
    return Object.entries(all).flatMap(([swapId, raw]) => {
      try {
        const v = JSON.parse(raw) as { target: ChatTarget; by: FollowBy; at: number };
        return v.at < before && v.target?.chatId && v.by?.userId ? [{ swapId, target: v.target, by: v.by }] : [];
      } catch {
        return [];
      }
    });
  }

  async unfollow(swapId: string, target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<boolean> {
    const tk = targetKey(target);
    const k = this.keys;
    const removed = await this.redis.hdel(k.party(tk), `s:${swapId}`);
    const res = await this.store.removeFollower(swapId, tk, this.retentionSeconds);
    if (!res) return removed === 1;
    if (res.held) {
      await this.run('releaseSlot', [k.party(tk)], [CHAT]);
      if (res.follower) await this.run('releaseSlot', [k.party(userKey(res.follower.platform, res.follower.userId))], [USER]);
    }
    if (res.left <= 0) await this.redis.srem(k.activeSwaps, swapId);
    return true;
  }

  /** A chat that is gone for good (bot blocked or kicked): stop everything it followed. */
  async removeTarget(target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<number> {
    const tk = targetKey(target);
    let n = 0;
    for (const { swapId } of await this.listed(tk)) if (await this.unfollow(swapId, target)) n++;
    return n;
  }

  followers(swapId: string): Promise<Follower[]> {
    return this.store.followers(swapId);
  }

  follower(swapId: string, target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<Follower | undefined> {
    return this.store.follower(swapId, targetKey(target));
  }

  /** Swap ids a chat follows with when it started, newest first; drops entries whose retention ran out. */
  async listForChat(target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<Array<{ swapId: string; since: number }>> {
    const tk = targetKey(target);
    const entries = await this.listed(tk);
    const follows = await this.store.follows(
      entries.map((e) => e.swapId),
      tk,
    );
    const stale = entries.filter((_, i) => !follows[i]);
    if (stale.length) await this.redis.hdel(this.keys.party(tk), ...stale.map((e) => `s:${e.swapId}`));
    return entries.filter((_, i) => follows[i]);
  }

  /** The chat's listing, newest first (it may name swaps whose retention ran out). */
  private async listed(tk: string): Promise<Array<{ swapId: string; since: number }>> {
    const all = await this.redis.hgetall(this.keys.party(tk));
    return Object.entries(all)
      .flatMap(([f, v]) => (f.startsWith('s:') ? [{ swapId: f.slice(2), since: Number(v) }] : []))
      .sort((a, b) => b.since - a.since);
  }

  /** The swap ended (or polling gave up): free cap slots (once), keep it listed for the retention period. */
  async retire(swapId: string): Promise<void> {
    const k = this.keys;
    for (const f of await this.store.retire(swapId, this.retentionSeconds)) {
      await this.run('releaseSlot', [k.party(targetKey(f))], [CHAT]);
      await this.run('releaseSlot', [k.party(userKey(f.platform, f.userId))], [USER]);
    }
    await this.redis.srem(k.activeSwaps, swapId);
  }

  /** Nobody follows any more: the swap leaves the set of swaps to poll. */
  async markUnfollowed(swapId: string): Promise<void> {
    await this.redis.srem(this.keys.activeSwaps, swapId);
  }

  /**
   * Swaps that should have a poll job (followed, not final), a page at a time (SSCAN): a
   * reconcile over 100,000 followed swaps holds one page of ids, not all of them.
   * A swap added or removed during the scan may be missed or seen twice; the next pass sees it.
   */
  async *eachActiveSwap(pageSize = 1000): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const [next, ids] = await this.redis.sscan(this.keys.activeSwaps, cursor, 'COUNT', pageSize);
      cursor = next;
      if (ids.length) yield ids;
    } while (cursor !== '0');
  }

  /** How many not-final swaps a user started following, and a chat follows (for tests and /tracking). */
  async counts(
    platform: Platform,
    userId: string,
    target: Pick<ChatTarget, 'platform' | 'chatId'>,
  ): Promise<{ user: number; chat: number }> {
    const [user, chat] = await Promise.all([
      this.redis.hget(this.keys.party(userKey(platform, userId)), USER),
      this.redis.hget(this.keys.party(targetKey(target)), CHAT),
    ]);
    return { user: Number(user ?? 0), chat: Number(chat ?? 0) };
  }
}

import type { Redis } from 'ioredis';
import type { ChatTarget, Platform } from '../contracts/incoming.js';
import type { ChatLanguages } from '../contracts/tracking.js';
import { targetKey } from './keys.js';
import type { TrackingKeys } from '../contracts/keys.js';
import { scripts, type ScriptRunner } from '../scripts.js';

/**
 * Two ways a chat's follows outlive a delivery failure:
 *
 * - **A group upgraded to a supergroup** (Telegram gives it a new id): its follows, delivery
 *   records, settings and language move to the new id, and each followed swap's card is sent
 *   there (the old chat's cards cannot be edited from the new one).
 * - **A user who blocked the bot** is unsubscribed, but the swaps dropped are remembered (a small
 *   record with a TTL) so that on their return they hear what stopped and can follow it all again.
 */

/** At most this many dropped swaps are remembered per chat (the newest). */
export const AWAY_MAX_SWAPS = 25;
/** How long the record of a block is kept. */
export const AWAY_TTL_SECONDS = 30 * 86_400;

/** The party hash's fields of the per-chat and per-user cap counters (subscriptions.ts). */
const CHAT_SLOTS = 'c';
const USER_SLOTS = 'u';

/** The user a stored follower entry names (a group's entries always do). */
function followerUser(entry: string | undefined): string | undefined {
  try {
    const u = (JSON.parse(entry ?? '') as { u?: unknown }).u;
    return typeof u === 'string' ? u : undefined;
  } catch {
    return undefined;
  }
}

export class ChatMoves {
  private readonly run: ScriptRunner;
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
    private readonly languages: Pick<ChatLanguages, 'move'>,
  ) {
    this.run = scripts(redis);
  }

  /**
   * Moves everything a chat follows to its new id; returns the swaps moved (each needs a card in
   * the new chat). Idempotent: both the service message and a failed send may report one upgrade.
   */
  async move(platform: Platform, fromChatId: string, toChatId: string): Promise<string[]> {
    if (fromChatId === toChatId) return [];
    const from = targetKey({ platform, chatId: fromChatId });
    const to = targetKey({ platform, chatId: toChatId });
    const oldParty = this.keys.party(from);
    const newParty = this.keys.party(to);
    const fields = await this.redis.hgetall(oldParty);
    const moved: string[] = [];
    for (const [field, since] of Object.entries(fields)) {
      if (!field.startsWith('s:')) continue;
      const swapId = field.slice(2);
      // Each follow moves once (the script is atomic), so a slot is carried over once even when
      // the service message and a refused send move the chat at the same time.
      const res = (await this.run('moveChat', [this.keys.swap(swapId)], [from, to])) as [number, string?, string?];
      if (res[0] === 1) {
        moved.push(swapId);
        if (res[1] === '1') await this.redis.hincrby(newParty, CHAT_SLOTS, 1);
      }
      // Already followed in the new chat: the old follow is gone; its user's slot is given back.
      const userId = res[0] === 2 && res[1] === '1' ? followerUser(res[2]) : undefined;
      if (userId) await this.run('releaseSlot', [this.keys.party(targetKey({ platform, chatId: userId }))], [USER_SLOTS]);
      await this.redis.hsetnx(newParty, field, since);
    }
    // Settings (field o) go along unless the new chat has its own.
    if (fields.o !== undefined) await this.redis.hsetnx(newParty, 'o', fields.o);
    await this.redis.del(oldParty);
    await this.languages.move('chat', platform, fromChatId, toChatId);
    return moved;
  }

  /** Remembers the swaps a chat stopped following because it blocked the bot (newest first). */
  async rememberAway(target: Pick<ChatTarget, 'platform' | 'chatId'>, swapIds: readonly string[]): Promise<void> {
    if (swapIds.length === 0) return;
    const key = this.keys.away(targetKey(target));
    const before = parseAway(await this.redis.get(key));
    const ids = [...new Set([...swapIds, ...(before && !before.told ? before.ids : [])])].slice(0, AWAY_MAX_SWAPS);
    await this.redis.set(key, JSON.stringify({ ids }), 'EX', AWAY_TTL_SECONDS);
  }

  /** The record tellAway reads (TrackingService.awayRecordKey). */
  awayKey(target: Pick<ChatTarget, 'platform' | 'chatId'>): string {
    return this.keys.away(targetKey(target));
  }

  /** The swaps dropped while the user was away, once (later calls give none until a new block). */
  async tellAway(target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<string[]> {
    const key = this.keys.away(targetKey(target));
    const raw = await this.redis.get(key);
    const away = parseAway(raw);
    if (!away || away.told) return [];
    // Only if unchanged since read: two messages at once tell once.
    const marked = await this.redis.set(key, JSON.stringify({ ids: away.ids, told: 1 }), 'KEEPTTL', 'GET');
    return marked === raw ? away.ids : [];
  }

  /** The swaps to follow again (Follow again), and forgets them. */
  async takeAway(target: Pick<ChatTarget, 'platform' | 'chatId'>): Promise<string[]> {
    const raw = await this.redis.getdel(this.keys.away(targetKey(target)));
    return parseAway(raw)?.ids ?? [];
  }
}

function parseAway(raw: string | null): { ids: string[]; told: boolean } | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as { ids?: unknown; told?: unknown };
    if (!Array.isArray(v.ids)) return undefined;
    return { ids: v.ids.filter((x): x is string => typeof x === 'string'), told: v.told === 1 };
  } catch {
    return undefined;
  }
}

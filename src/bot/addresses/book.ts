import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Platform } from '../../contracts/incoming.js';
import { CoreKeys } from '../../contracts/keys.js';
import type { AddressBook, SavedAddress } from '../kernel/stores.js';
import { maskAddress } from '../kernel/format.js';
import { code, line, type Reply } from '../../contracts/reply.js';
import type { WatchLimitNotice } from '../../contracts/tracking.js';
import { t, tSpans, type Locale } from '../../i18n/index.js';

/**
 * Saved addresses: the destinations a user has sent swaps to, per network family (evm, solana,
 * ...), with an optional label, offered as buttons at the wizard's address step and managed with
 * /addresses. At most MAX_SAVED per user (the least recently used goes). Private things: shown
 * only in the user's private chat, never logged. One JSON value per user, written only by them.
 */

export const MAX_SAVED = 20;
const MAX_LABEL = 32;
const TTL_SECONDS = 365 * 86_400;

const ID = /^[A-Za-z0-9_-]{6}$/;
export const isSavedId = (s: string | undefined): s is string => s !== undefined && ID.test(s);

/** A label as typed: control characters and extra spaces out, cut to MAX_LABEL characters. */
function cleanLabel(raw: string): string {
  return [
    ...raw
      .replace(/\p{C}+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  ]
    .slice(0, MAX_LABEL)
    .join('');
}

export class RedisAddressBook implements AddressBook {
  private readonly keys: CoreKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new CoreKeys(prefix);
  }

  /** Most recently used first. */
  async list(platform: Platform, userId: string): Promise<SavedAddress[]> {
    const raw = await this.redis.get(this.keys.addressBook(platform, userId));
    if (!raw) return [];
    try {
      const list = JSON.parse(raw) as unknown;
      if (!Array.isArray(list)) return [];
      return (list as SavedAddress[])
        .filter((e) => e && isSavedId(e.id) && typeof e.address === 'string' && typeof e.family === 'string')
        .sort((a, b) => b.usedAt - a.usedAt);
    } catch {
      return [];
    }
  }

  private async save(platform: Platform, userId: string, list: SavedAddress[]): Promise<void> {
    const key = this.keys.addressBook(platform, userId);
    if (list.length === 0) await this.redis.del(key);
    else await this.redis.set(key, JSON.stringify(list), 'EX', TTL_SECONDS);
  }

  /** A destination just used: saved (or moved to the front), the least recently used dropped past MAX_SAVED. */
  async remember(platform: Platform, userId: string, family: string, address: string, now: number): Promise<void> {
    const list = await this.list(platform, userId);
    const f = family.toLowerCase();
    const found = list.find((e) => e.family === f && e.address === address);
    if (found) found.usedAt = now;
    else list.unshift({ id: randomBytes(5).toString('base64url').slice(0, 6), address, family: f, usedAt: now });
    await this.save(platform, userId, list.sort((a, b) => b.usedAt - a.usedAt).slice(0, MAX_SAVED));
  }

  async rename(platform: Platform, userId: string, id: string, label: string): Promise<boolean> {
    const list = await this.list(platform, userId);
    const found = list.find((e) => e.id === id);
    if (!found) return false;
    const clean = cleanLabel(label);
    if (clean) found.label = clean;
    else delete found.label;
    await this.save(platform, userId, list);
    return true;
  }

  async setWatched(platform: Platform, userId: string, id: string, on: boolean): Promise<boolean> {
    const list = await this.list(platform, userId);
    const found = list.find((e) => e.id === id);
    if (!found) return false;
    if (on) found.watched = true;
    else delete found.watched;
    await this.save(platform, userId, list);
    return true;
  }

  async remove(platform: Platform, userId: string, id: string): Promise<boolean> {
    const list = await this.list(platform, userId);
    const kept = list.filter((e) => e.id !== id);
    if (kept.length === list.length) return false;
    await this.save(platform, userId, kept);
    return true;
  }
}

/** How a saved address reads on a button: its label, else its ends ("0x1234…5678"). */
export const savedLabel = (e: Pick<SavedAddress, 'address' | 'label'>): string =>
  e.label ?? (e.address.length > 14 ? maskAddress(e.address) : e.address);

/**
 * A watched address's new swap hit the follow limit: what happened and what to do, said once (the
 * watch remembers it was told). Private chat only, so the address is shown whole.
 */
export function watchLimitReply(n: WatchLimitNotice, locale: Locale): Reply {
  const first = n.swapIds[0] ?? '';
  return {
    title: t(locale, 'addresses.watchLimit.title'),
    tone: 'warning',
    lines: [
      line(...tSpans(locale, 'addresses.watchLimit.found', { address: code(n.address) })),
      line(t(locale, n.reason === 'chat_limit' ? 'follow.limitChat' : 'follow.limitUser', { count: n.limit })),
      line(...tSpans(locale, 'addresses.watchLimit.what', { command: code(`/track ${first}`) })),
      line(t(locale, 'addresses.watchLimit.once')),
    ],
    target: 'here',
  };
}

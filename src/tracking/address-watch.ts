import type { Redis } from 'ioredis';
import type { ChatTarget, Platform } from '../contracts/incoming.js';
import type { Messenger } from '../contracts/messenger.js';
import type { TrackingRenderer, TrackingService, WatchLimitNotice } from '../contracts/tracking.js';
import { defaultLocale, type Locale } from '../i18n/index.js';
import type { LayerswapApi } from '../layerswap/api.js';
import { asError, type Logger } from '../log.js';
import { parseTargetKey, targetKey } from './keys.js';
import type { TrackingKeys } from '../contracts/keys.js';

/**
 * Watched addresses: a user's saved address whose new swaps (to or from it, made in any app) are
 * followed in their private chat. One GET /swaps?address= per address when it is due, on a
 * backed-off schedule: every `minMs` after something new, doubling while nothing is, up to
 * `maxMs`. Each tick checks at most `share` of the API budget's requests for that time, so
 * watching never starves the swaps being followed. The first check only notes what exists.
 * A new swap refused by the follow limit is told to the user once (`tell`), not dropped in
 * silence; told again only after a later follow succeeded (they made room, then filled it).
 *
 * Redis: a zset of entries by due time (member `<targetKey>|<address>`), and a hash of each
 * entry's state (the user, the interval, the swap ids already seen, newest 50). Addresses are
 * never logged.
 */

export interface WatchSettings {
  minMs: number;
  maxMs: number;
  /** The share of the API budget (requests per second) watching may use. */
  share: number;
  /** The API budget: requests per second over all pollers. */
  apiPerSecond: number;
  tickMs: number;
}

export const DEFAULT_WATCH: Omit<WatchSettings, 'apiPerSecond'> = { minMs: 60_000, maxMs: 15 * 60_000, share: 0.1, tickMs: 5_000 };

interface EntryState {
  u: string;
  l?: Locale;
  i: number;
  s?: string[];
  /** Told of the follow limit; cleared by the next follow that succeeds. */
  t?: 1;
}

/** Sends a watched address's user the follow-limit notice in their private chat (engine: the platform's messenger). */
export type TellWatchLimit = (target: ChatTarget, locale: Locale | undefined, notice: WatchLimitNotice) => Promise<void>;

/** Tells through this worker's messenger for the chat's platform, rendered by the core. */
export function tellByMessenger(
  messengers: Partial<Record<Platform, Messenger>>,
  render: Pick<TrackingRenderer, 'watchLimit'>,
): TellWatchLimit {
  return async (target, locale, notice) => {
    const messenger = messengers[target.platform];
    if (!messenger || !render.watchLimit) throw new Error(`no ${target.platform} messenger in this worker`);
    await messenger.send(target, render.watchLimit(notice, locale ?? defaultLocale()));
  };
}

const SEEN = 50;

export class AddressWatch {
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
    private readonly now: () => number,
    private readonly settings: WatchSettings,
  ) {}

  private member(target: ChatTarget, address: string): string {
    return `${targetKey(target)}|${address}`;
  }

  /** Starts (or stops) watching an address for a user's private chat; the first check is due at once. */
  async set(address: string, target: ChatTarget, by: { userId: string; locale?: Locale }, on: boolean): Promise<void> {
    const m = this.member(target, address);
    if (!on) {
      await this.redis.multi().zrem(this.keys.watchDue, m).hdel(this.keys.watchState, m).exec();
      return;
    }
    const state: EntryState = { u: by.userId, i: this.settings.minMs, ...(by.locale ? { l: by.locale } : {}) };
    await this.redis.multi().hsetnx(this.keys.watchState, m, JSON.stringify(state)).zadd(this.keys.watchDue, 'NX', this.now(), m).exec();
  }

  /** How many checks one tick may make: the share of the API budget over a tick, at least one. */
  get perTick(): number {
    return Math.max(1, Math.floor(this.settings.apiPerSecond * (this.settings.tickMs / 1000) * this.settings.share));
  }

  /** Checks the entries that are due (at most perTick); returns how many were checked. */
  async tick(
    api: Pick<LayerswapApi, 'listSwaps'>,
    tracking: Pick<TrackingService, 'follow'>,
    logger: Logger,
    tell?: TellWatchLimit,
  ): Promise<number> {
    const now = this.now();
    const due = await this.redis.zrangebyscore(this.keys.watchDue, '-inf', now, 'LIMIT', 0, this.perTick);
    let checked = 0;
    for (const m of due) {
      // One worker per entry: whoever removes it checks it, then puts it back at its next time.
      if ((await this.redis.zrem(this.keys.watchDue, m)) !== 1) continue;
      const raw = await this.redis.hget(this.keys.watchState, m);
      // The target key escapes its chat id (keyPart), so the first '|' ends it.
      const split = m.indexOf('|');
      const chat = split > 0 ? parseTargetKey(m.slice(0, split)) : undefined;
      if (!raw || !chat) continue;
      const address = m.slice(split + 1);
      const state = JSON.parse(raw) as EntryState;
      const target: ChatTarget = { ...chat, chatKind: 'private' };
      checked++;
      try {
        const ids = (await api.listSwaps({ address, page: 1 }, { maxRetries: 0 })).map((d) => d.swap.id);
        const fresh = state.s ? ids.filter((id) => !state.s?.includes(id)) : [];
        const refused: string[] = [];
        let limit: WatchLimitNotice | undefined;
        for (const id of fresh) {
          const r = await tracking.follow(id, target, { userId: state.u, ...(state.l ? { locale: state.l } : {}) });
          if (r.ok) delete state.t;
          else {
            refused.push(id);
            limit = { address, reason: r.reason, limit: r.limit, swapIds: refused };
          }
        }
        if (limit && !state.t) {
          try {
            if (!tell) throw new Error('no messenger for this chat in this worker');
            await tell(target, state.l, limit);
            state.t = 1;
          } catch (err) {
            // Not marked told: the next refused swap tries again.
            logger.warn(
              { err: asError(err), refused: refused.length },
              "could not tell a user that a watched address's swap hit the follow limit",
            );
          }
        }
        state.s = [...fresh, ...(state.s ?? ids)].slice(0, SEEN);
        state.i = fresh.length > 0 ? this.settings.minMs : Math.min(state.i * 2, this.settings.maxMs);
      } catch (err) {
        logger.warn({ err: asError(err) }, 'could not list the swaps of a watched address; backing off');
        state.i = Math.min(state.i * 2, this.settings.maxMs);
      }
      // Put back only if still watched (an unwatch during the check wins).
      if ((await this.redis.hexists(this.keys.watchState, m)) === 1) {
        await this.redis
          .multi()
          .hset(this.keys.watchState, m, JSON.stringify(state))
          .zadd(this.keys.watchDue, now + state.i, m)
          .exec();
      }
    }
    return checked;
  }
}

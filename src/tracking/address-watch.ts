import type { Redis } from 'ioredis';
import type { ChatTarget, Platform } from '../contracts/incoming.js';
import type { Messenger } from '../contracts/messenger.js';
import type { TrackingRenderer, TrackingService, WatchLimitNotice } from '../contracts/tracking.js';
import { trackingLocales, type Locale } from './locales.js';
import type { LayerswapApi } from '../layerswap/api.js';
import { OPEN_SWAP_STATUSES } from '../layerswap/params.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { ResponseShapeError } from '../layerswap/errors.js';
import { asError, type Logger } from '../log.js';
import { parseTargetKey, targetKey } from './keys.js';
import type { TrackingKeys } from '../contracts/keys.js';
import { scripts, type ScriptRunner } from '../scripts.js';

/**
 * Watched addresses: a user's saved address whose new swaps (to or from it, made in any app) are
 * followed in their private chat. Due addresses are asked WATCH_BATCH to a GET /swaps request
 * (repeated `address`), each on its own backed-off schedule: every `minMs` after something new, doubling while nothing is, up to
 * `maxMs`. The checks of all workers together use at most `share` of the API budget's requests
 * (a counter per tick-long window in Redis, not per process), so watching never starves the
 * swaps being followed. The first check only notes what exists; a swap is new only when its id
 * was not in the last answer and it was made after the watch began (however long the answer, an
 * old swap never turns new). A malformed answer is one warning until a good one comes.
 * A new swap refused by the follow limit is told to the user once (`tell`), not dropped in
 * silence; told again only after a later follow succeeded (they made room, then filled it).
 *
 * Redis: a zset of entries by due time (member `<targetKey>|<address>`), a hash of each entry's
 * state (the user, the interval, when the watch began, the ids of the last answer), and the
 * budget's window counter. Addresses are never logged. A checked entry goes back in one script
 * (watchPutBack) that first sees it is still watched, so an unwatch during the check always wins.
 */

export interface WatchSettings {
  minMs: number;
  maxMs: number;
  /** The share of the API budget (requests per second) watching may use. */
  share: number;
  /** The API budget: requests per second over all pollers. */
  apiPerSecond: number;
  tickMs: number;
  /** Addresses per request (default WATCH_BATCH; 1 is the old one-address-per-request, for the bench). */
  batch?: number;
}

export const DEFAULT_WATCH: Omit<WatchSettings, 'apiPerSecond'> = { minMs: 60_000, maxMs: 15 * 60_000, share: 0.1, tickMs: 5_000 };

interface EntryState {
  u: string;
  l?: Locale;
  i: number;
  /** The ids of the last answer (all of them: an answer longer than any window must not make old swaps new). */
  s?: string[];
  /** When the watch began (the poller's clock): a swap made before it is never new. */
  b?: number;
  /** Told of the follow limit; cleared by the next follow that succeeds. */
  t?: 1;
}

/** Slack between the service's clock and ours when comparing a swap's creation with the watch's start. */
const CLOCK_SLACK_MS = 10 * 60_000;

/**
 * Addresses per GET /swaps request (repeated `address`). Layerswap publishes no maximum; ten keeps
 * the query short and a page of 20 swaps deep enough for ten wallets' new swaps between two checks.
 */
export const WATCH_BATCH = 10;
/** The service's page of GET /swaps (20, newest first). */
const LIST_PAGE = 20;
/** Swap ids remembered per entry beyond the last answer. */
const REMEMBERED_IDS = 100;

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
    await messenger.send(target, render.watchLimit(notice, locale ?? trackingLocales.fallback()));
  };
}

/** Test seams: `beforePutBack` runs after an entry's check, just before it goes back (where an unwatch may land). */
export interface WatchHooks {
  beforePutBack?: (member: string) => Promise<void>;
}

export class AddressWatch {
  private readonly run: ScriptRunner;

  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
    private readonly now: () => number,
    private readonly settings: WatchSettings,
    private readonly hooks: WatchHooks = {},
  ) {
    this.run = scripts(redis);
  }

  /** Back on the due list at `at` with this state, unless it was unwatched meanwhile (one script: no gap). */
  private async putBack(m: string, state: string, at: number): Promise<void> {
    await this.hooks.beforePutBack?.(m);
    await this.run('watchPutBack', [this.keys.watchState, this.keys.watchDue], [m, state, at]);
  }

  private legacyMoved = false;

  /**
   * Moves the entries kept under the untagged keys of older versions to the tagged ones, once per
   * process: merged, not renamed, since a watch set after the upgrade may already be there (and
   * on a Cluster the two keys are in different slots). An entry already under the new keys wins.
   */
  private async adoptLegacyKeys(): Promise<void> {
    if (this.legacyMoved) return;
    this.legacyMoved = true;
    const old = this.keys.watchLegacy;
    const states = await this.redis.hgetall(old.state);
    const due = await this.redis.zrange(old.due, 0, -1, 'WITHSCORES');
    if (Object.keys(states).length === 0 && due.length === 0) return;
    const merge = this.redis.multi();
    for (const [m, state] of Object.entries(states)) merge.hsetnx(this.keys.watchState, m, state);
    for (let i = 0; i + 1 < due.length; i += 2) merge.zadd(this.keys.watchDue, 'NX', due[i + 1] as string, due[i] as string);
    await merge.exec();
    // One key a command: on a Cluster the old keys are in different slots.
    await this.redis.del(old.state);
    await this.redis.del(old.due);
  }

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
    const state: EntryState = { u: by.userId, i: this.settings.minMs, b: this.now(), ...(by.locale ? { l: by.locale } : {}) };
    await this.redis.multi().hsetnx(this.keys.watchState, m, JSON.stringify(state)).zadd(this.keys.watchDue, 'NX', this.now(), m).exec();
  }

  private get batch(): number {
    return Math.max(1, this.settings.batch ?? WATCH_BATCH);
  }

  /** How many requests one tick may make: the share of the API budget over a tick, at least one. */
  get perTick(): number {
    return Math.max(1, Math.floor(this.settings.apiPerSecond * (this.settings.tickMs / 1000) * this.settings.share));
  }

  /**
   * One check's share of the budget, over every worker: the window's counter in Redis (a window is
   * one tick long on the poller's clock). False when this window's share is spent.
   */
  private async spend(): Promise<boolean> {
    const window = Math.floor(this.now() / this.settings.tickMs);
    const key = this.keys.watchBudget(window);
    const [[, used]] = (await this.redis
      .multi()
      .incr(key)
      .pexpire(key, this.settings.tickMs * 2 + 60_000)
      .exec()) as [[null, number]];
    return used <= this.perTick;
  }

  /** A malformed list answer was logged and no good answer came since (this process). */
  private malformedTold = false;

  /**
   * Checks the entries that are due: their addresses go WATCH_BATCH to a request, and the requests
   * of all workers together stay within this window's share of the budget. Returns how many entries were checked.
   */
  async tick(
    api: Pick<LayerswapApi, 'listSwaps'>,
    tracking: Pick<TrackingService, 'follow'>,
    logger: Logger,
    tell?: TellWatchLimit,
  ): Promise<number> {
    await this.adoptLegacyKeys();
    const now = this.now();
    const due = await this.redis.zrangebyscore(this.keys.watchDue, '-inf', now, 'LIMIT', 0, this.perTick * this.batch);
    const claimed: Entry[] = [];
    for (const m of due) {
      // One worker per entry: whoever removes it checks it, then puts it back at its next time.
      if ((await this.redis.zrem(this.keys.watchDue, m)) !== 1) continue;
      const raw = await this.redis.hget(this.keys.watchState, m);
      // The target key escapes its chat id (keyPart), so the first '|' ends it.
      const split = m.indexOf('|');
      const chat = split > 0 ? parseTargetKey(m.slice(0, split)) : undefined;
      if (!raw || !chat) continue;
      claimed.push({ m, address: m.slice(split + 1), state: JSON.parse(raw) as EntryState, target: { ...chat, chatKind: 'private' } });
    }
    const batches = batchByAddress(claimed, this.batch);
    let checked = 0;
    for (const [n, batch] of batches.entries()) {
      // The budget is spent for this window (by this worker or another): the rest go back to the due list as they were.
      if (!(await this.spend())) {
        for (const e of batches.slice(n).flat()) await this.putBack(e.m, JSON.stringify(e.state), now);
        break;
      }
      checked += batch.length;
      const addresses = [...new Set(batch.map((e) => e.address))];
      let list: SwapDetails[] | undefined;
      try {
        list = await this.list(api, addresses);
        this.malformedTold = false;
      } catch (err) {
        if (err instanceof ResponseShapeError) {
          // The same bad answer for every address, every tick: one line (no stack) until a good one.
          if (!this.malformedTold)
            logger.warn(
              { err: asError(err, { stack: false }) },
              "the service's swap list is malformed: watched addresses back off (said once)",
            );
          this.malformedTold = true;
        } else logger.warn({ err: asError(err), addresses: batch.length }, 'could not list the swaps of watched addresses; backing off');
      }
      for (const e of batch) {
        // Alone in its request, every swap listed is the address's (as the service matched it).
        if (list) await this.check(e, addresses.length === 1 ? list : list.filter(involves(e.address)), now, tracking, logger, tell);
        else e.state.i = Math.min(e.state.i * 2, this.settings.maxMs);
        // Put back only if still watched, in one script: an unwatch during the check wins.
        await this.putBack(e.m, JSON.stringify(e.state), now + e.state.i);
      }
    }
    return checked;
  }

  /**
   * One batch's newest swaps, of every status (a swap made and finished between two checks is still
   * found). A full page may not reach back to the last check: then the batch's open swaps come in one
   * more request (the `statuses` filter) rather than page after page; a swap beyond the page that
   * already finished is the one thing missed.
   */
  private async list(api: Pick<LayerswapApi, 'listSwaps'>, addresses: string[]): Promise<SwapDetails[]> {
    const address = addresses.length === 1 ? addresses[0]! : addresses;
    const list = await api.listSwaps({ address, page: 1 }, { maxRetries: 0 });
    if (list.length < LIST_PAGE || !(await this.spend())) return list;
    const open = await api.listSwaps({ address, page: 1, statuses: OPEN_SWAP_STATUSES }, { maxRetries: 0 });
    const seen = new Set(list.map((d) => d.swap.id));
    return [...list, ...open.filter((d) => !seen.has(d.swap.id))];
  }

  /** One entry against its own swaps of the answer: follows the new ones, tells of the limit once, sets the next interval. */
  private async check(
    e: Entry,
    list: SwapDetails[],
    now: number,
    tracking: Pick<TrackingService, 'follow'>,
    logger: Logger,
    tell?: TellWatchLimit,
  ): Promise<void> {
    const { state, target, address } = e;
    const ids = list.map((d) => d.swap.id);
    const known = new Set(state.s ?? ids);
    const began = (state.b ?? now) - CLOCK_SLACK_MS;
    const madeBefore = (d: SwapDetails) => {
      const at = d.swap.created_date ? Date.parse(d.swap.created_date) : NaN;
      return Number.isFinite(at) && at < began;
    };
    const fresh = state.s ? list.filter((d) => !known.has(d.swap.id) && !madeBefore(d)).map((d) => d.swap.id) : [];
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
    // This answer's ids first, then the ones remembered before (a batch's page shows more or fewer of one
    // address's swaps as its neighbours get busy: a swap once seen stays known).
    state.s = [...ids, ...(state.s ?? []).filter((id) => !ids.includes(id))].slice(0, Math.max(REMEMBERED_IDS, ids.length));
    state.b ??= now;
    state.i = fresh.length > 0 ? this.settings.minMs : Math.min(state.i * 2, this.settings.maxMs);
  }
}

interface Entry {
  m: string;
  address: string;
  state: EntryState;
  target: ChatTarget;
}

/** Entries in batches of at most `size` distinct addresses (an address watched by two users is asked once). */
function batchByAddress(entries: Entry[], size: number): Entry[][] {
  const byAddress = new Map<string, Entry[]>();
  for (const e of entries) byAddress.set(e.address, [...(byAddress.get(e.address) ?? []), e]);
  const groups = [...byAddress.values()];
  const batches: Entry[][] = [];
  for (let i = 0; i < groups.length; i += size) batches.push(groups.slice(i, i + size).flat());
  return batches;
}

/** The swaps of a batched answer that are this address's: from, to, or its deposit sent from it (as the service lists them). */
function involves(address: string): (d: SwapDetails) => boolean {
  const same = /^0x[0-9a-f]+$/i.test(address)
    ? (a?: string | null) => a?.toLowerCase() === address.toLowerCase()
    : (a?: string | null) => a === address;
  return (d) =>
    same(d.swap.source_address) || same(d.swap.destination_address) || (d.swap.transactions ?? []).some((t) => same(t.from) || same(t.to));
}

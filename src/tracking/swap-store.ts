import type { Redis } from 'ioredis';
import type { ChatTarget, MessageRef } from '../contracts/incoming.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { decodeDetails, encodeDetails } from './card-data.js';
import {
  decodeDelivery,
  decodeFollower,
  decodeMoments,
  decodeState,
  encodeDelivery,
  encodeFollower,
  encodeMoment,
  encodeState,
  pairs,
} from './swap-codecs.js';
import { parseTargetKey, targetKey } from './keys.js';
import type { TrackingKeys } from '../contracts/keys.js';
import type { CreatorNotes, Moment, StopReason } from '../contracts/tracking.js';
import type { SwapState } from './observe.js';
import type { Locale } from './locales.js';
import { scripts, type ScriptRunner } from '../scripts.js';

/**
 * Everything stored about one followed swap, in one Redis hash (keys.swap(id)), and the only code
 * that writes it. Fields (short names: this is the bulk of the engine's memory):
 *
 *   v  state version          s  state (compact JSON)   p  last poll time
 *   d  card data (card-data.ts: slim, deflated)         m  key moments, JSON [[kind, version, at], ...]
 *   n  number of followers    h  a webhook hinted a change during a poll
 *   x  why polling stopped early (the notice to send)   z  retired: the swap ended, cap slots freed
 *   f:<chat>  follower: {k: chat kind (p, g, c), u: user id (left out in a private chat: the chat's), t: since,
 *             th: the topic /track was used in (Telegram forums), m: 1 when the chat muted this swap,
 *             l: the chat's language when it followed, o: 1 when it is the creator's own private chat}
 *   r:<chat>  delivery: {v, m, c: card hash, i: message id, h: the message's channel when not the chat's
 *             own id (a Discord DM), s: [what, key] being sent, x: told it stopped, n: how many
 *             statuses the card has seen (a change without a new one is minor)}
 *
 * With `hash-max-listpack-value` above the card data's size (docs/deploying.md), Redis keeps it as one
 * compact listpack. Every write is a script over this one key (one hash tag: Redis Cluster).
 */

export interface Follower extends ChatTarget {
  /** The user who started following here (counted against their cap). */
  userId: string;
  since: number;
  /** The chat muted this swap: card edits only, no key-moment messages. */
  muted?: boolean;
  /** The language the chat was answered in when it followed (used until it saves one with /language). */
  locale?: Locale;
  /** The swap's creator in their own private chat: the only follower who reads it unmasked (Audience). */
  own?: boolean;
}

export interface Delivery {
  /** The chat's status card for this swap, once sent. */
  ref?: MessageRef;
  /** The state version the card shows. */
  version: number;
  /** Hash of the card last shown: an unchanged card (a moment-only change) is not edited again. */
  cardHash?: string;
  /** How many of the swap's moments this chat has been sent (or skipped, for late followers). */
  moments: number;
  /**
   * A new message being sent, recorded before the platform call and cleared with its result: a
   * later run that finds it set knows a crash hit between sending and recording, so the message
   * may have been delivered. `key` is its idempotency key (the same on a re-send). A moment in
   * flight is always the one at index `moments`.
   */
  sending?: { what: 'card' | 'moment' | 'stopped'; key: string };
  /** The chat was told that tracking stopped. */
  stopped?: boolean;
  /** How many statuses (history entries) the card showed: a newer state with as many is a minor change. */
  statuses?: number;
  /** The creator's deposit card (private chat), reported by the adapter that sent it: edited, never sent. */
  depositRef?: MessageRef;
  /** Hash of what the deposit card was last edited to (unset: as sent). */
  depositHash?: string;
}

export type DeliveryWrite = 'saved' | 'not_following' | 'conflict';

export type FollowWrite = 'already' | 'followed' | 'followed_ended';

/** What a hint asks of the poll job's next run: the service's answer, a redraw of the cards from what is stored, or both. */
export type HintKind = 'ask' | 'stored' | 'both';

export interface PollStart {
  followed: boolean;
  prev?: SwapState;
  /** The hint this run takes, if any. */
  hint?: HintKind;
}

export interface PollCommit {
  saved: boolean;
  /** A webhook hinted a change during this run. */
  hinted: boolean;
  /** Chats that have not got the newest card or every moment. */
  behind: Follower[];
}

export interface NotifySnapshot {
  state?: SwapState;
  details?: SwapDetails;
  moments: Moment[];
  delivery?: Delivery;
  /** The delivery record as stored, for the compare-and-set of setDelivery. */
  deliveryRaw?: string;
  stopped?: StopReason;
  /** What the creator told the bot (field u). */
  notes?: CreatorNotes;
}

export class SwapStore {
  private readonly run: ScriptRunner;
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
  ) {
    this.run = scripts(redis);
  }

  // --- followers (Subscriptions keeps the chat and user indexes around these) ---

  async addFollower(swapId: string, f: Follower, creator: boolean): Promise<FollowWrite> {
    const res = await this.run('follow', [this.keys.swap(swapId)], [targetKey(f), encodeFollower(f), creator ? '1' : '']);
    return res === 0 ? 'already' : res === 2 ? 'followed_ended' : 'followed';
  }

  /** Undefined when the chat did not follow; else its entry, whether it held cap slots, and who is left. */
  async removeFollower(
    swapId: string,
    tk: string,
    retentionSeconds: number,
  ): Promise<{ follower: Follower | undefined; held: boolean; left: number } | undefined> {
    const res = (await this.run('unfollow', [this.keys.swap(swapId)], [tk, retentionSeconds])) as [number, string?, string?, number?];
    if (res[0] !== 1) return undefined;
    return { follower: decodeFollower(tk, res[1] ?? ''), held: res[2] === '1', left: Number(res[3] ?? 0) };
  }

  /** Marks the swap ended (once) and lets it expire; returns the followers whose slots to free (only the first time). */
  async retire(swapId: string, retentionSeconds: number): Promise<Follower[]> {
    const res = (await this.run('retire', [this.keys.swap(swapId)], [retentionSeconds])) as string[];
    return pairs(res).flatMap(([tk, v]) => {
      const f = decodeFollower(tk, v);
      return f ? [f] : [];
    });
  }

  async followers(swapId: string): Promise<Follower[]> {
    const all = await this.redis.hgetall(this.keys.swap(swapId));
    return Object.entries(all).flatMap(([k, v]) => {
      const f = k.startsWith('f:') ? decodeFollower(k.slice(2), v) : undefined;
      return f ? [f] : [];
    });
  }

  /** Mutes or unmutes a chat's follow; false when the chat does not follow the swap. */
  async setMuted(swapId: string, tk: string, muted: boolean): Promise<boolean> {
    return (await this.run('mute', [this.keys.swap(swapId)], [tk, muted ? '1' : ''])) === 1;
  }

  async follower(swapId: string, tk: string): Promise<Follower | undefined> {
    const v = await this.redis.hget(this.keys.swap(swapId), `f:${tk}`);
    return v ? decodeFollower(tk, v) : undefined;
  }

  /**
   * Which of these swaps the chat still follows. One command per swap, sent together, not a
   * pipeline: on a Redis Cluster the swaps live on different masters, and ioredis refuses a
   * pipeline that spans nodes.
   */
  async follows(swapIds: readonly string[], tk: string): Promise<boolean[]> {
    const res = await Promise.all(swapIds.map((id) => this.redis.hexists(this.keys.swap(id), `f:${tk}`)));
    return res.map((n) => n === 1);
  }

  // --- the poller ---

  async load(swapId: string): Promise<SwapState | undefined> {
    const [v, s, p] = await this.redis.hmget(this.keys.swap(swapId), 'v', 's', 'p');
    return v && s ? decodeState(swapId, v, s, p ?? null) : undefined;
  }

  /** The chain watcher's fields (c: sighting, ca: the sighting on the card, w: the watch entry); see chain-watch.ts. */
  async chainFields(swapId: string): Promise<{ c?: string; ca?: string; w?: string }> {
    const [c, ca, w] = await this.redis.hmget(this.keys.swap(swapId), 'c', 'ca', 'w');
    return { ...(c ? { c } : {}), ...(ca ? { ca } : {}), ...(w ? { w } : {}) };
  }

  /** Sets one chain watcher field, only while the swap is stored. */
  async setChainField(swapId: string, field: 'c' | 'ca' | 'w', value: string): Promise<void> {
    await this.run('chainSet', [this.keys.swap(swapId)], [field, value]);
  }

  /** What the creator told the bot (field u: JSON), empty when nothing. */
  async notes(swapId: string): Promise<CreatorNotes> {
    return decodeNotes(await this.redis.hget(this.keys.swap(swapId), 'u'));
  }

  /** Stores them, only while the swap is stored (the chain watcher's one-field script). */
  async setNotes(swapId: string, notes: CreatorNotes): Promise<void> {
    await this.run('chainSet', [this.keys.swap(swapId)], ['u', JSON.stringify(notes)]);
  }

  /** The card data as stored (chain-only updates re-store it with a new sighting). */
  async details(swapId: string): Promise<SwapDetails | undefined> {
    return decodeDetails(await this.redis.hgetBuffer(this.keys.swap(swapId), 'd'));
  }

  /** Like follows(): one command per swap, sent together (a cluster spreads swaps over masters). */
  async loadMany(swapIds: readonly string[]): Promise<Array<SwapState | undefined>> {
    return Promise.all(swapIds.map((id) => this.load(id)));
  }

  /** Before a poll's request: takes the webhook hint, says whether anyone follows, reads the state. */
  async pollStart(swapId: string): Promise<PollStart> {
    const res = (await this.run('pollStart', [this.keys.swap(swapId)], [])) as [number, string?, string?, string?, string?];
    const prev = res[1] && res[2] ? decodeState(swapId, res[1], res[2], res[3] || null) : undefined;
    const hint = ({ '1': 'ask', c: 'stored', '2': 'both' } as const)[res[4] as '1' | 'c' | '2'] as HintKind | undefined;
    return { followed: res[0] === 1, ...(prev ? { prev } : {}), ...(hint ? { hint } : {}) };
  }

  /**
   * After a poll's request: the whole state when it changed, else only the poll time; then lists
   * the chats behind the stored version.
   */
  async pollCommit(
    prevVersion: number,
    state: SwapState,
    change: { changed: boolean; details?: SwapDetails; moments: readonly Moment[] },
  ): Promise<PollCommit> {
    const res = (await this.run(
      'pollCommit',
      [this.keys.swap(state.swapId)],
      [
        prevVersion,
        state.lastPolledAt,
        change.changed ? encodeState(state) : '',
        change.changed && change.details ? encodeDetails(change.details) : '',
        state.version,
        change.changed ? change.moments.map((m) => JSON.stringify(encodeMoment(m))).join(',') : '',
      ],
    )) as [number, number, ...string[]];
    const [saved, hinted, ...rest] = res;
    return {
      saved: saved === 1,
      hinted: hinted === 1,
      behind: pairs(rest).flatMap(([tk, v]) => {
        const f = decodeFollower(tk, v);
        return f ? [f] : [];
      }),
    };
  }

  /** Whether a hint waits for the next run (set after this run's commit). */
  async hinted(swapId: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.swap(swapId), 'h')) === 1;
  }

  /** A hint for the poll job; returns how many chats follow the swap (nothing is written when none). */
  async hint(swapId: string, kind: Exclude<HintKind, 'both'> = 'ask'): Promise<number> {
    return Number(await this.run('hint', [this.keys.swap(swapId)], [kind === 'ask' ? '1' : 'c']));
  }

  /** Polling stopped early: the notify jobs queued next tell each chat why. */
  async stop(swapId: string, reason: StopReason): Promise<void> {
    await this.redis.hset(this.keys.swap(swapId), 'x', reason);
  }

  // --- the notifier ---

  /** What a notify job needs, read at once so state, card data and moments agree. */
  async snapshotFor(swapId: string, tk: string): Promise<NotifySnapshot> {
    const [v, s, p, d, m, r, x, u] = await this.redis.hmgetBuffer(this.keys.swap(swapId), 'v', 's', 'p', 'd', 'm', `r:${tk}`, 'x', 'u');
    const str = (b: Buffer | null | undefined) => (b ? b.toString('utf8') : null);
    const state = v && s ? decodeState(swapId, str(v) as string, str(s) as string, str(p)) : undefined;
    const details = decodeDetails(d);
    const raw = str(r);
    const delivery = raw ? decodeDelivery(raw, tk) : undefined;
    return {
      ...(state ? { state } : {}),
      ...(details ? { details } : {}),
      moments: decodeMoments(str(m)),
      ...(delivery && raw ? { delivery, deliveryRaw: raw } : {}),
      ...(str(x) === 'not_found' ? { stopped: 'not_found' as const } : {}),
      ...(u ? { notes: decodeNotes(str(u)) } : {}),
    };
  }

  /** Writes a chat's delivery record over `prevRaw`, the record as last read or written (undefined: none). */
  async setDelivery(swapId: string, tk: string, d: Delivery, prevRaw: string | undefined): Promise<{ result: DeliveryWrite; raw: string }> {
    const raw = encodeDelivery(d, tk);
    const res = await this.run('setDelivery', [this.keys.swap(swapId)], [tk, raw, prevRaw ?? '']);
    return { result: res === 1 ? 'saved' : res === -1 ? 'conflict' : 'not_following', raw };
  }

  /**
   * Keeps the creator's deposit card in the chat's delivery record and makes its status card due.
   * Returns the swap's state version (0: not polled yet), or undefined when the chat does not follow.
   */
  async setDepositCard(swapId: string, tk: string, ref: MessageRef): Promise<number | undefined> {
    const chatId = parseTargetKey(tk)?.chatId;
    const v = Number(
      await this.run(
        'depositCard',
        [this.keys.swap(swapId)],
        [tk, ref.messageId, ref.chatId === chatId ? '' : ref.chatId, ref.kind === 'media' ? 'm' : ''],
      ),
    );
    return v < 0 ? undefined : v;
  }

  /** Every chat's delivery record (tests, operators). */
  async deliveries(swapId: string): Promise<Map<string, Delivery>> {
    const all = await this.redis.hgetall(this.keys.swap(swapId));
    const out = new Map<string, Delivery>();
    for (const [k, v] of Object.entries(all)) {
      const d = k.startsWith('r:') ? decodeDelivery(v, k.slice(2)) : undefined;
      if (d) out.set(k.slice(2), d);
    }
    return out;
  }
}

function decodeNotes(raw: string | null | undefined): CreatorNotes {
  if (!raw) return {};
  try {
    const o = JSON.parse(raw) as CreatorNotes;
    const claim =
      o.claim && typeof o.claim.at === 'number'
        ? { at: o.claim.at, ...(typeof o.claim.hash === 'string' ? { hash: o.claim.hash } : {}) }
        : undefined;
    return {
      ...(o.refund === null || typeof o.refund === 'string' ? { refund: o.refund } : {}),
      ...(claim ? { claim } : {}),
    };
  } catch {
    return {};
  }
}

import type { Redis } from 'ioredis';
import type { MessageRef } from '../contracts/incoming.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { decodeDetails, encodeDetails } from './card-data.js';
import type { TrackingKeys } from './keys.js';
import { LuaScript } from './lua.js';
import type { Moment, SwapState } from './observe.js';
import { decodeState, encodeState } from './state-codec.js';

/**
 * Per-swap runtime data: the last state the poller saw (state-codec.ts), the last details
 * rendered into cards (slimmed and deflated: card-data.ts), the append-only list of key moments,
 * and per chat what was delivered (card message, version, number of moments sent). Deliveries
 * are what make notify jobs idempotent. A poll's own reads and writes are in poll-store.ts.
 */

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
  /** The chat was told that tracking stopped (StateStore.stop). */
  stopped?: boolean;
}

/** Why polling stopped before a final status, when the chats are told so (notices.ts). */
export type StopReason = 'not_found';

export type DeliveryWrite = 'saved' | 'not_following' | 'conflict';

/** Saves only if nobody saved a newer version meanwhile (a stalled duplicate run). */
const SAVE = new LuaScript(`
local cur = redis.call('GET', KEYS[1])
local v = 0
if cur then v = cjson.decode(cur).version end
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3]) end
for i = 4, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
redis.call('DEL', KEYS[4])
return 1
`);

/**
 * Records a delivery only while the chat still follows the swap (no resurrection after /untrack)
 * and only over the record the caller read (ARGV[3]; '' = none): two runs for one chat (a stalled
 * job picked up while its first worker still runs) cannot both send the same message.
 */
const SET_DELIVERY = new LuaScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
local cur = redis.call('HGET', KEYS[2], ARGV[1])
if (cur or '') ~= ARGV[3] then return -1 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
`);

export interface NotifySnapshot {
  state?: SwapState;
  details?: SwapDetails;
  moments: Moment[];
  delivery?: Delivery;
  /** The delivery record as stored, for the compare-and-set of setDelivery. */
  deliveryRaw?: string;
  stopped?: StopReason;
}

export class StateStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
  ) {}

  async load(swapId: string): Promise<SwapState | undefined> {
    const raw = await this.redis.get(this.keys.state(swapId));
    return raw ? decodeState(raw) : undefined;
  }

  async loadMany(swapIds: readonly string[]): Promise<Array<SwapState | undefined>> {
    if (swapIds.length === 0) return [];
    const raws = await this.redis.mget(...swapIds.map((id) => this.keys.state(id)));
    return raws.map((r) => (r ? decodeState(r) : undefined));
  }

  /** Writes a new observation; false when another run saved first. */
  async save(prevVersion: number, state: SwapState, details: SwapDetails | undefined, moments: readonly Moment[]): Promise<boolean> {
    const k = this.keys;
    const res = await SAVE.run(
      this.redis,
      [k.state(state.swapId), k.details(state.swapId), k.moments(state.swapId), k.outage],
      [prevVersion, encodeState(state), details ? encodeDetails(details) : '', ...moments.map((m) => JSON.stringify(m))],
    );
    return res === 1;
  }

  async details(swapId: string): Promise<SwapDetails | undefined> {
    return decodeDetails(await this.redis.getBuffer(this.keys.details(swapId)));
  }

  async moments(swapId: string, from = 0): Promise<Moment[]> {
    const raw = await this.redis.lrange(this.keys.moments(swapId), from, -1);
    return raw.map((m) => JSON.parse(m) as Moment);
  }

  async delivery(swapId: string, tk: string): Promise<Delivery | undefined> {
    const raw = await this.redis.hget(this.keys.deliveries(swapId), tk);
    return raw ? (JSON.parse(raw) as Delivery) : undefined;
  }

  /** What a notify job needs, read in one transaction so state, details and moments agree. */
  async snapshotFor(swapId: string, tk: string): Promise<NotifySnapshot> {
    const k = this.keys;
    const res =
      (await this.redis.multi().get(k.state(swapId)).getBuffer(k.details(swapId)).lrange(k.moments(swapId), 0, -1).hget(k.deliveries(swapId), tk).get(k.stopped(swapId)).exec()) ?? [];
    for (const [err] of res) if (err) throw err;
    const [state, detailsRaw, moments, delivery, stopped] = res.map((r) => r[1]) as [string | null, Buffer | null, string[], string | null, string | null];
    const details = decodeDetails(detailsRaw);
    return {
      ...(state ? { state: decodeState(state) } : {}),
      ...(details ? { details } : {}),
      moments: moments.map((m) => JSON.parse(m) as Moment),
      ...(delivery ? { delivery: JSON.parse(delivery) as Delivery, deliveryRaw: delivery } : {}),
      ...(stopped === 'not_found' ? { stopped } : {}),
    };
  }

  /** Writes a chat's delivery record over `prevRaw`, the record as last read or written (undefined: none). */
  async setDelivery(swapId: string, tk: string, d: Delivery, prevRaw: string | undefined): Promise<{ result: DeliveryWrite; raw: string }> {
    const raw = JSON.stringify(d);
    const res = await SET_DELIVERY.run(this.redis, [this.keys.followers(swapId), this.keys.deliveries(swapId)], [tk, raw, prevRaw ?? '']);
    return { result: res === 1 ? 'saved' : res === -1 ? 'conflict' : 'not_following', raw };
  }

  /** Polling stopped early: the notify jobs queued next tell each chat why. */
  async stop(swapId: string, reason: StopReason): Promise<void> {
    await this.redis.set(this.keys.stopped(swapId), reason);
  }

  /** Consecutive failed polls across all swaps (the outage back-off); reset by any good poll. */
  async recordFailure(): Promise<number> {
    const n = await this.redis.incr(this.keys.outage);
    await this.redis.pexpire(this.keys.outage, 10 * 60_000);
    return n;
  }
}

import type { Redis } from 'ioredis';
import type { SwapDetails } from '../layerswap/schemas.js';
import { encodeDetails } from './card-data.js';
import type { TrackingKeys } from './keys.js';
import { LuaScript } from './lua.js';
import type { Moment, SwapState } from './observe.js';
import { decodeState, encodeState, polledSlot, POLLED_HEAD } from './state-codec.js';
import { parseFollower, type Follower } from './subscriptions.js';

/**
 * A poll's Redis work in two scripts, one round trip each: start() before the request to the
 * swap service, commit() after it. A poll that changes nothing writes only the poll time (in
 * place, into the state's fixed-width slot) and receives nothing back but the chats that are
 * behind: the check that every follower has the newest card and every moment is made inside
 * Redis on every poll, so a notification a crash or an exhausted job left undelivered is still
 * queued again at the next poll, without the worker reading followers or deliveries.
 */

/** Takes the webhook hint (this run answers it); nothing when nobody follows, else the stored state. */
const START = new LuaScript(`
redis.call('DEL', KEYS[1])
if redis.call('EXISTS', KEYS[2]) == 0 then return {0} end
local s = redis.call('GET', KEYS[3])
if not s then return {1} end
return {1, s}
`);

/**
 * ARGV: prevVersion, poll-time slot ('' = none), state JSON ('' = unchanged), details blob
 * ('' = unchanged), the version chats must have, moments JSON...
 * Returns {saved, hinted, follower JSON of each chat that is behind...}; saved is 0 when another
 * run stored a newer state first (a stalled duplicate): it then notifies nobody.
 */
const COMMIT = new LuaScript(`
if ARGV[3] ~= '' then
  local cur = redis.call('GET', KEYS[1])
  local v = 0
  if cur then v = cjson.decode(cur).version end
  if v ~= tonumber(ARGV[1]) then return {0, redis.call('EXISTS', KEYS[7])} end
  redis.call('SET', KEYS[1], ARGV[3])
  if ARGV[4] ~= '' then redis.call('SET', KEYS[2], ARGV[4]) end
  for i = 6, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
elseif ARGV[2] ~= '' and redis.call('GETRANGE', KEYS[1], 0, ${POLLED_HEAD.length - 1}) == '${POLLED_HEAD}' then
  redis.call('SETRANGE', KEYS[1], ${POLLED_HEAD.length}, ARGV[2])
end
redis.call('DEL', KEYS[4])
local out = {1, redis.call('EXISTS', KEYS[7])}
local version = tonumber(ARGV[5])
local moments = redis.call('LLEN', KEYS[3])
local followers = redis.call('HGETALL', KEYS[5])
for i = 1, #followers, 2 do
  local raw = redis.call('HGET', KEYS[6], followers[i])
  local behind = true
  if raw then
    local ok, d = pcall(cjson.decode, raw)
    behind = not ok or type(d) ~= 'table' or (tonumber(d.version) or 0) < version or (tonumber(d.moments) or 0) < moments
  end
  if behind then out[#out + 1] = followers[i + 1] end
end
return out
`);

export interface PollStart {
  followed: boolean;
  prev?: SwapState;
  /** The stored state predates the poll-time slot: the next commit rewrites it whole. */
  legacy: boolean;
}

export interface PollCommit {
  saved: boolean;
  /** A webhook hinted a change during this run. */
  hinted: boolean;
  /** Chats that have not got the newest card or every moment. */
  behind: Follower[];
}

export class PollStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
  ) {}

  async start(swapId: string): Promise<PollStart> {
    const k = this.keys;
    const res = (await START.run(this.redis, [k.hint(swapId), k.followers(swapId), k.state(swapId)], [])) as [number, string?];
    const raw = res[1];
    const prev = raw ? decodeState(raw) : undefined;
    return { followed: res[0] === 1, ...(prev ? { prev } : {}), legacy: raw !== undefined && !raw.startsWith(POLLED_HEAD) };
  }

  /**
   * Stores a poll: the whole state when it changed (or `rewrite`), else only the poll time; then
   * lists the chats behind `state.version`.
   */
  async commit(prevVersion: number, state: SwapState, change: { changed: boolean; details?: SwapDetails; moments: readonly Moment[]; rewrite?: boolean }): Promise<PollCommit> {
    const k = this.keys;
    const id = state.swapId;
    const write = change.changed || change.rewrite === true;
    const res = (await COMMIT.run(
      this.redis,
      [k.state(id), k.details(id), k.moments(id), k.outage, k.followers(id), k.deliveries(id), k.hint(id)],
      [
        prevVersion,
        polledSlot(state.lastPolledAt) ?? '',
        write ? encodeState(state) : '',
        change.changed && change.details ? encodeDetails(change.details) : '',
        state.version,
        ...(change.changed ? change.moments.map((m) => JSON.stringify(m)) : []),
      ],
    )) as [number, number, ...string[]];
    const [saved, hinted, ...followers] = res;
    return {
      saved: saved === 1,
      hinted: hinted === 1,
      behind: followers.flatMap((f) => {
        const p = parseFollower(f);
        return p ? [p] : [];
      }),
    };
  }
}

import type { Redis } from 'ioredis';
import { DEFAULT_SETTINGS, MOMENT_KINDS, type ChatSettings, type MomentKind } from '../contracts/tracking.js';
import { trackingLocales } from './locales.js';
import type { TrackingKeys } from '../contracts/keys.js';

/**
 * A chat's notification settings, in the field `o` of its party hash (keys.party: the hash that
 * lists what the chat follows), so they share its hash tag, survive restarts and cost one HGET
 * per notify job. A private chat's hash is its user's: their settings follow them.
 * Stored compactly: {m: bitmask of MOMENT_KINDS, e: 0 when minor edits are off, q: [from, to, tz],
 * u: minimum USD, r: 1 react only, a: 1 hide amounts, t: topic}.
 */

const FIELD = 'o';

interface Stored {
  m?: number;
  e?: 0;
  q?: [number, number, string];
  u?: number;
  r?: 1;
  a?: 1;
  t?: string;
}

export class SettingsStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
  ) {}

  async get(tk: string): Promise<ChatSettings> {
    return decodeSettings(await this.redis.hget(this.keys.party(tk), FIELD));
  }

  async save(tk: string, s: ChatSettings): Promise<void> {
    await this.redis.hset(this.keys.party(tk), FIELD, encodeSettings(s));
  }
}

function encodeSettings(s: ChatSettings): string {
  const o: Stored = {};
  const mask = MOMENT_KINDS.reduce((n, k, i) => (s.moments.includes(k) ? n | (1 << i) : n), 0);
  if (mask !== (1 << MOMENT_KINDS.length) - 1) o.m = mask;
  if (!s.minorEdits) o.e = 0;
  if (s.quiet && s.quiet.from !== s.quiet.to) o.q = [s.quiet.from, s.quiet.to, s.quiet.tz];
  if (s.minUsd !== undefined && s.minUsd > 0) o.u = s.minUsd;
  if (s.reactOnly) o.r = 1;
  if (s.hideAmounts) o.a = 1;
  if (s.topic) o.t = s.topic;
  return JSON.stringify(o);
}

/** Stored settings; anything unreadable falls back to the defaults (never crashes a job). */
function decodeSettings(raw: string | null | undefined): ChatSettings {
  const s: ChatSettings = { ...DEFAULT_SETTINGS, moments: [...DEFAULT_SETTINGS.moments] };
  if (!raw) return s;
  let o: Stored;
  try {
    o = JSON.parse(raw) as Stored;
  } catch {
    return s;
  }
  if (typeof o.m === 'number') s.moments = MOMENT_KINDS.filter((_, i) => ((o.m as number) & (1 << i)) !== 0);
  if (o.e === 0) s.minorEdits = false;
  if (Array.isArray(o.q) && validHour(o.q[0]) && validHour(o.q[1]) && typeof o.q[2] === 'string')
    s.quiet = { from: o.q[0], to: o.q[1], tz: o.q[2] };
  if (typeof o.u === 'number' && o.u > 0) s.minUsd = o.u;
  if (o.r === 1) s.reactOnly = true;
  if (o.a === 1) s.hideAmounts = true;
  if (typeof o.t === 'string') s.topic = o.t;
  return s;
}

const validHour = (h: unknown): h is number => Number.isInteger(h) && (h as number) >= 0 && (h as number) <= 23;

/** The hour (0-23) at `at` in an IANA time zone; undefined for a zone this runtime does not know. */
export function hourIn(at: number, tz: string): number | undefined {
  try {
    const n = trackingLocales.hourOf(at, tz);
    return Number.isInteger(n) ? n % 24 : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `at` falls in the chat's quiet hours ([from, to), wrapping past midnight). */
export function inQuietHours(s: Pick<ChatSettings, 'quiet'>, at: number): boolean {
  const q = s.quiet;
  if (!q || q.from === q.to) return false;
  const h = hourIn(at, q.tz);
  if (h === undefined) return false;
  return q.from < q.to ? h >= q.from && h < q.to : h >= q.from || h < q.to;
}

/** A swap's size in USD from what the card data keeps (requested amount × source price). */
export function swapUsd(swap: {
  requested_amount?: number | null | undefined;
  source_token?: { price_in_usd?: number | null | undefined } | null | undefined;
}): number | undefined {
  const amount = swap.requested_amount;
  const price = swap.source_token?.price_in_usd;
  return typeof amount === 'number' && typeof price === 'number' ? amount * price : undefined;
}

/** Why a key moment sends no message in this chat (undefined: it does). */
export function withheld(
  kind: MomentKind,
  ctx: { settings: ChatSettings; muted: boolean; isPublic: boolean; usd: number | undefined },
): 'muted' | 'not_chosen' | 'below_minimum' | undefined {
  if (ctx.muted) return 'muted';
  // Money the user must act on is always told (a mask stored before it existed lacks its bit).
  if (!ctx.settings.moments.includes(kind) && kind !== 'wrong_deposit') return 'not_chosen';
  // A swap whose size is unknown is not held back: the admins asked to skip small ones only.
  if (ctx.isPublic && ctx.settings.minUsd !== undefined && ctx.usd !== undefined && ctx.usd < ctx.settings.minUsd) return 'below_minimum';
  return undefined;
}

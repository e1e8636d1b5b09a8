import type { ChatKind } from '../contracts/incoming.js';
import { MOMENT_KINDS, type Moment, type MomentKind } from '../contracts/tracking.js';
import { trackingLocales } from './locales.js';
import { parseTargetKey } from './keys.js';
import type { SwapState, TxSnapshot } from './observe.js';
import type { Delivery, Follower } from './swap-store.js';

/**
 * The compact encodings of a followed swap's hash fields (swap-store.ts lists them): no id is
 * repeated (the swap id is the key, the chat the field name), short names, numbers relative to
 * each other. A stored value that does not decode is skipped, never crashes a job.
 */

export function pairs(flat: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i] as string, flat[i + 1] as string]);
  return out;
}

const KIND_CODES: Readonly<Record<ChatKind, string>> = { private: 'p', group: 'g', channel: 'c' };
const KINDS: Readonly<Record<string, ChatKind>> = { p: 'private', g: 'group', c: 'channel' };

export function encodeFollower(f: Follower): string {
  return JSON.stringify({
    k: KIND_CODES[f.chatKind],
    ...(f.chatKind === 'private' && f.userId === f.chatId ? {} : { u: f.userId }),
    t: f.since,
    ...(f.threadId ? { th: f.threadId } : {}),
    ...(f.muted ? { m: 1 } : {}),
    ...(f.locale ? { l: f.locale } : {}),
    ...(f.own ? { o: 1 } : {}),
  });
}

/** A stored follower entry; undefined when it is not one (skipped, never crashes a job). */
export function decodeFollower(tk: string, v: string): Follower | undefined {
  const chat = parseTargetKey(tk);
  if (!chat) return undefined;
  try {
    const f = JSON.parse(v) as { k?: unknown; u?: unknown; t?: unknown; th?: unknown; m?: unknown; l?: unknown; o?: unknown };
    const chatKind = KINDS[String(f.k)];
    const userId = f.u ?? (chatKind === 'private' ? chat.chatId : undefined);
    if (!chatKind || typeof userId !== 'string') return undefined;
    const locale = trackingLocales.parse(f.l);
    return {
      ...chat,
      chatKind,
      userId,
      since: Number(f.t ?? 0),
      ...(typeof f.th === 'string' ? { threadId: f.th } : {}),
      ...(f.m === 1 ? { muted: true } : {}),
      ...(locale ? { locale } : {}),
      ...(f.o === 1 && chatKind === 'private' ? { own: true } : {}),
    };
  } catch {
    return undefined;
  }
}

interface StoredDelivery {
  v: number;
  m: number;
  c?: string;
  i?: string;
  h?: string;
  s?: [NonNullable<Delivery['sending']>['what'], string];
  x?: 1;
  n?: number;
  di?: string;
  dh?: string;
  /** The deposit card is a media message (MessageRef.kind). */
  dk?: 'm';
  dc?: string;
}

export function encodeDelivery(d: Delivery, tk: string): string {
  const o: StoredDelivery = { v: d.version, m: d.moments };
  if (d.cardHash) o.c = d.cardHash;
  if (d.ref) {
    o.i = d.ref.messageId;
    if (d.ref.chatId !== parseTargetKey(tk)?.chatId) o.h = d.ref.chatId;
  }
  if (d.sending) o.s = [d.sending.what, d.sending.key];
  if (d.stopped) o.x = 1;
  if (d.statuses) o.n = d.statuses;
  if (d.depositRef) {
    o.di = d.depositRef.messageId;
    if (d.depositRef.chatId !== parseTargetKey(tk)?.chatId) o.dh = d.depositRef.chatId;
    if (d.depositRef.kind === 'media') o.dk = 'm';
  }
  if (d.depositHash) o.dc = d.depositHash;
  return JSON.stringify(o);
}

export function decodeDelivery(raw: string, tk: string): Delivery | undefined {
  try {
    const o = JSON.parse(raw) as Partial<StoredDelivery>;
    const chat = parseTargetKey(tk);
    const d: Delivery = { version: Number(o.v ?? 0), moments: Number(o.m ?? 0) };
    if (typeof o.c === 'string') d.cardHash = o.c;
    if (typeof o.i === 'string' && chat)
      d.ref = { platform: chat.platform, chatId: typeof o.h === 'string' ? o.h : chat.chatId, messageId: o.i };
    if (Array.isArray(o.s) && typeof o.s[1] === 'string') d.sending = { what: o.s[0], key: o.s[1] };
    if (o.x) d.stopped = true;
    if (typeof o.n === 'number') d.statuses = o.n;
    if (typeof o.di === 'string' && chat)
      d.depositRef = {
        platform: chat.platform,
        chatId: typeof o.dh === 'string' ? o.dh : chat.chatId,
        messageId: o.di,
        ...(o.dk === 'm' ? { kind: 'media' as const } : {}),
      };
    if (typeof o.dc === 'string') d.depositHash = o.dc;
    return d;
  } catch {
    return undefined;
  }
}

type StoredTx = [string, string | null, string | null, number | null, number | null];

/** The status is the last of the history, and the first poll its first time: neither is stored twice. */
interface StoredState {
  fr?: string;
  tx: StoredTx[];
  hi: Array<[string, number]>;
  c: number;
  ds?: number;
  sn?: 1;
  e?: number;
  b?: number;
  /** confirmationPolls, times relative to `c` (shorter numbers). */
  cp?: Array<[number, number, number]>;
  ab?: 1;
  /** route (contracts/route-times.ts). */
  r?: string;
  sl?: 1;
  /** backward: the status of answers that would move the swap back, and how many in a row. */
  bk?: [string, number];
}

export function encodeState(s: SwapState): string {
  const history =
    s.history.at(-1)?.status === s.status && s.history[0]?.at === s.firstPolledAt ? s.history : [{ status: s.status, at: s.firstPolledAt }];
  const o: StoredState = {
    tx: s.transactions.map((t) => [t.type, t.status, t.hash, t.confirmations, t.maxConfirmations]),
    hi: history.map((h) => [h.status, h.at]),
    c: s.lastChangeAt,
  };
  if (s.failReason !== null) o.fr = s.failReason;
  if (s.depositSeenAt !== undefined) o.ds = s.depositSeenAt;
  if (s.stuckNotified) o.sn = 1;
  if (s.expectedCompletionMs !== undefined) o.e = s.expectedCompletionMs;
  if (s.blockMs !== undefined) o.b = s.blockMs;
  if (s.confirmationPolls) o.cp = s.confirmationPolls.map(([n, first, last]) => [n, first - s.lastChangeAt, last - s.lastChangeAt]);
  if (s.abandoned) o.ab = 1;
  if (s.route) o.r = s.route;
  if (s.slower) o.sl = 1;
  if (s.backward) o.bk = [s.backward.status, s.backward.polls];
  return JSON.stringify(o);
}

export function decodeState(swapId: string, version: string, raw: string, polledAt: string | null): SwapState {
  const o = JSON.parse(raw) as StoredState;
  const transactions: TxSnapshot[] = o.tx.map(([type, status, hash, confirmations, maxConfirmations]) => ({
    type,
    status,
    hash,
    confirmations,
    maxConfirmations,
  }));
  const history = o.hi.map(([status, at]) => ({ status, at }));
  const state: SwapState = {
    swapId,
    version: Number(version),
    status: history.at(-1)?.status ?? 'unknown',
    failReason: o.fr ?? null,
    transactions,
    history,
    firstPolledAt: history[0]?.at ?? o.c,
    lastPolledAt: Number(polledAt ?? o.c),
    lastChangeAt: o.c,
  };
  if (o.ds !== undefined) state.depositSeenAt = o.ds;
  if (o.sn) state.stuckNotified = true;
  if (o.e !== undefined) state.expectedCompletionMs = o.e;
  if (o.b !== undefined) state.blockMs = o.b;
  if (o.cp) state.confirmationPolls = o.cp.map(([n, first, last]) => [n, first + o.c, last + o.c] as const);
  if (o.ab) state.abandoned = true;
  if (o.r) state.route = o.r;
  if (o.sl) state.slower = true;
  if (o.bk) state.backward = { status: o.bk[0], polls: o.bk[1] };
  return state;
}

export function encodeMoment(m: Moment): [number, number, number] {
  return [MOMENT_KINDS.indexOf(m.kind), m.version, m.at];
}

export function decodeMoments(raw: string | null): Moment[] {
  if (!raw) return [];
  try {
    return (JSON.parse(raw) as Array<[number, number, number]>).flatMap(([k, version, at]) => {
      const kind: MomentKind | undefined = MOMENT_KINDS[k];
      return kind ? [{ kind, version, at }] : [];
    });
  } catch {
    return [];
  }
}

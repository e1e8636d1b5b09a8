import { createHash } from 'node:crypto';
import { lastEntered, type Moment, type MomentKind } from '../contracts/tracking.js';
import { FINAL_SWAP_STATUSES, type SwapDetails, type SwapPoll } from '../layerswap/schemas.js';
import { PHASE_RANK, swapPhase } from '../layerswap/phase.js';
import { blockTimeMs, depositConfirmations, isStuck, parseTimeSpan } from './cadence.js';
import { paceWindow, recordConfirmationPoll, type ConfirmationPolls } from './confirmation-pace.js';
import { routeOfSwap } from '../contracts/route-times.js';

/**
 * What the poller remembers about a swap, and the pure comparison of a fresh GET /swaps/{id}
 * with it: did anything a chat would see change, and which key moments happened.
 */

export interface TxSnapshot {
  type: string;
  status: string | null;
  /** A digest of the transaction hash (hashDigest): it tells transactions apart; cards show the full one. */
  hash: string | null;
  confirmations: number | null;
  maxConfirmations: number | null;
}

export interface SwapState {
  swapId: string;
  /** Increments on every change a chat would see (and on each key moment). */
  version: number;
  status: string;
  failReason: string | null;
  transactions: TxSnapshot[];
  /** Each status as first observed, with the poller's time (ms). */
  history: Array<{ status: string; at: number }>;
  firstPolledAt: number;
  lastPolledAt: number;
  lastChangeAt: number;
  depositSeenAt?: number;
  stuckNotified?: boolean;
  /** From quote.avg_completion_time. */
  expectedCompletionMs?: number;
  /** The swap's route (contracts/route-times.ts routeOfSwap): its observed times. */
  route?: string;
  /** Past the route's p90 (RouteLimits.slowAfterMs) while funds were moving: the card says so. */
  slower?: boolean;
  /**
   * The source network's block time, for pacing confirmation polls (cadence.ts): the table's at
   * first sight, then learned from the swap's own confirmations (confirmation-pace.ts).
   */
  blockMs?: number;
  /** While the deposit gathers confirmations: per count, the first and the last poll that saw it. */
  confirmationPolls?: ConfirmationPolls;
  /** Polling stopped without a final status (the deposit window passed long ago). */
  abandoned?: boolean;
  /**
   * Answers that would move the swap back (stale: replica lag, a cache): their status and how many
   * came in a row. Not shown until BACKWARD_CONFIRMATIONS of them agree; any other answer clears it.
   */
  backward?: { status: string; polls: number };
}

export interface Observation {
  state: SwapState;
  /** Something a chat would see changed (always true on the first observation). */
  changed: boolean;
  moments: Moment[];
  /**
   * Set when the answer would move the swap back: 'ignored' (not shown, state kept) or 'confirmed'
   * (BACKWARD_CONFIRMATIONS answers in a row agree: shown as a real regression).
   */
  backward?: 'ignored' | 'confirmed';
  /** The state must be stored though no chat sees a change (a backward streak grew or ended). */
  save?: boolean;
}

/** From the route's observed times, when enough swaps are behind them. */
export interface RouteLimits {
  /**
   * p99 from confirmation to completion: the stuck alert waits past both it and the service's
   * estimate instead of a fixed factor of the estimate.
   */
  stuckAfterMs?: number;
  /** p90 from deposit seen to completion: past it, the card says "slower than usual" (once: a card edit). */
  slowAfterMs?: number;
}

/** How many backward answers in a row make a real regression rather than a stale answer. */
export const BACKWARD_CONFIRMATIONS = 3;

/**
 * Where a status stands in the lifecycle the service documents (reference section 4): created in
 * user_transfer_pending, then ls_transfer_pending once the deposit is confirmed (failed and
 * expired end things there, though a failed or expired swap may still be refunded), then
 * pending_refund, then completed or refunded. Unknown statuses have no rank (never judged).
 */
const STATUS_RANK: Readonly<Record<string, number>> = {
  created: 0,
  user_transfer_pending: 0,
  user_transfer_delayed: 0,
  ls_transfer_pending: 1,
  failed: 1,
  expired: 1,
  pending_refund: 2,
  completed: 3,
  refunded: 3,
  cancelled: 3,
};

/**
 * An answer that would take the swap back: an earlier status, no completed payout after one was
 * listed, or no deposit after one was seen.
 */
function movesBack(prev: SwapState, status: string, seen: boolean, delivered: { was: boolean; now: boolean }): boolean {
  const was = STATUS_RANK[prev.status];
  const now = STATUS_RANK[status];
  if (was !== undefined && now !== undefined && now < was) return true;
  if (delivered.was && !delivered.now) return true;
  // The state's own deposit, not depositSeenAt: after an accepted regression the next answers are
  // judged against it, and a deposit seen once is remembered for the card's words.
  return depositSeen(prev.status, prev.transactions) && !seen;
}

/**
 * What observe reads: the fields a poll checks (LayerswapApi.pollSwap), or a whole SwapDetails;
 * the source network (for the block time) is read at first sight, when the poller has the details.
 */
export type ObservedSwap = Omit<SwapPoll, 'details' | 'swap'> & {
  swap: Omit<SwapPoll['swap'], 'transactions'> & {
    transactions: ReadonlyArray<SwapPoll['swap']['transactions'][number]>;
    source_network?: SwapDetails['swap']['source_network'];
  };
};

/** Moments announced when the status changes to them; completion is read from the phase instead. */
const STATUS_MOMENTS: Readonly<Record<string, MomentKind>> = {
  failed: 'failed',
  expired: 'expired',
  cancelled: 'cancelled',
  pending_refund: 'pending_refund',
  refunded: 'refunded',
};
/** Statuses that can only be reached after the deposit arrived. */
const AFTER_DEPOSIT: ReadonlySet<string> = new Set(['ls_transfer_pending', 'pending_refund', 'refunded', 'completed']);

/** A deposit listed now that was not before. */
function newInput(before: readonly TxSnapshot[], now: readonly TxSnapshot[]): boolean {
  const known = new Set(before.filter((t) => t.type === 'input').map((t) => t.hash));
  return now.some((t) => t.type === 'input' && t.status !== 'failed' && !known.has(t.hash));
}

function snapshotTransactions(details: ObservedSwap): TxSnapshot[] {
  return details.swap.transactions
    .map((t) => ({
      type: t.type ?? 'unknown',
      status: t.status ?? null,
      hash: t.transaction_hash ? hashDigest(t.transaction_hash) : null,
      confirmations: t.confirmations ?? null,
      maxConfirmations: t.max_confirmations ?? null,
    }))
    .sort((a, b) => `${a.type}|${a.hash ?? ''}`.localeCompare(`${b.type}|${b.hash ?? ''}`));
}

/** 12 characters of SHA-1 (72 bits): enough to tell a swap's few transactions apart, a fifth of a hash's size. */
function hashDigest(hash: string): string {
  return createHash('sha1').update(hash).digest('base64url').slice(0, 12);
}

const txKey = (t: TxSnapshot) => `${t.type}|${t.hash ?? ''}|${t.status ?? ''}|${t.confirmations ?? ''}/${t.maxConfirmations ?? ''}`;

function depositSeen(status: string, txs: readonly TxSnapshot[]): boolean {
  return AFTER_DEPOSIT.has(status) || txs.some((t) => t.type === 'input');
}

/**
 * Compares a fresh fetch with the stored state. `now` is the poller's clock (ms). `route`: what
 * the route's observed times say (poll-job.ts reads them; contracts/route-times.ts).
 */
export function observe(
  prev: SwapState | undefined,
  details: ObservedSwap,
  now: number,
  stuckFactor: number,
  route: RouteLimits = {},
): Observation {
  const routeP99Ms = route.stuckAfterMs;
  const status = details.swap.status;
  const failReason = details.swap.fail_reason ?? null;
  const transactions = snapshotTransactions(details);
  const expectedCompletionMs = parseTimeSpan(details.quote?.avg_completion_time) ?? prev?.expectedCompletionMs;
  const seen = depositSeen(status, transactions);

  if (!prev) {
    // First sight: the card shows everything. Version 1 is what a new swap's deposit card shows
    // (the creator's record starts there): a swap already past it is version 2, so everyone who
    // has seen nothing of it is behind, and an outcome reached before any poll (a worker down, a
    // paused queue, a 404 streak) is announced once, by its final key moment.
    const phase = swapPhase({ status, failReason, transactions });
    const outcome: MomentKind | undefined =
      phase.kind === 'delivered' ? 'completed' : FINAL_SWAP_STATUSES.has(status) ? STATUS_MOMENTS[status] : undefined;
    const version = PHASE_RANK[phase.kind] > 0 ? 2 : 1;
    const route = routeOfSwap(details.swap);
    const state: SwapState = {
      swapId: details.swap.id,
      version,
      status,
      failReason,
      transactions,
      history: [{ status, at: now }],
      firstPolledAt: now,
      lastPolledAt: now,
      lastChangeAt: now,
      ...(seen ? { depositSeenAt: now } : {}),
      ...(expectedCompletionMs !== undefined ? { expectedCompletionMs } : {}),
      ...(route ? { route } : {}),
      ...(details.swap.source_network ? { blockMs: blockTimeMs(details.swap.source_network) } : {}),
    };
    return {
      state: withConfirmationEvidence(state, undefined, now),
      changed: true,
      moments: outcome ? [{ kind: outcome, version, at: now }] : [],
    };
  }

  // Statuses only move forward: an answer that would move the swap back is not shown until
  // BACKWARD_CONFIRMATIONS answers in a row agree (then it is a real regression).
  let backward: Observation['backward'];
  const phase = swapPhase({ status, failReason, transactions });
  const prevPhase = swapPhase({ status: prev.status, failReason: prev.failReason, transactions: prev.transactions });
  if (movesBack(prev, status, seen, { was: prevPhase.kind === 'delivered', now: phase.kind === 'delivered' })) {
    const polls = prev.backward?.status === status ? prev.backward.polls + 1 : 1;
    if (polls < BACKWARD_CONFIRMATIONS)
      return {
        state: { ...prev, lastPolledAt: now, backward: { status, polls } },
        changed: false,
        moments: [],
        backward: 'ignored',
        save: true,
      };
    backward = 'confirmed';
  }
  const endsStreak = prev.backward !== undefined;

  const kinds: MomentKind[] = [];
  const statusChanged = status !== prev.status;
  const txChanged = transactions.map(txKey).join(',') !== prev.transactions.map(txKey).join(',');
  const changed = statusChanged || txChanged || failReason !== prev.failReason;

  const history = statusChanged ? [...prev.history, { status, at: now }] : prev.history;
  const newlySeen = seen && prev.depositSeenAt === undefined;
  // Moments in the order they happened, and none older than the phase the card now shows: a
  // poll that sees the deposit and the completion at once announces only the completion.
  if (newlySeen && (phase.kind === 'confirming' || phase.kind === 'processing')) kinds.push('deposit_seen');
  // A completed payout is delivery, even while the status still says ls_transfer_pending.
  if (phase.kind === 'delivered' && prevPhase.kind !== 'delivered') kinds.push('completed');
  const statusMoment = STATUS_MOMENTS[status];
  if (statusChanged && statusMoment) kinds.push(statusMoment);
  // Money that reached a swap already closed (a late deposit the service lists): a message, not only an edit.
  if (!statusChanged && (status === 'expired' || status === 'cancelled') && newInput(prev.transactions, transactions))
    kinds.push('wrong_deposit');

  let stuckNotified = prev.stuckNotified ?? false;
  if (phase.kind === 'processing' && !stuckNotified) {
    const since = lastEntered(history, 'ls_transfer_pending') ?? now;
    const pendingFor = now - since;
    const stuck =
      routeP99Ms !== undefined
        ? pendingFor > Math.max(routeP99Ms, expectedCompletionMs ?? 0, 60_000)
        : isStuck(pendingFor, expectedCompletionMs, stuckFactor);
    if (stuck) {
      kinds.push('stuck');
      stuckNotified = true;
    }
  }

  // Past the route's p90 while still moving: a card edit ("slower than usual"), no message.
  const slower =
    prev.slower === true ||
    (route.slowAfterMs !== undefined &&
      prev.depositSeenAt !== undefined &&
      (phase.kind === 'confirming' || phase.kind === 'processing') &&
      now - prev.depositSeenAt > route.slowAfterMs);
  const bump = changed || kinds.length > 0 || slower !== (prev.slower === true);
  const version = bump ? prev.version + 1 : prev.version;
  const { backward: _streak, ...before } = prev;
  const state: SwapState = {
    ...before,
    version,
    status,
    failReason,
    transactions,
    history,
    lastPolledAt: now,
    lastChangeAt: bump ? now : prev.lastChangeAt,
    stuckNotified,
    ...(slower ? { slower } : {}),
    ...(newlySeen ? { depositSeenAt: now } : {}),
    ...(expectedCompletionMs !== undefined ? { expectedCompletionMs } : {}),
  };
  return {
    state: withConfirmationEvidence(state, prev, now),
    changed: bump,
    moments: kinds.map((kind) => ({ kind, version, at: now })),
    ...(backward ? { backward } : {}),
    ...(endsStreak && !bump ? { save: true } : {}),
  };
}

/**
 * This poll's evidence of the deposit's pace (confirmation-pace.ts), while it gathers
 * confirmations: kept across polls of the same input transaction, dropped once it is confirmed.
 * The block time is learned from it. Evidence that contradicts a steady pace (a block far later
 * or earlier than the others allow) keeps only the newest count: the learning starts again there.
 */
function withConfirmationEvidence(state: SwapState, prev: SwapState | undefined, now: number): SwapState {
  const c = depositConfirmations(state.transactions);
  const input = c && state.transactions.find((t) => t.type === 'input');
  // Most polls (a swap waiting for its deposit) have nothing to record: no copy of the state.
  if (!c || !input) {
    if (state.confirmationPolls === undefined) return state;
    const { confirmationPolls: _dropped, ...rest } = state;
    return rest;
  }
  const before = prev?.transactions.find((t) => t.type === 'input');
  const kept = before?.hash === input.hash ? prev?.confirmationPolls : undefined;
  const newest = kept?.at(-1);
  // Unchanged polls store only their time (lastPolledAt), which is the newest count's last sight.
  const upToPrev = kept && newest && prev ? recordConfirmationPoll(kept, newest[0], prev.lastPolledAt) : kept;
  let polls = recordConfirmationPoll(upToPrev, c.seen, now);
  if (state.blockMs === undefined) return { ...state, confirmationPolls: polls };
  let pace = paceWindow(polls, c.seen + 1, state.blockMs);
  if (!pace) {
    polls = polls.slice(-1);
    pace = paceWindow(polls, c.seen + 1, state.blockMs);
  }
  return { ...state, confirmationPolls: polls, ...(pace ? { blockMs: Math.round(pace.blockMs) } : {}) };
}

import type { SwapDetails } from './schemas.js';

/**
 * The one reading of where a swap stands, used by the status card and the key moments alike so
 * they never contradict. The service's status lags the transactions it lists: it stays
 * user_transfer_pending while a deposit it already shows gathers confirmations, and
 * ls_transfer_pending after the payout completed (reference section 4). So an input transaction
 * means "deposit seen" (never "send"), and a completed output means delivered.
 */

export type PhaseKind =
  | 'waiting'
  | 'confirming'
  | 'processing'
  | 'delivered'
  | 'refunding'
  | 'refunded'
  | 'on_hold'
  | 'failed'
  | 'expired'
  | 'cancelled'
  | 'unknown';

export interface SwapPhase {
  kind: PhaseKind;
  /** The deposit's confirmations, when the service gives a maximum. */
  confirmations?: { done: number; max: number };
}

export interface PhaseTx {
  type?: string | null | undefined;
  status?: string | null | undefined;
  confirmations?: number | null | undefined;
  maxConfirmations?: number | null | undefined;
}

export interface PhaseInput {
  status: string;
  failReason?: string | null | undefined;
  transactions: readonly PhaseTx[];
}

/** How far along each phase is: a key moment of a lower rank than the swap's phase is stale. */
export const PHASE_RANK: Readonly<Record<PhaseKind, number>> = {
  waiting: 0,
  unknown: 0,
  confirming: 1,
  processing: 2,
  on_hold: 2,
  refunding: 3,
  delivered: 4,
  refunded: 4,
  failed: 4,
  expired: 4,
  cancelled: 4,
};

/** Statuses of a swap still waiting for its deposit (the service has yet to show one). */
export const BEFORE_DEPOSIT: ReadonlySet<string> = new Set(['created', 'user_transfer_pending', 'user_transfer_delayed']);

export function swapPhase(input: PhaseInput): SwapPhase {
  const { status, transactions } = input;
  switch (status) {
    case 'completed':
      return { kind: 'delivered' };
    case 'refunded':
      return { kind: 'refunded' };
    case 'pending_refund':
      return { kind: 'refunding' };
    case 'expired':
      return { kind: 'expired' };
    case 'cancelled':
      return { kind: 'cancelled' };
    case 'failed':
      return { kind: input.failReason === 'received_more_than_valid_range' ? 'on_hold' : 'failed' };
  }
  if (transactions.some((t) => t.type === 'output' && t.status === 'completed')) return { kind: 'delivered' };
  const input_ = lastDeposit(transactions);
  const known = BEFORE_DEPOSIT.has(status) || status === 'ls_transfer_pending';
  if (!known) return { kind: 'unknown' };
  if (input_) {
    const max = input_.maxConfirmations ?? 0;
    const done = Math.min(Math.max(0, Math.floor(input_.confirmations ?? 0)), max);
    const confirmations = max > 0 ? { done, max } : undefined;
    // ls_transfer_pending means confirmed, unless the service still counts confirmations.
    const counting = input_.status !== 'completed' && max > 0 && done < max;
    if (BEFORE_DEPOSIT.has(status) || counting) return { kind: 'confirming', ...(confirmations ? { confirmations } : {}) };
    return { kind: 'processing' };
  }
  if (status === 'ls_transfer_pending') return { kind: 'processing' };
  // user_transfer_delayed was retired (Sept 2026): an old swap that still says so is pending, not an alarm.
  return { kind: 'waiting' };
}

/** The newest deposit transaction that did not fail (a failed one moved no funds). */
function lastDeposit(txs: readonly PhaseTx[]): PhaseTx | undefined {
  for (let i = txs.length - 1; i >= 0; i--) {
    const t = txs[i];
    if (t?.type === 'input' && t.status !== 'failed') return t;
  }
  return undefined;
}

export const phaseOfSwap = (details: SwapDetails): SwapPhase =>
  swapPhase({
    status: details.swap.status,
    failReason: details.swap.fail_reason,
    transactions: details.swap.transactions.map((t) => ({
      type: t.type,
      status: t.status,
      confirmations: t.confirmations,
      maxConfirmations: t.max_confirmations,
    })),
  });

import type { SwapPhase } from '../../layerswap/phase.js';

/**
 * Every swap status and fail reason of the reference (section 4) in plain words: what it means
 * and what happens next. Unknown values are shown as they came.
 */
export interface StatusWords {
  label: string;
  meaning: string;
  next: string;
  tone: 'info' | 'success' | 'warning' | 'error' | 'pending';
}

export const STATUS_WORDS: Readonly<Record<string, StatusWords>> = {
  created: {
    label: 'Created',
    meaning: 'The swap is set up and Layerswap is waiting for the deposit.',
    next: 'Send the exact amount to the deposit address; once it is confirmed the swap continues by itself.',
    tone: 'pending',
  },
  user_transfer_pending: {
    label: 'Waiting for your deposit',
    meaning: 'Layerswap is waiting for the deposit to arrive on the source network.',
    next: 'Send the exact amount to the deposit address. Once the deposit is confirmed the swap continues by itself; without one it expires.',
    tone: 'pending',
  },
  user_transfer_delayed: {
    label: 'Deposit delayed',
    meaning: 'Layerswap marked the deposit as delayed: it has not been seen or confirmed in the usual time.',
    next: 'If you sent it, wait: the swap continues once the source network confirms it. If you have not, check the swap page on layerswap.io before sending.',
    tone: 'warning',
  },
  ls_transfer_pending: {
    label: 'Deposit received, sending',
    meaning: 'Your deposit is confirmed and Layerswap is sending the funds to the destination.',
    next: 'The funds arrive at the destination address shortly. If sending fails, Layerswap retries (and refunds when a refund address was given).',
    tone: 'pending',
  },
  completed: { label: 'Completed', meaning: 'The funds were delivered to the destination address.', next: 'Nothing more to do.', tone: 'success' },
  failed: {
    label: 'Failed',
    meaning: 'The swap could not be completed, and the swap service gave no reason.',
    next: 'If you sent funds, contact Layerswap support with the swap id and your deposit transaction.',
    tone: 'error',
  },
  expired: {
    label: 'Expired',
    meaning: 'No deposit arrived in time, so the swap was closed.',
    next: 'Do not send anything to its deposit address any more. Start a new swap with /swap.',
    tone: 'warning',
  },
  cancelled: {
    label: 'Cancelled',
    meaning: 'The swap was cancelled before it ran.',
    next: 'Do not send funds to it. If you already did, contact Layerswap support with the swap id; or start a new swap with /swap.',
    tone: 'warning',
  },
  pending_refund: {
    label: 'Refund on its way',
    meaning: 'The swap could not be completed, so your deposit is being returned to the refund address.',
    next: 'The refund arrives at the refund address, minus network fees.',
    tone: 'warning',
  },
  refunded: { label: 'Refunded', meaning: 'Your deposit was returned to the refund address.', next: 'Nothing more to do; the refund transaction is below.', tone: 'warning' },
};

export function statusWords(status: string): StatusWords {
  return STATUS_WORDS[status] ?? { label: status, meaning: 'This bot does not know this status yet; it is shown as the swap service sent it.', next: 'Check again in a while.', tone: 'info' };
}

export const FAIL_REASON_WORDS: Readonly<Record<string, { meaning: string; next: string }>> = {
  received_less_than_valid_range: { meaning: 'The deposit was less than the minimum for this route.', next: 'Contact Layerswap support with the swap id to get it back.' },
  received_more_than_valid_range: {
    meaning: 'The deposit was more than the maximum for this route, so it is on hold for review.',
    next: 'Layerswap reviews such deposits and approves them in up to 2 hours; nothing to do meanwhile.',
  },
  swap_route_unavailable: { meaning: 'The route became unavailable before the swap could run.', next: 'Contact Layerswap support with the swap id about your deposit.' },
  degraded_quote: { meaning: 'The price moved too far from the quote to complete the swap safely.', next: 'Contact Layerswap support with the swap id about your deposit.' },
  gasless_deposit_failed: {
    meaning: 'The deposit without gas (a signed authorization) could not be carried out.',
    next: 'Check your wallet: if the funds are still there, start a new swap; if they left it, contact Layerswap support with the swap id.',
  },
};

export function failReasonWords(reason: string): { meaning: string; next: string } {
  return FAIL_REASON_WORDS[reason] ?? { meaning: `Reason given: ${reason}.`, next: 'Contact Layerswap support with the swap id.' };
}

/**
 * The words for a swap's phase (phase.ts): what the card title says and the key moments repeat.
 * The status only colours them; the phase decides, so a listed deposit is never met with "send".
 */
export function phaseWords(phase: SwapPhase, status: string, failReason?: string | null): StatusWords {
  switch (phase.kind) {
    case 'waiting':
      return status === 'created'
        ? { ...STATUS_WORDS.user_transfer_pending!, meaning: 'The swap is set up and Layerswap is waiting for the deposit.' }
        : STATUS_WORDS.user_transfer_pending!;
    case 'delayed':
      return STATUS_WORDS.user_transfer_delayed!;
    case 'confirming': {
      const c = phase.confirmations;
      return {
        label: c ? `Deposit seen, confirming ${c.done}/${c.max}` : 'Deposit seen, confirming',
        meaning: 'Layerswap has seen the deposit transaction and is waiting for the source network to confirm it.',
        next: 'Nothing to do, and do not send it again: the swap continues by itself once the deposit is confirmed.',
        tone: 'pending',
      };
    }
    case 'processing':
      return STATUS_WORDS.ls_transfer_pending!;
    case 'delivered':
      return status === 'completed'
        ? STATUS_WORDS.completed!
        : { label: 'Delivered', meaning: 'The payout transaction is complete: the funds are at the destination address.', next: 'Nothing more to do; Layerswap marks the swap completed shortly.', tone: 'success' };
    case 'on_hold':
      return { label: 'On hold for review', meaning: FAIL_REASON_WORDS.received_more_than_valid_range!.meaning, next: FAIL_REASON_WORDS.received_more_than_valid_range!.next, tone: 'warning' };
    case 'failed':
      return failReason ? { ...STATUS_WORDS.failed!, ...failReasonWords(failReason) } : STATUS_WORDS.failed!;
    case 'refunding':
      return STATUS_WORDS.pending_refund!;
    case 'refunded':
      return STATUS_WORDS.refunded!;
    case 'expired':
      return STATUS_WORDS.expired!;
    case 'cancelled':
      return STATUS_WORDS.cancelled!;
    case 'unknown':
      return statusWords(status);
  }
}

export const TRANSACTION_WORDS: Readonly<Record<string, string>> = {
  input: 'Your deposit',
  output: 'Payout',
  refuel: 'Refuel (gas)',
  refund: 'Refund',
};
export const transactionWord = (type: string): string => TRANSACTION_WORDS[type] ?? type;

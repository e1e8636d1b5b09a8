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
  created: { label: 'Created', meaning: 'The swap is set up.', next: 'Send the deposit to start it.', tone: 'pending' },
  user_transfer_pending: {
    label: 'Waiting for your deposit',
    meaning: 'Layerswap is waiting for the deposit to arrive on the source network.',
    next: 'Send the exact amount to the deposit address. Once the deposit is confirmed the swap continues by itself; without one it expires.',
    tone: 'pending',
  },
  user_transfer_delayed: {
    label: 'Deposit delayed',
    meaning: 'The deposit is taking longer than usual to be seen or confirmed.',
    next: 'Nothing to do yet: it continues once the source network confirms the deposit.',
    tone: 'warning',
  },
  ls_transfer_pending: {
    label: 'Deposit received, sending',
    meaning: 'Your deposit is confirmed and Layerswap is sending the funds to the destination.',
    next: 'The funds arrive at the destination address shortly. If sending fails, Layerswap retries (and refunds when a refund address was given).',
    tone: 'pending',
  },
  completed: { label: 'Completed', meaning: 'The funds were delivered to the destination address.', next: 'Nothing more to do.', tone: 'success' },
  failed: { label: 'Failed', meaning: 'The swap could not be completed.', next: 'Contact Layerswap support with the swap id.', tone: 'error' },
  expired: {
    label: 'Expired',
    meaning: 'No deposit arrived in time, so the swap was closed.',
    next: 'Do not send anything to its deposit address any more. Start a new swap with /swap.',
    tone: 'warning',
  },
  cancelled: { label: 'Cancelled', meaning: 'The swap was cancelled.', next: 'Do not send funds to it. Start a new one with /swap.', tone: 'warning' },
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
  received_more_than_valid_range: { meaning: 'The deposit was more than the maximum for this route.', next: 'Layerswap reviews such deposits and approves them within about 2 hours.' },
  swap_route_unavailable: { meaning: 'The route became unavailable while the swap was running.', next: 'Contact Layerswap support with the swap id.' },
  degraded_quote: { meaning: 'The price moved too far from the quote to complete the swap safely.', next: 'Contact Layerswap support with the swap id.' },
};

export function failReasonWords(reason: string): { meaning: string; next: string } {
  return FAIL_REASON_WORDS[reason] ?? { meaning: `Reason given: ${reason}.`, next: 'Contact Layerswap support with the swap id.' };
}

export const TRANSACTION_WORDS: Readonly<Record<string, string>> = {
  input: 'Your deposit',
  output: 'Payout',
  refuel: 'Refuel (gas)',
  refund: 'Refund',
};
export const transactionWord = (type: string): string => TRANSACTION_WORDS[type] ?? type;

import type { QuoteResponse, SwapDetails } from '../../layerswap/schemas.js';
import { swapMoney, type SwapMoney } from './model.js';

/**
 * The same model for a quote, before any swap exists (the confirm card): sent = the amount asked,
 * expected = the quote's receive amount, deductions as quoted. So the confirm card and the
 * receipt reconcile the same way.
 */
export function quoteMoney(q: QuoteResponse, amount: number, labels: { sourceToken: string; destinationToken: string }): SwapMoney {
  const quote = q.quote;
  const details: SwapDetails = {
    swap: {
      id: '',
      status: 'user_transfer_pending',
      source_token: quote.source_token ?? { symbol: labels.sourceToken },
      destination_token: quote.destination_token ?? { symbol: labels.destinationToken },
      requested_amount: quote.requested_amount ?? amount,
      transactions: [],
    },
    quote,
    ...(q.refuel !== undefined ? { refuel: q.refuel } : {}),
  };
  return swapMoney(details, 0);
}

import type { QuoteResponse } from '../../layerswap/schemas.js';
import { describeDuration, parseTimeSpan } from '../../layerswap/timespan.js';
import { actionButton, line, text, type Field, type Reply } from '../../contracts/reply.js';
import { formatAmount, formatUsd, networkName, tokenAmount } from './format.js';

/** Names to fall back on when the service sent cut-down network or token objects. */
export interface RouteLabels {
  sourceNetwork: string;
  sourceToken: string;
  destinationNetwork: string;
  destinationToken: string;
}

/** The figures of a quote as card fields: send, receive, minimum, fees, rate, time, extras, path. */
export function quoteFields(q: QuoteResponse, labels: RouteLabels, amount: number): Field[] {
  const { quote } = q;
  const src = quote.source_token ?? { symbol: labels.sourceToken, decimals: 8 };
  const dst = quote.destination_token ?? { symbol: labels.destinationToken, decimals: 8 };
  const srcNet = quote.source_network ? networkName(quote.source_network) : labels.sourceNetwork;
  const dstNet = quote.destination_network ? networkName(quote.destination_network) : labels.destinationNetwork;
  const fields: Field[] = [
    { name: 'You send', value: line(`${tokenAmount(quote.requested_amount ?? amount, src)} on ${srcNet}`), inline: true },
    { name: 'You receive', value: line(`${tokenAmount(quote.receive_amount, dst)} on ${dstNet}`), inline: true },
  ];
  if (typeof quote.min_receive_amount === 'number') fields.push({ name: 'Minimum received', value: line(tokenAmount(quote.min_receive_amount, dst)), inline: true });
  if (typeof quote.total_fee === 'number') {
    const usd = formatUsd(quote.total_fee_in_usd);
    fields.push({ name: 'Fees', value: line(`${tokenAmount(quote.total_fee, src)}${usd ? ` (${usd})` : ''}`), inline: true });
  }
  if (typeof quote.rate === 'number') fields.push({ name: 'Rate', value: line(`1 ${src.symbol} = ${formatAmount(quote.rate)} ${dst.symbol}`), inline: true });
  const ms = parseTimeSpan(quote.avg_completion_time);
  if (ms !== undefined) fields.push({ name: 'Expected time', value: line(describeDuration(ms)), inline: true });
  if (q.refuel && typeof q.refuel.amount === 'number' && q.refuel.amount > 0) {
    const usd = formatUsd(q.refuel.amount_in_usd);
    const where = q.refuel.network ? ` on ${networkName(q.refuel.network)}` : '';
    fields.push({ name: 'Refuel', value: line(`${tokenAmount(q.refuel.amount, q.refuel.token)}${where}${usd ? ` (${usd})` : ''} for gas`) });
  }
  if (q.reward && typeof q.reward.amount === 'number' && q.reward.amount > 0) {
    const usd = formatUsd(q.reward.amount_in_usd);
    const nft = q.reward.campaign_type === 'for_nft_holders' ? ' for NFT holders' : '';
    fields.push({ name: 'Reward', value: line(`${tokenAmount(q.reward.amount, q.reward.token)}${usd ? ` (${usd})` : ''}${nft}`) });
  }
  const path = (quote.path ?? []).slice().sort((a, b) => (a.order ?? 0) - (b.order ?? 0)).map((p) => p.provider);
  if (path.length > 0) fields.push({ name: 'Route', value: line(path.join(' → ')) });
  const share = feeShare(q, amount);
  if (share !== undefined && share >= HIGH_FEE_SHARE) {
    // First, so neither the quote nor the confirm card can be read without it.
    fields.unshift({
      name: '⚠️ High fees',
      value: line(`Fees take ${formatPercent(share)} of what you send: you would receive only ${tokenAmount(quote.receive_amount, dst)} for ${tokenAmount(quote.requested_amount ?? amount, src)}. A larger amount loses a smaller share.`),
    });
  }
  return fields;
}

/** From this share of the amount sent, fees get a plain warning. */
export const HIGH_FEE_SHARE = 0.5;

/**
 * The share of the amount sent that fees take: total_fee and requested_amount are both in source
 * units (reference section 5); with only USD figures, total_fee_in_usd over the amount's value.
 */
export function feeShare(q: QuoteResponse, amount: number): number | undefined {
  const { quote } = q;
  const sent = quote.requested_amount ?? amount;
  if (!(sent > 0)) return undefined;
  if (typeof quote.total_fee === 'number' && quote.total_fee >= 0) return quote.total_fee / sent;
  const price = quote.source_token?.price_in_usd;
  if (typeof quote.total_fee_in_usd === 'number' && typeof price === 'number' && price > 0) return quote.total_fee_in_usd / (sent * price);
  return undefined;
}

const formatPercent = (share: number): string => `${(Math.min(share, 1) * 100).toFixed(1).replace(/\.0$/, '')}%`;

/** The quote card with its Swap this and Refresh buttons (actions made by the caller). */
export function quoteCard(q: QuoteResponse, labels: RouteLabels, amount: number, actions: { swap: string; refresh: string }): Reply {
  return {
    title: `Quote: ${labels.sourceToken} ${labels.sourceNetwork} → ${labels.destinationToken} ${labels.destinationNetwork}`,
    tone: 'info',
    lines: [line(text('Prices move: the amount you receive is fixed when the swap runs.'))],
    fields: quoteFields(q, labels, amount),
    buttons: [[actionButton('Swap this', actions.swap), actionButton('Refresh', actions.refresh)]],
    target: 'here',
  };
}

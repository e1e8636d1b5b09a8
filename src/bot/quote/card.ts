import type { QuoteResponse } from '../../layerswap/schemas.js';
import { parseTimeSpan } from '../../layerswap/timespan.js';
import { actionButton, line, text, type Field, type Reply } from '../../contracts/reply.js';
import { formatDuration, formatNumber, t, type CatalogKey, type Locale, type Vars } from '../../i18n/index.js';
import type { Distribution } from '../../contracts/route-times.js';
import { formatAmount, formatUsd, networkName, tokenAmount } from '../kernel/format.js';
import { moneyText, type SwapMoney } from '../money/model.js';
import { quoteMoney } from '../money/quote-money.js';
import { breakdownCents, centsText } from '../money/words.js';
import { toUnits } from '../money/units.js';

/** Names to fall back on when the service sent cut-down network or token objects. */
export interface RouteLabels {
  sourceNetwork: string;
  sourceToken: string;
  destinationNetwork: string;
  destinationToken: string;
}

/** Stable ids of the quote card's fields: what code filters on, since names are translated. */
export type QuoteFieldId = 'highFees' | 'send' | 'receive' | 'minReceive' | 'fees' | 'rate' | 'time' | 'refuel' | 'reward' | 'path';

/**
 * The figures of a quote as card fields: send, receive, minimum, fees, rate, time, extras, path.
 * Amounts, token and network names stay as the service gives them; only the words around them are translated.
 */
export function quoteFields(q: QuoteResponse, labels: RouteLabels, amount: number, locale: Locale, observed?: Distribution): Field[] {
  const tr = (key: CatalogKey, vars?: Vars): string => t(locale, key, vars);
  const field = (id: QuoteFieldId, value: string, inline?: boolean): Field => ({
    id,
    name: tr(`quote.field.${id}`),
    value: line(value),
    ...(inline ? { inline } : {}),
  });
  const withUsd = (text: string, usd: string | undefined): string => (usd ? tr('quote.withUsd', { text, usd }) : text);
  const { quote } = q;
  const src = quote.source_token ?? { symbol: labels.sourceToken, decimals: 8 };
  const dst = quote.destination_token ?? { symbol: labels.destinationToken, decimals: 8 };
  const srcNet = quote.source_network ? networkName(quote.source_network) : labels.sourceNetwork;
  const dstNet = quote.destination_network ? networkName(quote.destination_network) : labels.destinationNetwork;
  // The same model as every card after it: amounts with the token's own decimals, never more.
  const m = quoteMoney(q, amount, labels);
  const sent = m.asked ? moneyText(m.asked) : tokenAmount(quote.requested_amount ?? amount, src);
  const received = m.expected ? moneyText(m.expected) : tokenAmount(quote.receive_amount, dst);
  const fields: Field[] = [
    field('send', tr('route.onNetwork', { what: sent, where: srcNet }), true),
    field('receive', tr('route.onNetwork', { what: received, where: dstNet }), true),
  ];
  if (m.minimum) fields.push(field('minReceive', tr('money.quote.minMeans', { amount: moneyText(m.minimum) }), true));
  if (typeof quote.total_fee === 'number') {
    const total = toUnits(quote.total_fee, m.source.decimals) ?? 0n;
    fields.push(
      field('fees', withUsd(moneyText({ units: total, token: m.source }), feesUsd(m, total) ?? formatUsd(quote.total_fee_in_usd)), true),
    );
  }
  // A same-asset route has no rate worth reading (1 USDC = 1 USDC).
  if (typeof quote.rate === 'number' && !m.sameAsset)
    fields.push(field('rate', `1 ${src.symbol} = ${formatAmount(quote.rate)} ${dst.symbol}`, true));
  const ms = parseTimeSpan(quote.avg_completion_time);
  // What the tracker saw on this route (at least 5 swaps: quote.ts observedTimes), else the service's estimate.
  if (observed)
    fields.push(
      field(
        'time',
        tr('quote.observed', { within: observed.within, total: observed.count, duration: formatDuration(locale, observed.withinMs) }),
      ),
    );
  else if (ms !== undefined) fields.push(field('time', formatDuration(locale, ms, { about: true, standalone: true }), true));
  if (q.refuel && typeof q.refuel.amount === 'number' && q.refuel.amount > 0) {
    const gas = tokenAmount(q.refuel.amount, q.refuel.token);
    const what = q.refuel.network ? tr('route.onNetwork', { what: gas, where: networkName(q.refuel.network) }) : gas;
    fields.push(field('refuel', tr('quote.forGas', { what: withUsd(what, formatUsd(q.refuel.amount_in_usd)) })));
  }
  if (q.reward && typeof q.reward.amount === 'number' && q.reward.amount > 0) {
    const reward = withUsd(tokenAmount(q.reward.amount, q.reward.token), formatUsd(q.reward.amount_in_usd));
    fields.push(field('reward', q.reward.campaign_type === 'for_nft_holders' ? tr('quote.forNftHolders', { what: reward }) : reward));
  }
  const path = (quote.path ?? [])
    .slice()
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((p) => p.provider);
  if (path.length > 0) fields.push(field('path', path.join(' → ')));
  const share = feeShare(q, amount);
  if (share !== undefined && share >= HIGH_FEE_SHARE) {
    // First, so neither the quote nor the confirm card can be read without it.
    fields.unshift(field('highFees', tr('quote.highFees', { share: formatPercent(locale, share), received, sent })));
  }
  return fields;
}

/** From this share of the amount sent, fees get a plain warning. */
const HIGH_FEE_SHARE = 0.5;

/**
 * The share of the amount sent that fees take: total_fee and requested_amount are both in source
 * units (reference section 5); with only USD figures, total_fee_in_usd over the amount's value.
 */
function feeShare(q: QuoteResponse, amount: number): number | undefined {
  const { quote } = q;
  const sent = quote.requested_amount ?? amount;
  if (!(sent > 0)) return undefined;
  if (typeof quote.total_fee === 'number' && quote.total_fee >= 0) return quote.total_fee / sent;
  const price = quote.source_token?.price_in_usd;
  if (typeof quote.total_fee_in_usd === 'number' && typeof price === 'number' && price > 0) return quote.total_fee_in_usd / (sent * price);
  return undefined;
}

/** A share for reading, in the locale's way ("50.5%", "50,5 %"). */
const formatPercent = (locale: Locale, share: number): string =>
  formatNumber(locale, Math.min(share, 1), { style: 'percent', maximumFractionDigits: 1 });

/** The quote card with its Swap this and Refresh buttons (actions made by the caller). */
export function quoteCard(
  q: QuoteResponse,
  labels: RouteLabels,
  amount: number,
  actions: { swap: string; refresh: string },
  locale: Locale,
  observed?: Distribution,
): Reply {
  return {
    title: t(locale, 'quote.title', {
      route: `${labels.sourceToken} ${labels.sourceNetwork} → ${labels.destinationToken} ${labels.destinationNetwork}`,
    }),
    tone: 'info',
    lines: [line(text(t(locale, 'quote.pricesMove')))],
    fields: quoteFields(q, labels, amount, locale, observed),
    buttons: [[actionButton(t(locale, 'quote.swapThis'), actions.swap), actionButton(t(locale, 'quote.refresh'), actions.refresh)]],
    target: 'here',
  };
}

/**
 * The fees' USD as the breakdown's own cents add them (so "Fees" and its parts agree to the cent),
 * when the parts are the whole fee; else undefined (the service's figure is shown).
 */
function feesUsd(m: SwapMoney, total: bigint): string | undefined {
  const cents = breakdownCents(m);
  if (!cents) return undefined;
  let units = 0n;
  let sum = 0n;
  m.deductions.forEach((d, i) => {
    if (d.kind !== 'service_fee' && d.kind !== 'network_fee') return;
    units += d.amount.units;
    sum += cents.deductions[i] ?? 0n;
  });
  return units === total ? centsText(sum) : undefined;
}

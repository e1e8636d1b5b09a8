import { actionButton, code, line, text, type Button, type Line, type Reply } from '../../contracts/reply.js';
import { phaseOfSwap } from '../../layerswap/phase.js';
import type { SwapDetails } from '../../layerswap/schemas.js';
import { fitReply } from '../kernel/fit.js';
import { t, tSpans, type CatalogKey, type Locale, type Vars } from '../../i18n/index.js';
import { formatTime, maskAddress, shortId, sideName } from '../kernel/format.js';
import { moneyText, sentOf, swapMoney } from '../money/model.js';
import { statusActions } from '../kernel/status-actions.js';
import { phaseWords } from './words.js';

/** "100 USDC Arbitrum One → USDC Base" from what the swap names (a cut-down swap names less). */
export function swapRoute(details: SwapDetails): string {
  const s = details.swap;
  // The money model's figures: what was sent (the deposit once seen) and what arrived.
  const m = swapMoney(details, Date.now());
  const sent = sentOf(m);
  const from = s.source_token ? `${sent ? moneyText(sent) : s.source_token.symbol} ${sideName(details, 'source')}` : '?';
  const to = s.destination_token
    ? `${m.received ? moneyText(m.received) : s.destination_token.symbol} ${sideName(details, 'destination')}`
    : '?';
  return `${from} → ${to}`;
}

/** The same in the reader's words: "80 USDC on Arbitrum One → 79.157021 USDC on Base" (/history). */
export function swapRouteIn(details: SwapDetails, locale: Locale): string {
  const s = details.swap;
  const m = swapMoney(details, Date.now());
  const sent = sentOf(m);
  // Exchanges named wherever the route is: "100 USDC on Coinbase (Ethereum)".
  const side = (what: string, which: 'source' | 'destination') =>
    (which === 'source' ? s.source_network : s.destination_network)
      ? t(locale, 'route.onNetwork', { what, where: sideName(details, which) })
      : what;
  const from = s.source_token ? side(sent ? moneyText(sent) : s.source_token.symbol, 'source') : '?';
  const to = s.destination_token ? side(m.received ? moneyText(m.received) : s.destination_token.symbol, 'destination') : '?';
  return `${from} → ${to}`;
}

/** The swap's status in words, as its card's title says it. */
export const swapStatusLabel = (details: SwapDetails, locale: Locale): string =>
  phaseWords(phaseOfSwap(details), details.swap.status, details.swap.fail_reason, locale).label;

export interface SwapListView {
  address: string;
  swaps: readonly SwapDetails[];
  /** Zero-based page shown. */
  page: number;
  includeExpired: boolean;
  /** Groups and channels: the address masked. */
  audience: 'private' | 'public';
  now: number;
  locale: Locale;
  /** Encoded actions for the page and toggle buttons (undefined: no such button). */
  prev?: string;
  next?: string;
  toggle: string;
}

/**
 * An address's swaps, newest first: one row each (when, route, status in words, short id) and a
 * Follow button each. The address itself is masked in groups; rows never show addresses.
 */
export function swapListCard(v: SwapListView): Reply {
  const who = v.audience === 'public' ? text(maskAddress(v.address)) : code(v.address);
  const tr = (key: CatalogKey, vars?: Vars): string => t(v.locale, key, vars);
  const lines: Line[] = [line(...tSpans(v.locale, 'swapList.intro', { address: who }))];
  const follow: Button[] = [];
  for (const d of v.swaps) {
    const created = Date.parse(d.swap.created_date ?? '');
    const when = Number.isNaN(created) ? '' : `${formatTime(created, v.now, v.locale)} · `;
    lines.push(line(`${when}${swapRoute(d)} · `, { kind: 'bold', text: swapStatusLabel(d, v.locale) }, ' · ', code(d.swap.id)));
    follow.push(actionButton(tr('swapList.follow', { id: shortId(d.swap.id) }), statusActions.track(d.swap.id)));
  }
  lines.push(line(tr(v.includeExpired ? 'swapList.expiredIncluded' : 'swapList.expiredHidden')));
  const nav: Button[] = [];
  if (v.prev) nav.push(actionButton(tr('list.prev'), v.prev));
  if (v.next) nav.push(actionButton(tr('list.next'), v.next));
  nav.push(actionButton(tr(v.includeExpired ? 'lookup.hideExpired' : 'lookup.showExpired'), v.toggle));
  return fitReply(
    {
      title: v.page > 0 ? tr('swapList.titlePage', { page: v.page + 1 }) : tr('swapList.title'),
      tone: 'info',
      lines,
      buttons: [follow.slice(0, 3), follow.slice(3), nav].filter((r) => r.length > 0),
      target: 'here',
    },
    v.locale,
  );
}

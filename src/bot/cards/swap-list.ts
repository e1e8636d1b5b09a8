import { actionButton, code, line, text, type Button, type Line, type Reply } from '../../contracts/reply.js';
import { phaseOfSwap } from '../../layerswap/phase.js';
import type { SwapDetails } from '../../layerswap/schemas.js';
import { fitReply } from '../fit.js';
import { formatTime, maskAddress, networkName, shortId, tokenAmount } from './format.js';
import { statusActions } from './status.js';
import { phaseWords } from './status-words.js';

/** "100 USDC Arbitrum One → USDC Base" from what the swap names (a cut-down swap names less). */
export function swapRoute(details: SwapDetails): string {
  const s = details.swap;
  const amount = s.requested_amount ?? details.quote?.requested_amount;
  const from = s.source_token ? `${typeof amount === 'number' ? tokenAmount(amount, s.source_token) : s.source_token.symbol} ${networkName(s.source_network)}` : '?';
  const to = s.destination_token ? `${s.destination_token.symbol} ${networkName(s.destination_network)}` : '?';
  return `${from} → ${to}`;
}

/** The swap's status in words, as its card's title says it. */
export const swapStatusLabel = (details: SwapDetails): string => phaseWords(phaseOfSwap(details), details.swap.status, details.swap.fail_reason).label;

export interface SwapListView {
  address: string;
  swaps: readonly SwapDetails[];
  /** Zero-based page shown. */
  page: number;
  includeExpired: boolean;
  /** Groups and channels: the address masked. */
  audience: 'private' | 'public';
  now: number;
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
  const lines: Line[] = [line('Swaps of ', who, ', newest first:')];
  const follow: Button[] = [];
  for (const d of v.swaps) {
    const created = Date.parse(d.swap.created_date ?? '');
    const when = Number.isNaN(created) ? '' : `${formatTime(created, v.now)} · `;
    lines.push(line(`${when}${swapRoute(d)} · `, { kind: 'bold', text: swapStatusLabel(d) }, ' · ', code(d.swap.id)));
    follow.push(actionButton(`Follow ${shortId(d.swap.id)}`, statusActions.track(d.swap.id)));
  }
  lines.push(line(v.includeExpired ? 'Expired swaps are included.' : 'Expired swaps are hidden.'));
  const nav: Button[] = [];
  if (v.prev) nav.push(actionButton('‹ Prev', v.prev));
  if (v.next) nav.push(actionButton('Next ›', v.next));
  nav.push(actionButton(v.includeExpired ? 'Hide expired' : 'Show expired', v.toggle));
  return fitReply({ title: `Swaps of this address${v.page > 0 ? ` (page ${v.page + 1})` : ''}`, tone: 'info', lines, buttons: [follow.slice(0, 3), follow.slice(3), nav].filter((r) => r.length > 0), target: 'here' });
}

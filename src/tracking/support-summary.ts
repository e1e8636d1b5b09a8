import { maskAddress } from '../bot/cards/format.js';
import type { SwapDetails, Transaction } from '../layerswap/schemas.js';
import type { SwapState } from './observe.js';

/**
 * Plain-text facts a user pastes to Layerswap support: swap id, route, addresses, transaction
 * hashes and the status history with times. Public chats get masked addresses.
 */

/** Masked the same way as on the status card: one rule for every public message. */
export { maskAddress };

export const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

export function explorerUrl(template: string | null | undefined, hash: string | null | undefined): string | undefined {
  if (!template || !hash || !template.includes('{0}')) return undefined;
  const url = template.replace('{0}', encodeURIComponent(hash));
  return /^https?:\/\//.test(url) ? url : undefined;
}

/** The explorer template for a transaction: its own network, else the swap's side for its type. */
export function txExplorer(details: SwapDetails, tx: Transaction): string | undefined {
  const swap = details.swap;
  const side = tx.type === 'output' || tx.type === 'refuel' ? swap.destination_network : swap.source_network;
  return explorerUrl(tx.network?.transaction_explorer_template ?? side?.transaction_explorer_template, tx.transaction_hash);
}

export function supportSummary(details: SwapDetails, state: SwapState, audience: 'private' | 'public'): string[] {
  const s = details.swap;
  const addr = (a: string | null | undefined) => (a ? (audience === 'public' ? maskAddress(a) : a) : undefined);
  const lines = [
    `Swap id: ${s.id}`,
    `Status: ${s.status}${s.fail_reason ? ` (${s.fail_reason})` : ''}`,
  ];
  // A cut-down swap drops the lines it cannot fill.
  if (s.source_token && s.source_network && s.destination_token && s.destination_network) {
    lines.push(`Route: ${audience === 'private' && s.requested_amount != null ? `${s.requested_amount} ` : ''}${s.source_token.symbol} ${s.source_network.name} -> ${s.destination_token.symbol} ${s.destination_network.name}`);
  }
  if (s.created_date) lines.push(`Created: ${s.created_date}`);
  const to = addr(s.destination_address);
  if (to) lines.push(`Destination address: ${to}`);
  const from = addr(s.source_address);
  if (from) lines.push(`Source address: ${from}`);
  const refund = addr(s.refund_address);
  if (refund) lines.push(`Refund address: ${refund}`);
  for (const tx of s.transactions) {
    if (!tx.transaction_hash) continue;
    lines.push(`${tx.type ?? 'unknown'} tx: ${tx.transaction_hash} (${tx.status ?? 'unknown'})`);
  }
  lines.push(`History: ${state.history.map((h) => `${h.status} ${iso(h.at)}`).join(', ')}`);
  return lines;
}

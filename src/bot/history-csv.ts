import type { SwapDetails } from '../layerswap/schemas.js';
import { txExplorer } from './cards/format.js';
import type { HistoryEntry } from './history.js';

/**
 * The CSV export of a user's swaps (for taxes and support): one row per swap, newest first, with
 * date, route, amounts, fees, status and transaction links. A swap that could not be loaded keeps
 * its row with what the bot recorded, and status "unavailable".
 * Column names and status values stay English whatever the user's language: the file is a
 * machine format that spreadsheets and tax tools read by header, like the service's own ids.
 */
const CSV_COLUMNS = [
  'date', 'swap_id', 'status', 'source_network', 'source_token', 'amount_sent', 'destination_network', 'destination_token',
  'amount_received', 'fee', 'fee_token', 'fee_usd', 'destination_address', 'deposit_tx', 'deposit_tx_link', 'payout_tx', 'payout_tx_link', 'refund_tx_link',
] as const;

type Cell = string | number | null | undefined;

/** RFC 4180 quoting; text a spreadsheet would run as a formula (=, +, -, @) is prefixed with '. */
export function csvCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function row(entry: HistoryEntry, d: SwapDetails | undefined): Cell[] {
  const date = new Date(d?.swap.created_date ? Date.parse(d.swap.created_date) : entry.createdAt).toISOString();
  if (!d) return [date, entry.swapId, 'unavailable', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''];
  const s = d.swap;
  const tx = (type: string) => s.transactions.find((t) => t.type === type);
  const input = tx('input');
  const output = tx('output');
  const refund = tx('refund');
  const link = (t: typeof input) => (t ? txExplorer(d, t) : undefined);
  return [
    date, s.id, s.status, s.source_network?.name, s.source_token?.symbol, input?.amount ?? s.requested_amount ?? d.quote?.requested_amount,
    s.destination_network?.name, s.destination_token?.symbol, output?.amount ?? (s.status === 'completed' ? d.quote?.receive_amount : undefined),
    d.quote?.total_fee, d.quote?.total_fee !== undefined && d.quote?.total_fee !== null ? s.source_token?.symbol : undefined, d.quote?.total_fee_in_usd,
    s.destination_address, input?.transaction_hash, link(input), output?.transaction_hash, link(output), link(refund),
  ];
}

export function swapsCsv(rows: ReadonlyArray<{ entry: HistoryEntry; details: SwapDetails | undefined }>): string {
  const lines = [CSV_COLUMNS.join(','), ...rows.map((r) => row(r.entry, r.details).map(csvCell).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

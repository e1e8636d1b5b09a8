import type { SwapDetails } from '../../layerswap/schemas.js';
import { txExplorer } from '../kernel/format.js';
import { moneyNumber, sentOf, swapMoney, type Money } from '../money/model.js';
import type { HistoryEntry } from '../kernel/stores.js';

/**
 * The CSV export of a user's swaps (for taxes and support): one row per swap, newest first, with
 * date, route, amounts, fees, status and transaction links. A swap that could not be loaded keeps
 * its row with what the bot recorded, and status "unavailable".
 * Column names and status values stay English whatever the user's language: the file is a
 * machine format that spreadsheets and tax tools read by header, like the service's own ids.
 */
const CSV_COLUMNS = [
  'date',
  'swap_id',
  'status',
  'source_network',
  'source_token',
  'amount_sent',
  'destination_network',
  'destination_token',
  'amount_received',
  'fee',
  'fee_token',
  'fee_usd',
  'destination_address',
  'deposit_tx',
  'deposit_tx_link',
  'payout_tx',
  'payout_tx_link',
  'refund_tx_link',
  // From the money model (src/bot/money): the same figures as the cards and the receipt.
  'source_exchange',
  'destination_exchange',
  'amount_asked',
  'service_fee',
  'network_fee',
  'refuel',
  'refuel_received',
  'refuel_received_token',
  'price_difference',
  'amount_refunded',
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
  if (!d) return [date, entry.swapId, 'unavailable', ...CSV_COLUMNS.slice(3).map(() => '')];
  const s = d.swap;
  const tx = (type: string) => s.transactions.find((t) => t.type === type);
  const input = tx('input');
  const output = tx('output');
  const refund = tx('refund');
  const link = (t: typeof input) => (t ? txExplorer(d, t) : undefined);
  const m = swapMoney(d, Date.now());
  // Numbers, not text: a negative price difference is a number, not a formula to guard.
  const num = (x: Money | undefined) => (x ? Number(moneyNumber(x)) : undefined);
  const sent = sentOf(m);
  const refuel = m.deductions.find((x) => x.kind === 'refuel');
  const price = m.deductions.find((x) => x.kind === 'price_difference');
  return [
    date,
    s.id,
    s.status,
    s.source_network?.name,
    s.source_token?.symbol,
    num(sent),
    s.destination_network?.name,
    s.destination_token?.symbol,
    num(m.received),
    d.quote?.total_fee,
    d.quote?.total_fee !== undefined && d.quote?.total_fee !== null ? s.source_token?.symbol : undefined,
    d.quote?.total_fee_in_usd,
    s.destination_address,
    input?.transaction_hash,
    link(input),
    output?.transaction_hash,
    link(output),
    link(refund),
    m.sourceExchange,
    m.destinationExchange,
    num(m.asked),
    num(m.deductions.find((x) => x.kind === 'service_fee')?.amount),
    num(m.deductions.find((x) => x.kind === 'network_fee')?.amount),
    num(refuel?.amount),
    refuel?.delivers?.amount,
    refuel?.delivers?.symbol,
    m.received ? num(price?.amount) : undefined,
    num(m.refund?.amount),
  ];
}

export function swapsCsv(rows: ReadonlyArray<{ entry: HistoryEntry; details: SwapDetails | undefined }>): string {
  const lines = [CSV_COLUMNS.join(','), ...rows.map((r) => row(r.entry, r.details).map(csvCell).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

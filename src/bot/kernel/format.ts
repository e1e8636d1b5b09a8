import type { NetworkRef, SwapDetails, Token, Transaction } from '../../layerswap/schemas.js';
import { defaultLocale, intlLocale, type Locale } from '../../i18n/index.js';
import { dateTimeFormat, numberFormat } from '../../i18n/intl.js';

/**
 * Numbers, names, addresses and times as a chat shows them. Amounts never use exponents or
 * thousands separators, so they can be copied back into a command.
 */
export function formatAmount(value: number | null | undefined, decimals = 8): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '?';
  const abs = Math.abs(value);
  const opts: Intl.NumberFormatOptions =
    abs !== 0 && abs < 0.0001
      ? { maximumSignificantDigits: 6, useGrouping: false }
      : { maximumFractionDigits: Math.max(0, Math.min(decimals, abs >= 1000 ? 4 : 8)), useGrouping: false };
  return numberFormat('en-US', opts).format(value);
}

/** An exact amount for a deposit: every decimal the token has, no rounding. */
export function exactAmount(value: number | null | undefined, decimals = 18): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '?';
  return numberFormat('en-US', { maximumFractionDigits: Math.min(Math.max(decimals, 0), 20), useGrouping: false }).format(value);
}

export function formatUsd(value: number | null | undefined): string | undefined {
  if (value === null || value === undefined || !Number.isFinite(value)) return undefined;
  return value < 0.01 && value > 0
    ? '<$0.01'
    : `$${numberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)}`;
}

export const networkName = (n: Pick<NetworkRef, 'name' | 'display_name'> | null | undefined): string =>
  n ? n.display_name || n.name : 'unknown network';

/**
 * One side of a swap as the user knows it: "Binance (Base)" when an exchange is that side (the
 * network alone would hide where the money comes from or goes), else the network.
 */
export function sideName(details: SwapDetails, side: 'source' | 'destination'): string {
  const s = details.swap;
  const network = networkName(side === 'source' ? s.source_network : s.destination_network);
  const e = side === 'source' ? s.source_exchange : s.destination_exchange;
  const exchange = e ? e.display_name || e.name : undefined;
  return exchange ? `${exchange} (${network})` : network;
}

export const tokenAmount = (amount: number | null | undefined, token: Pick<Token, 'symbol' | 'decimals'> | null | undefined): string =>
  `${formatAmount(amount, token?.decimals ?? undefined)} ${token?.symbol ?? ''}`.trim();

/** "0x12ab…cd34": enough to recognise an address, not enough to copy it. For public chats. */
export function maskAddress(addr: string | null | undefined): string {
  if (!addr) return '-';
  const a = addr.trim();
  if (a.length <= 8) return `${a.slice(0, 2)}…`;
  if (a.length <= 14) return `${a.slice(0, 4)}…${a.slice(-2)}`;
  return `${a.slice(0, 6)}…${a.slice(-4)}`;
}

/** "12:34 UTC" today, else with the date ("Jan 1, 2026 12:34 UTC", "1 янв. 2026 г. 12:34 UTC"), in the locale's way. */
export function formatTime(ms: number, now?: number, locale: Locale = defaultLocale()): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '?';
  const lang = intlLocale(locale);
  const time = `${dateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(d)} UTC`;
  const day = (at: Date) => at.toISOString().slice(0, 10);
  return now !== undefined && day(new Date(now)) === day(d)
    ? time
    : `${dateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(d)} ${time}`;
}

/** The swap's page in the official Layerswap app: where a deposit can be checked or made. */
export const swapPageUrl = (swapId: string): string => `https://layerswap.io/app/swap/${encodeURIComponent(swapId)}`;

/** A swap id shortened for titles: the first block of the UUID. */
export const shortId = (id: string): string => id.slice(0, 8);

/**
 * The one explorer link of a transaction: its own network's template, else the template of the
 * swap's network it ran on (by name, else by its type's side); only https templates ({0} = hash).
 */
export function txExplorer(details: SwapDetails, tx: Transaction): string | undefined {
  const { source_network: source, destination_network: destination } = details.swap;
  const side = tx.network ? [source, destination].find((n) => n?.name === tx.network?.name) : txOnSource(tx) ? source : destination;
  const template = tx.network?.transaction_explorer_template ?? side?.transaction_explorer_template;
  const hash = tx.transaction_hash;
  if (!template || !hash || !template.includes('{0}') || !/^https:\/\/[^\s]+$/.test(template)) return undefined;
  return template.replace('{0}', encodeURIComponent(hash));
}

/** Deposits and refunds run on the source network; payouts and refuels on the destination. */
export const txOnSource = (tx: Pick<Transaction, 'type'>): boolean => tx.type === 'input' || tx.type === 'refund';

import { isSwapId } from '../contracts/swap-id.js';
import { InvalidRequestError } from './errors.js';

/**
 * Request-side helpers: query strings the way the service reads them, amounts without
 * exponent notation, and swap ids checked before they go into a path.
 */

/** A parameter sent once per value (`statuses=A&statuses=B`), as GET /swaps reads its filters. */
export class Repeated {
  constructor(readonly values: readonly string[]) {}
}

export type QueryValue = string | number | boolean | readonly string[] | Repeated | null | undefined;

/** "?a=1&b=x,y", or "" when nothing is set. Absent values are left out; arrays are comma-joined, Repeated repeated. */
export function buildQuery(params: Readonly<Record<string, QueryValue>>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'number') q.set(key, formatNumber(value, key));
    else if (typeof value === 'boolean') q.set(key, value ? 'true' : 'false');
    else if (typeof value === 'string') q.set(key, value);
    else if (value instanceof Repeated) for (const v of value.values) q.append(key, v);
    // The service takes network_types as one comma-joined value (as the official SDK sends it).
    else if (value.length > 0) q.set(key, value.join(','));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * A decimal string without exponent: String(1e-7) is "1e-7", which a .NET decimal parser
 * rejects. Non-finite numbers are refused here so they never become "NaN" on the wire.
 */
/** One formatter for every request (building one per call costs ICU time and native memory). */
const WIRE_NUMBER = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 20 });

export function formatNumber(n: number, field: string, request = 'request'): string {
  if (!Number.isFinite(n)) throw new InvalidRequestError(request, field, `${field} must be a finite number`);
  return WIRE_NUMBER.format(n);
}

/**
 * The swap id as a path segment. Anything but a UUID is refused before a request is made, so user
 * text such as "../networks" never reaches the service as a path.
 */
export function swapIdSegment(id: unknown, request: string): string {
  if (typeof id !== 'string' || !isSwapId(id.trim())) {
    throw new InvalidRequestError(
      request,
      'swapId',
      `${quoteInput(id)} is not a swap id: a swap id is a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6`,
    );
  }
  return encodeURIComponent(id.trim().toLowerCase());
}

/**
 * A transaction hash as a path segment: EVM/Bitcoin hex, Solana base58, TON base64 (+ / =).
 * Anything else, or a hash of dots only, is refused before a request is made.
 */
export function transactionHashSegment(hash: unknown, request: string, field = 'transaction_hash'): string {
  const h = typeof hash === 'string' ? hash.trim() : '';
  if (!/^[A-Za-z0-9+/=_:.-]{8,200}$/.test(h) || !/[A-Za-z0-9]/.test(h)) {
    throw new InvalidRequestError(
      request,
      field,
      `${quoteInput(hash)} is not a transaction hash: give the hash (transaction id) as the explorer shows it, such as 0x5c50…e3b1`,
    );
  }
  return encodeURIComponent(h);
}

/** A required text parameter (an address, a network name): trimmed, not empty. */
export function requiredText(value: unknown, field: string, request: string): string {
  const v = typeof value === 'string' ? value.trim() : '';
  if (!v) throw new InvalidRequestError(request, field, `${field} is required (got ${quoteInput(value)})`);
  return v;
}

/** Untrusted input shown back in a message: printable, short. */
function quoteInput(value: unknown): string {
  if (typeof value !== 'string') return `a ${value === null ? 'null' : typeof value} value`;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '?');
  if (clean.length === 0) return 'an empty text';
  return `"${clean.length > 40 ? `${clean.slice(0, 40)}…` : clean}"`;
}

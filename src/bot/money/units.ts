import { decimalText } from './base-units.js';

/**
 * Money arithmetic in a token's smallest units (BigInt), so figures that are shown add up exactly
 * to the token's precision: a JSON number becomes units once (rounded half up), sums and
 * differences are exact, and units become text with never more decimals than the token has.
 */

/** Decimals used when the service did not say (cut-down tokens): enough for any common token. */
const UNKNOWN_DECIMALS = 8;

/** Valid decimals of a token, else the fallback. */
export const decimalsOf = (d: number | null | undefined): number =>
  typeof d === 'number' && Number.isInteger(d) && d >= 0 && d <= 30 ? d : UNKNOWN_DECIMALS;

/** A number in token units → integer smallest units, rounded half up ('ceil' rounds up). Undefined for non-numbers. */
export function toUnits(n: number | null | undefined, decimals: number, mode: 'round' | 'ceil' = 'round'): bigint | undefined {
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  const negative = n < 0;
  const text = decimalText(Math.abs(n));
  if (text === undefined) return undefined;
  const [int = '0', frac = ''] = text.split('.');
  const kept = BigInt(int + frac.slice(0, decimals).padEnd(decimals, '0'));
  const rest = frac.slice(decimals);
  let up = false;
  if (rest && /[1-9]/.test(rest)) up = mode === 'ceil' ? !negative : rest.charCodeAt(0) >= 53; // '5'
  const units = kept + (up ? 1n : 0n);
  return negative ? -units : units;
}

/** Integer smallest units → decimal text with at most `decimals` places, no trailing zeros, no grouping. */
export function unitsText(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const int = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** Units → a JS number (for USD and comparisons only; never shown as money). */
export const unitsValue = (units: bigint, decimals: number): number => Number(unitsText(units, decimals));

/** Units of one token expressed in another token's decimals (same asset, different decimals). */
export function rescale(units: bigint, from: number, to: number): bigint {
  if (from === to) return units;
  if (to > from) return units * 10n ** BigInt(to - from);
  const div = 10n ** BigInt(from - to);
  const q = units / div;
  const r = units % div;
  return r * 2n >= div ? q + 1n : q;
}

/** "1.1234567" for USDC (6) → "1.123457": an amount to send, rounded up so at least what was asked arrives. */
function sendableText(n: number | null | undefined, decimals: number | null | undefined): string | undefined {
  const d = decimalsOf(decimals);
  const u = toUnits(n, d, 'ceil');
  return u === undefined || u <= 0n ? undefined : unitsText(u, d);
}

/** Same rounding for decimal text (a deposit action's exact amount). */
export function sendableFromText(text: string, decimals: number | null | undefined): string {
  const n = Number(text);
  return Number.isFinite(n) && typeof decimals === 'number' && /\.\d+/.test(text) && (text.split('.')[1]?.length ?? 0) > decimals
    ? (sendableText(n, decimals) ?? text)
    : text;
}

/**
 * Exact amount arithmetic for money instructions: decimal text and integer base units (wei,
 * satoshi, lamports) converted with string and BigInt math, never through binary floats.
 */

/** Exact decimal text of an integer amount in base units ("1500000", 6 -> "1.5"). */
export function fromBaseUnits(base: string, decimals: number): string | undefined {
  if (!/^\d+$/.test(base) || !Number.isInteger(decimals) || decimals < 0 || decimals > 40) return undefined;
  const padded = base.replace(/^0+/, '').padStart(decimals + 1, '0');
  const int = padded.slice(0, padded.length - decimals);
  const frac = padded.slice(padded.length - decimals).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/**
 * "0.1" with 18 decimals -> "100000000000000000". Undefined when the text is not a plain
 * non-negative decimal or has more places than the token: such an amount cannot be sent exactly.
 */
export function toBaseUnits(decimal: string, decimals: number | null | undefined): string | undefined {
  if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 40) return undefined;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!m) return undefined;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) return undefined;
  return BigInt((m[1] ?? '0') + frac.padEnd(decimals, '0')).toString();
}

/**
 * A JSON number as the decimal text it was written as (JavaScript prints the shortest text that
 * reads back as the same number): 1e-7 -> "0.0000001". Undefined for NaN, infinities, negatives.
 */
export function decimalText(n: number | null | undefined): string | undefined {
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return undefined;
  const s = String(n);
  const m = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = (m[1] ?? '') + (m[2] ?? '');
  const point = (m[1] ?? '').length + Number(m[3]);
  const out =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return out.includes('.') ? out.replace(/0+$/, '').replace(/\.$/, '') : out;
}

/** Is this decimal text (or base-unit string) a positive amount? */
export const isPositive = (amount: string | null | undefined): boolean => !!amount && /[1-9]/.test(amount);

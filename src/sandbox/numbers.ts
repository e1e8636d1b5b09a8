/**
 * Decimal helpers. Amounts travel as JavaScript numbers in the API (as in the real JSON), so the
 * sandbox rounds them to a token's places explicitly and computes base units from decimal text,
 * never from binary floating point.
 */

const scale = (places: number) => 10 ** places;
/** Guards against 0.29 * 100 = 28.999999999999996 style artefacts when flooring and ceiling. */
const NUDGE = 1e-7;

export function roundTo(x: number, places: number): number {
  const f = scale(places);
  return Math.round(x * f + (x >= 0 ? NUDGE : -NUDGE)) / f;
}

export function floorTo(x: number, places: number): number {
  const f = scale(places);
  return Math.floor(x * f + NUDGE) / f;
}

export function ceilTo(x: number, places: number): number {
  const f = scale(places);
  return Math.ceil(x * f - NUDGE) / f;
}

/** A number as plain decimal text: 1e-7 becomes "0.0000001"; no exponent, no trailing zeros. */
export function toDecimalString(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const sign = m[1] ?? '';
  const int = m[2] ?? '0';
  const frac = m[3] ?? '';
  const digits = int + frac;
  const point = int.length + Number(m[4]);
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + trimDecimal(out);
}

/** "10.500" -> "10.5", "007" -> "7". */
export function trimDecimal(s: string): string {
  let [int = '0', frac = ''] = s.split('.');
  int = int.replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** Places after the point that matter: "1.2300" has 2. */
export function fractionDigits(decimal: string): number {
  return (trimDecimal(decimal).split('.')[1] ?? '').length;
}

/** "0.1" with 18 decimals -> "100000000000000000". Extra places are cut (callers reject them first). */
export function toBaseUnits(decimal: string, decimals: number): string {
  const [int = '0', frac = ''] = trimDecimal(decimal).split('.');
  const padded = (frac + '0'.repeat(decimals)).slice(0, decimals);
  return BigInt(int + padded).toString();
}

/** Seconds as a .NET TimeSpan string, the format of avg_completion_time: "00:02:30.5000000". */
export function formatTimeSpan(seconds: number): string {
  const ticks = Math.round(seconds * 1e7);
  const totalSeconds = Math.floor(ticks / 1e7);
  const fraction = ticks - totalSeconds * 1e7;
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const two = (v: number) => String(v).padStart(2, '0');
  return `${two(h)}:${two(m)}:${two(s)}.${String(fraction).padStart(7, '0')}`;
}

/** ISO-8601 with microseconds and an explicit offset, as the service writes dates. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000+00:00');
}

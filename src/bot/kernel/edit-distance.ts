/** Optimal string alignment distance (Levenshtein plus adjacent swaps), capped for speed. */
export function editDistance(a: string, b: string, cap = 8): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...new Array<number>(b.length).fill(0)]);
  const row0 = rows[0] as number[];
  for (let j = 0; j <= b.length; j++) row0[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const r = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (r[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      r[j] = v;
      best = Math.min(best, v);
    }
    if (best > cap) return cap + 1;
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** How far a typo may be from a name and still be suggested. */
export function typoAllowance(length: number): number {
  return length <= 3 ? 0 : length <= 5 ? 1 : 2;
}

/** Lowercase without spaces, underscores, dashes and dots: "Arbitrum One" -> "arbitrumone". */
export const normalizeName = (s: string): string => s.toLowerCase().replace(/[\s_.-]+/g, '');

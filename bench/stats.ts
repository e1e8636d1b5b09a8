/**
 * Small statistics for the benchmark: every figure is reported as the median of its repeats with
 * the min and max beside it, and latency samples as percentiles (nearest rank).
 */

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** The repeats, in the order they ran. */
  runs: number[];
}

export function spread(runs: readonly number[]): Spread {
  const finite = runs.filter((r) => Number.isFinite(r));
  if (finite.length === 0) return { median: NaN, min: NaN, max: NaN, runs: [...runs] };
  const sorted = [...finite].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, runs: [...runs] };
}

/**
 * a / b for figures measured at different moments (repeats cannot be paired): the ratio of the
 * medians, bounded by the extreme pairings.
 */
export function ratioOf(a: Spread, b: Spread): Spread {
  return { median: a.median / b.median, min: a.min / b.max, max: a.max / b.min, runs: [] };
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** Rounds for display: 3 significant digits below 100, whole numbers above. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  const a = Math.abs(n);
  if (a >= 100) return Math.round(n).toLocaleString('en-US');
  if (a >= 10) return n.toFixed(1);
  if (a >= 1) return n.toFixed(2);
  if (a === 0) return '0';
  return n.toPrecision(2);
}

/** "median (min-max)". */
export function fmtSpread(s: Spread): string {
  if (!Number.isFinite(s.median)) return 'n/a';
  if (s.min === s.max) return fmt(s.median);
  return `${fmt(s.median)} (${fmt(s.min)}-${fmt(s.max)})`;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns true or the deadline passes; returns whether it succeeded. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

const benchStart = Date.now();
/** A progress line on stderr, with the seconds since the run began. */
export function progress(message: string): void {
  process.stderr.write(`[bench +${((Date.now() - benchStart) / 1000).toFixed(0)}s]   ${message}\n`);
}

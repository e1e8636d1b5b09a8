import { createHash } from 'node:crypto';

/**
 * Observed arrival times per route (source network and token → destination network and token):
 * what the tracker saw of recent completed swaps, kept as fixed-bucket histograms so a route's
 * summary stays small (a few hundred bytes) whatever its traffic. Written by tracking
 * (tracking/route-times.ts, scripts/routeTime-1.lua) when a followed swap completes; read by the
 * quote card, the status card and the stuck alert. Shared here so neither side imports the other;
 * the read itself (Redis) is tracking/route-times.ts's readRouteTimes: contracts/ does no I/O.
 *
 * Storage: one hash per route, `<prefix>:trk:route:{<route id>}`, a field per week slot and kind
 * (`<slot>:s` deposit seen → completed, `<slot>:c` deposit confirmed → completed) holding the
 * bucket counts comma-separated. Slots older than ROUTE_TIMES_WEEKS are dropped on each write and
 * the key expires after that long without one: the figures are recent by construction.
 */

/**
 * Upper bounds of the buckets, in seconds (each reads as a round duration: "within 2 minutes");
 * a last, open bucket holds anything longer. NEVER reorder: stored counts are by position.
 */
export const BUCKET_BOUNDS_S: readonly number[] = [
  10, 20, 30, 60, 120, 180, 300, 420, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200, 10800, 21600, 43200, 86400,
];
export const BUCKET_COUNT = BUCKET_BOUNDS_S.length + 1;
export const ROUTE_TIMES_WEEKS = 4;
export const WEEK_MS = 7 * 24 * 3_600_000;
/** Fewer completed swaps than this behind a figure: the service's own estimate is shown instead. */
const MIN_ROUTE_SAMPLES = 5;
/** The stuck alert uses the route's p99 only with at least this many swaps behind it. */
export const MIN_STUCK_SAMPLES = 20;

export type RouteTimeKind = 's' | 'c';

/**
 * A route's id: 8 characters of a digest of its network names and token symbols, upper-cased
 * ("ARBITRUM_MAINNET/USDC>BASE_MAINNET/USDC"). Short because every followed swap's state keeps
 * it (the per-swap memory budget); 48 bits keep thousands of routes apart.
 */
export function routeTimesId(r: {
  sourceNetwork: string;
  sourceToken: string;
  destinationNetwork: string;
  destinationToken: string;
}): string {
  const name = `${r.sourceNetwork}/${r.sourceToken}>${r.destinationNetwork}/${r.destinationToken}`.toUpperCase();
  return createHash('sha1').update(name).digest('base64url').slice(0, 8);
}

/** The route of a swap's details, when all four names are there. */
export function routeOfSwap(swap: {
  source_network?: { name?: string | null } | null;
  source_token?: { symbol?: string | null } | null;
  destination_network?: { name?: string | null } | null;
  destination_token?: { symbol?: string | null } | null;
}): string | undefined {
  const sourceNetwork = swap.source_network?.name;
  const sourceToken = swap.source_token?.symbol;
  const destinationNetwork = swap.destination_network?.name;
  const destinationToken = swap.destination_token?.symbol;
  if (!sourceNetwork || !sourceToken || !destinationNetwork || !destinationToken) return undefined;
  return routeTimesId({ sourceNetwork, sourceToken, destinationNetwork, destinationToken });
}

/** The bucket a duration falls in. */
export function bucketOf(ms: number): number {
  const s = ms / 1000;
  const i = BUCKET_BOUNDS_S.findIndex((b) => s <= b);
  return i < 0 ? BUCKET_BOUNDS_S.length : i;
}

/** A bucket's upper bound in ms (the open last bucket: its lower bound). */
const bucketBoundMs = (i: number): number => (BUCKET_BOUNDS_S[Math.min(i, BUCKET_BOUNDS_S.length - 1)] as number) * 1000;

/** One kind of duration on one route, over the kept weeks. */
export interface Distribution {
  count: number;
  /** Bucket upper bounds (ms) by quantile: a swap at the median was done by p50Ms. */
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** "within of count swaps arrived within withinMs": the p90 bucket's bound and the swaps up to it. */
  within: number;
  withinMs: number;
}

export interface RouteTimes {
  /** Deposit seen → completed. */
  seen?: Distribution;
  /** Deposit confirmed (ls_transfer_pending) → completed. */
  confirmed?: Distribution;
}

/** Quantiles of bucket counts; undefined when empty. */
function distribution(counts: readonly number[]): Distribution | undefined {
  const count = counts.reduce((a, b) => a + b, 0);
  if (count === 0) return undefined;
  const at = (q: number) => {
    let cum = 0;
    for (let i = 0; i < counts.length; i++) {
      cum += counts[i] ?? 0;
      if (cum >= q * count) return { i, cum };
    }
    return { i: counts.length - 1, cum };
  };
  const p90 = at(0.9);
  return {
    count,
    p50Ms: bucketBoundMs(at(0.5).i),
    p90Ms: bucketBoundMs(p90.i),
    p99Ms: bucketBoundMs(at(0.99).i),
    within: p90.cum,
    withinMs: bucketBoundMs(p90.i),
  };
}

/** The hash's fields summed over the kept weeks (older slots are ignored even before a write prunes them). */
export function summarizeRouteTimes(fields: Record<string, string>, now: number): RouteTimes {
  const oldest = Math.floor(now / WEEK_MS) - ROUTE_TIMES_WEEKS + 1;
  const sums: Record<RouteTimeKind, number[]> = { s: new Array<number>(BUCKET_COUNT).fill(0), c: new Array<number>(BUCKET_COUNT).fill(0) };
  for (const [field, value] of Object.entries(fields)) {
    const m = /^(\d+):([sc])$/.exec(field);
    if (!m || Number(m[1]) < oldest) continue;
    const into = sums[m[2] as RouteTimeKind];
    value.split(',').forEach((n, i) => {
      if (i < BUCKET_COUNT) into[i] = (into[i] ?? 0) + (Number(n) || 0);
    });
  }
  const seen = distribution(sums.s);
  const confirmed = distribution(sums.c);
  return { ...(seen ? { seen } : {}), ...(confirmed ? { confirmed } : {}) };
}

/** The figure worth showing: enough swaps behind it, else nothing (the service's estimate stays). */
export function shownDistribution(d: Distribution | undefined): Distribution | undefined {
  return d && d.count >= MIN_ROUTE_SAMPLES ? d : undefined;
}

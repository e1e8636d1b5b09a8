/**
 * When a deposit's next confirmation can have happened, from the polls that watched it: the
 * evidence behind pacing confirmation polls with webhooks trusted (cadence.ts), where no webhook
 * announces a confirmation and a poll per block is the budget.
 *
 * Model: blocks come at a steady pace, so confirmation c happens at phi + c * B for an unknown
 * phase phi and block time B. Each poll that saw count c says t(c) <= that poll < t(c + 1); per
 * count we keep the first and the last poll that saw it (the tightest of those bounds). The pairs
 * bound B exactly (two linear inequalities per pair), and those bounds give the earliest and the
 * latest moment the target count can arrive. A poll aimed at the latest moment sees it for sure,
 * at most the window's width after it happened; while the window is wide, polls aimed inside it
 * narrow it (a hit lowers its end, a miss raises its start), so after a few blocks one poll per
 * confirmation is enough. Irregular blocks (a late one, a missed slot) make the evidence
 * contradict the model: then only the newest count is kept and the learning starts again.
 */

/** Per count the deposit had: [count, first poll that saw it, last poll that saw it] (ms). */
export type ConfirmationPolls = ReadonlyArray<readonly [count: number, first: number, last: number]>;

/** At most this many counts are kept (the newest): enough to learn the pace, bounded in Redis. */
const MAX_COUNTS = 16;

/** The evidence after a poll saw `count` at `now`: the same count extends its entry, a new one is added. */
export function recordConfirmationPoll(polls: ConfirmationPolls | undefined, count: number, now: number): ConfirmationPolls {
  const list = polls ?? [];
  const last = list.at(-1);
  if (last && last[0] === count) return [...list.slice(0, -1), [count, last[1], Math.max(last[2], now)]];
  // A count that went down (a reorg, an indexer that caught up wrongly) voids the older evidence.
  if (last && count < last[0]) return [[count, now, now]];
  return [...list, [count, now, now] as const].slice(-MAX_COUNTS);
}

export interface PaceWindow {
  /** The target count cannot have arrived before this moment (ms)... */
  earliest: number;
  /** ...and has arrived by this one, if blocks keep their pace. */
  latest: number;
  /** The window if the block time is `blockMs`: narrower, as sure as that estimate. */
  atEstimate: { earliest: number; latest: number };
  /** The evidence bounds the block time on both sides (two counts or more apart were seen). */
  measured: boolean;
  /** The block time: the middle of what the evidence allows once it bounds both ends, else the prior kept inside it (ms). */
  blockMs: number;
  /** The shortest block time the evidence allows, once counts seen apart bound it (ms). */
  fastestMs?: number;
}

/**
 * The window for `target` (a count above every one seen). `prior` is the block time believed so
 * far (the network's table, or what was learned); where the evidence leaves B unbounded, a
 * quarter..4x of it bounds it, so a single count's evidence still gives a window. Returns undefined when the evidence
 * contradicts a steady pace (the caller then keeps the newest count only).
 */
export function paceWindow(polls: ConfirmationPolls, target: number, prior: number): PaceWindow | undefined {
  let bMin = 1;
  let bMax = Infinity;
  let measured = 0;
  // Every pair (i seen earlier as count ci, j as cj): last_i < t(ci + 1) <= t(cj) <= first_j, i.e.
  // last_i - (ci + 1) B < phi <= first_j - cj B for one phi: B (cj - ci - 1) < first_j - last_i.
  for (const [ci, , lastI] of polls) {
    for (const [cj, firstJ] of polls) {
      const k = cj - ci - 1;
      const gap = firstJ - lastI;
      if (k > 0 && gap / k < bMax) {
        bMax = gap / k;
        measured |= 2;
      } else if (k < 0 && gap / k > bMin) {
        bMin = gap / k;
        // One count seen for a while bounds B too, but says nothing of the pace between counts.
        if (cj !== ci) measured |= 1;
      } else if (k === 0 && gap <= 0) return undefined;
    }
  }
  if (bMin > bMax) return undefined;
  // The prior bounds only a side the evidence leaves open, so a table 10x off is no contradiction.
  if (!(measured & 2)) bMax = Math.max(prior * 4, bMin);
  if (!(measured & 1)) bMin = Math.min(Math.max(prior / 4, bMin), bMax);
  const blockMs = measured === 3 ? (bMin + bMax) / 2 : Math.min(Math.max(prior, bMin), bMax);
  // t(target) = phi + target B, with phi within [max last_i - (ci + 1) B, min first_j - cj B]: its
  // latest is at the largest B, its earliest at the smallest (both bounds rise with B).
  const bound = (b: number) => {
    let hi = Infinity;
    let lo = -Infinity;
    for (const [c, first, last] of polls) {
      hi = Math.min(hi, first + (target - c) * b);
      lo = Math.max(lo, last + (target - c - 1) * b);
    }
    return { lo, hi };
  };
  const at = bound(blockMs);
  return {
    earliest: bound(bMin).lo,
    latest: bound(bMax).hi,
    atEstimate: { earliest: at.lo, latest: at.hi },
    blockMs,
    measured: measured === 3,
    ...(measured & 1 ? { fastestMs: bMin } : {}),
  };
}

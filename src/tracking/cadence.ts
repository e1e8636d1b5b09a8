import { FINAL_SWAP_STATUSES } from '../layerswap/schemas.js';

/**
 * When to poll a swap next: a pure policy over what the poller knows.
 *
 * - final status: never (the poll job ends);
 * - a deposit seen, ls_transfer_pending or pending_refund: fast (funds are moving, and every
 *   confirmation is news to the chat; pacing these by the expected completion time was tried and
 *   cost 4-5 s of update latency per confirmation for a 2x -> 3.5x request saving);
 * - waiting for a deposit: slow, x2 after 10 minutes of waiting, x6 after an hour (2 min with the
 *   default 20 s). The back-off scales with slowMs rather than being absolute, so tests with small
 *   cadences keep small waits even when a sandbox clock jumps hours ahead.
 * - failed because the deposit was above the maximum: Layerswap reviews such deposits for up to
 *   2 hours and may still complete the swap, so keep looking (slowly) for 3 hours;
 * - jitter (0..1) stretches the delay by up to 10% so thousands of pollers do not align.
 */

export interface CadenceSettings {
  fastMs: number;
  slowMs: number;
}

export interface CadenceInput {
  status: string;
  /** An input transaction exists (the deposit was seen), whatever the status says. */
  depositSeen: boolean;
  /** How long the poller has been waiting for a deposit (ms). */
  waitingMs: number;
  failReason?: string | null;
  /** How long the swap has been in its current status (ms). */
  statusAgeMs?: number;
  /** A random number in [0, 1); 0 gives the exact base delay. */
  jitter?: number;
}

export const LONG_WAIT_MS = 10 * 60_000;
export const VERY_LONG_WAIT_MS = 60 * 60_000;
export const ON_HOLD_WATCH_MS = 3 * 60 * 60_000;
const FAST_STATUSES: ReadonlySet<string> = new Set(['ls_transfer_pending', 'pending_refund']);

export function isFinalStatus(status: string): boolean {
  return FINAL_SWAP_STATUSES.has(status);
}

/** Delay before the next poll in ms, or null when polling should stop. */
export function nextPollDelay(input: CadenceInput, settings: CadenceSettings): number | null {
  let base: number;
  if (isOnHold(input)) base = settings.slowMs * 6;
  else if (isFinalStatus(input.status)) return null;
  else if (input.depositSeen || FAST_STATUSES.has(input.status)) base = settings.fastMs;
  else if (input.waitingMs >= VERY_LONG_WAIT_MS) base = settings.slowMs * 6;
  else if (input.waitingMs >= LONG_WAIT_MS) base = settings.slowMs * 2;
  else base = settings.slowMs;
  const jitter = Math.min(Math.max(input.jitter ?? 0, 0), 1);
  return Math.round(base * (1 + 0.1 * jitter));
}

function isOnHold(input: CadenceInput): boolean {
  return input.status === 'failed' && input.failReason === 'received_more_than_valid_range' && (input.statusAgeMs ?? Infinity) < ON_HOLD_WATCH_MS;
}

/**
 * Back-off for the whole poll queue while the swap service fails (5xx, timeouts): 1 s, 2 s, 4 s
 * ... up to 60 s, scaled down with small cadences so tests stay quick. A Retry-After wins when
 * the service sends one.
 */
export function outageDelay(consecutiveFailures: number, settings: CadenceSettings, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs > 0) return Math.min(retryAfterMs, 10 * 60_000);
  const unit = Math.min(1000, settings.fastMs);
  const cap = Math.min(60_000, settings.slowMs * 3);
  const n = Math.max(1, consecutiveFailures);
  return Math.min(cap, unit * 2 ** Math.min(n - 1, 16));
}

/**
 * The wait after the nth "not found" in a row: a proxy glitch or replica lag right after creation
 * passes in seconds to minutes, so back off from slowMs, doubling, to 6 x slowMs (2 min by default).
 */
export function notFoundDelay(strikes: number, settings: CadenceSettings): number {
  return Math.min(settings.slowMs * 2 ** Math.min(Math.max(strikes - 1, 0), 8), settings.slowMs * 6);
}

/** quote.avg_completion_time (a .NET TimeSpan) in ms: the client's parser, re-exported for the poller. */
export { parseTimeSpan } from '../layerswap/timespan.js';

/** When no expected completion time is known, a swap counts as stuck after factor x this. */
export const DEFAULT_EXPECTED_COMPLETION_MS = 5 * 60_000;

/** True once ls_transfer_pending has lasted longer than factor x the expected completion time. */
export function isStuck(pendingForMs: number, expectedMs: number | undefined, factor: number): boolean {
  const expected = expectedMs && expectedMs > 0 ? expectedMs : DEFAULT_EXPECTED_COMPLETION_MS;
  // Very short estimates ("00:00:05") would call a swap stuck within seconds: floor at one minute.
  return pendingForMs > factor * Math.max(expected, 60_000);
}

import { DEFAULT_EXPECTED_COMPLETION_MS } from '../contracts/tracking.js';
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
 *
 * When webhooks are trusted (LAYERSWAP_WEBHOOK_SECRET set), a webhook pulls the poll forward at
 * each status change, so polling is mostly a safety net: every `safetyMs` (5 min) while the payout
 * is on its way and after the first 10 minutes of waiting; slow for those first 10 minutes (no
 * webhook announces a deposit that is only seen); fast for a short tail after each change (the
 * status often lags the transactions it lists); and while the deposit gathers confirmations (no
 * webhook for those), one poll per block of the source network (blockTimeMs), never faster than
 * the fast cadence.
 */

export interface CadenceSettings {
  fastMs: number;
  slowMs: number;
  webhooks?: WebhookCadence;
}

export interface WebhookCadence {
  /** The safety poll while a webhook is expected (default 5 min). */
  safetyMs: number;
  /** After a change, poll fast this long (default 30 s). */
  tailMs: number;
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
  /** How long since the last change a chat would see (ms). */
  sinceChangeMs?: number;
  /** The deposit is seen and gathers confirmations. */
  confirming?: boolean;
  /** The source network's block time (ms), when known. */
  blockMs?: number;
}

const LONG_WAIT_MS = 10 * 60_000;
const VERY_LONG_WAIT_MS = 60 * 60_000;
const ON_HOLD_WATCH_MS = 3 * 60 * 60_000;
const FAST_STATUSES: ReadonlySet<string> = new Set(['ls_transfer_pending', 'pending_refund']);

export function isFinalStatus(status: string): boolean {
  return FINAL_SWAP_STATUSES.has(status);
}

/** Delay before the next poll in ms, or null when polling should stop. */
export function nextPollDelay(input: CadenceInput, settings: CadenceSettings): number | null {
  let base: number;
  if (isOnHold(input)) base = settings.slowMs * 6;
  else if (isFinalStatus(input.status)) return null;
  else if (settings.webhooks) base = withWebhooks(input, settings, settings.webhooks);
  else if (input.depositSeen || FAST_STATUSES.has(input.status)) base = settings.fastMs;
  else if (input.waitingMs >= VERY_LONG_WAIT_MS) base = settings.slowMs * 6;
  else if (input.waitingMs >= LONG_WAIT_MS) base = settings.slowMs * 2;
  else base = settings.slowMs;
  const jitter = Math.min(Math.max(input.jitter ?? 0, 0), 1);
  return Math.round(base * (1 + 0.1 * jitter));
}

function withWebhooks(input: CadenceInput, settings: CadenceSettings, w: WebhookCadence): number {
  const sinceChange = input.sinceChangeMs ?? Infinity;
  if (input.confirming) {
    // The next confirmation is due one block after the last one; never faster than the fast
    // cadence (a 1 s chain would otherwise cost more than fixed polling), and a miss retries at it.
    const due = (input.blockMs ?? DEFAULT_BLOCK_MS) - sinceChange;
    return Math.max(due, settings.fastMs);
  }
  if (sinceChange < w.tailMs) return settings.fastMs;
  // Layerswap sends no webhook when a deposit is first seen (the status stays
  // user_transfer_pending until it is confirmed), so a fresh swap is still polled at the slow
  // cadence for the usual deposit window; only after that is the safety net enough.
  if (!input.depositSeen && !FAST_STATUSES.has(input.status) && input.waitingMs < LONG_WAIT_MS) return Math.min(settings.slowMs, w.safetyMs);
  return w.safetyMs;
}

/**
 * About how long one block (one more confirmation) takes on a network, by name, else by family;
 * 5 s when unknown. Confirmation polls follow this pace when webhooks are trusted.
 */
const BLOCK_MS_BY_NAME: ReadonlyArray<[RegExp, number]> = [
  [/^ETHEREUM|^SEPOLIA|^HOLESKY/, 12_000],
  [/^ARBITRUM/, 1_000],
  [/^(OPTIMISM|BASE|ZORA|MODE|LISK|UNICHAIN|INK|SONEIUM|WORLDCHAIN)/, 2_000],
  [/^(POLYGON|AVAX|AVALANCHE|LINEA|BLAST|MANTLE)/, 2_000],
  [/^(BSC|BNB|SCROLL|TRON|TAIKO)/, 3_000],
  [/^ZKSYNC/, 1_000],
  [/^(SOLANA|ECLIPSE|SOON)/, 1_000],
  [/^TON/, 5_000],
  [/^(STARKNET|PARADEX)/, 30_000],
  [/^BITCOIN/, 600_000],
];
const BLOCK_MS_BY_TYPE: Readonly<Record<string, number>> = { evm: 2_000, solana: 1_000, ton: 5_000, tron: 3_000, starknet: 30_000, bitcoin: 600_000, fuel: 1_000 };
const DEFAULT_BLOCK_MS = 5_000;

export function blockTimeMs(network: { name?: string | null; type?: string | null } | null | undefined): number {
  const name = (network?.name ?? '').toUpperCase();
  for (const [re, ms] of BLOCK_MS_BY_NAME) if (re.test(name)) return ms;
  return BLOCK_MS_BY_TYPE[(network?.type ?? '').toLowerCase()] ?? DEFAULT_BLOCK_MS;
}

/** The deposit is listed and still gathers confirmations. */
export function confirming(txs: ReadonlyArray<{ type: string; status: string | null; confirmations: number | null; maxConfirmations: number | null }>): boolean {
  return txs.some((t) => t.type === 'input' && t.status !== 'completed' && (t.maxConfirmations ?? 0) > (t.confirmations ?? 0));
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


/** True once ls_transfer_pending has lasted longer than factor x the expected completion time. */
export function isStuck(pendingForMs: number, expectedMs: number | undefined, factor: number): boolean {
  const expected = expectedMs && expectedMs > 0 ? expectedMs : DEFAULT_EXPECTED_COMPLETION_MS;
  // Very short estimates ("00:00:05") would call a swap stuck within seconds: floor at one minute.
  return pendingForMs > factor * Math.max(expected, 60_000);
}

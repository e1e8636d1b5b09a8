import { DEFAULT_EXPECTED_COMPLETION_MS } from '../contracts/tracking.js';
import { FINAL_SWAP_STATUSES } from '../layerswap/schemas.js';
import { paceWindow, type ConfirmationPolls } from './confirmation-pace.js';

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
 * each status change, so polling follows what no webhook announces and is otherwise a safety net:
 * - waiting for a deposit: every `waitingPollMs` (POLL_WAITING_MS, 1 min) for the deposit window
 *   (the first 30 min, when deposits normally arrive), then the safety poll only (`safetyMs`,
 *   5 min). Layerswap sends no webhook when a deposit is first seen (the status stays
 *   user_transfer_pending while it confirms), and a card saying "send" after the money left must
 *   not last: these polls bound that, and "I've sent it" pulls a poll at once (pollNow);
 * - a deposit gathering confirmations (no webhook for those either): paced by the swap's own
 *   blocks (`confirmationDelay`): each poll's evidence of when each count arrived
 *   (confirmation-pace.ts, kept by observe.ts) gives the window in which the next one must
 *   arrive if blocks keep their pace, and the poll is aimed at its end once it is narrow, late
 *   inside it while it is wide (about 1.3 polls per confirmation, each seen 1-2 s after), and never
 *   later than about a block past the fastest pace the evidence allows, with
 *   lengthening retries for a block later than its window; on a chain faster than the fast
 *   cadence, several confirmations at a time; the last one turns the status, so its webhook
 *   normally comes first;
 * - funds moving (ls_transfer_pending, pending_refund): every 2 x the fast cadence for a short tail
 *   after each change (the status often lags the transactions it lists, and no webhook tells of
 *   a payout listed before the status turns), then the safety poll; the final status comes with
 *   its webhook.
 */

export interface CadenceSettings {
  fastMs: number;
  slowMs: number;
  webhooks?: WebhookCadence;
}

export interface WebhookCadence {
  /** The safety poll while a webhook is expected (default 5 min). */
  safetyMs: number;
  /** While waiting for a deposit in the deposit window (POLL_WAITING_MS, default 1 min). */
  waitingPollMs: number;
  /** After a change while funds move, poll fast this long (default 30 s). */
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
  /** The deposit is seen and gathers confirmations: how many it has and needs (depositConfirmations). */
  confirmations?: Confirmations;
  /** The source network's block time (ms), when known: learned from the swap, else the table below. */
  blockMs?: number;
  /** The polls that saw each confirmation count (observe.ts), and the time of this decision: to aim at the next one. */
  confirmationPolls?: ConfirmationPolls;
  now?: number;
}

const LONG_WAIT_MS = 10 * 60_000;
/** With webhooks, waiting swaps get the waiting poll this long after they are first polled. */
export const DEPOSIT_WINDOW_MS = 30 * 60_000;
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
  // Aimed at the swap's own blocks, which spread such polls already: jitter would only add lag.
  else if (settings.webhooks && input.confirmations)
    return Math.min(confirmationPollDelay(input, input.confirmations, settings), settings.webhooks.safetyMs);
  else if (settings.webhooks) base = withWebhooks(input, settings, settings.webhooks);
  else if (input.depositSeen || FAST_STATUSES.has(input.status)) base = settings.fastMs;
  else if (input.waitingMs >= VERY_LONG_WAIT_MS) base = settings.slowMs * 6;
  else if (input.waitingMs >= LONG_WAIT_MS) base = settings.slowMs * 2;
  else base = settings.slowMs;
  const jitter = Math.min(Math.max(input.jitter ?? 0, 0), 1);
  return Math.round(base * (1 + 0.1 * jitter));
}

function confirmationPollDelay(input: CadenceInput, c: Confirmations, settings: CadenceSettings): number {
  return confirmationDelay(
    c,
    input.sinceChangeMs ?? Infinity,
    input.blockMs ?? DEFAULT_BLOCK_MS,
    settings.fastMs,
    input.confirmationPolls,
    input.now,
  );
}

function withWebhooks(input: CadenceInput, settings: CadenceSettings, w: WebhookCadence): number {
  const sinceChange = input.sinceChangeMs ?? Infinity;
  const moving = input.depositSeen || FAST_STATUSES.has(input.status);
  if (moving) return sinceChange < w.tailMs ? 2 * settings.fastMs : w.safetyMs;
  return input.waitingMs < DEPOSIT_WINDOW_MS ? Math.min(w.waitingPollMs, w.safetyMs) : w.safetyMs;
}

/** Before any evidence: aim this share of the way to the next expected confirmation, so a late block costs a retry, not a block. */
const AIM = 0.85;
/** A retry after a miss: this share of the wait for the target confirmation (at least a fifth of the fast cadence). */
const RETRY = 0.2;
/**
 * Inside a wide window once the block time is measured: this far into the window the estimate
 * gives. Polls that hit say only "by then", so aiming late hits more and narrows the window more
 * slowly. On the bench's lifecycle (bench/economy.ts: 12 confirmations 9 s apart, the table
 * saying 12 s), simulated with this module: 0.5 -> 1.35 polls per confirmation and 1.5 s mean
 * lag, 0.8 -> 1.2 and 2.0 s, 1 -> 1.0 and 3.6 s (polling every 5 s: 2.5 s).
 */
const LATE_SHARE = 0.8;

/**
 * With webhooks, the wait for the next confirmation worth a poll. The target is the next
 * confirmation, or several when blocks come faster than the fast cadence (so polls are at least
 * a fast interval apart), never past the last. The last one turns the status to
 * ls_transfer_pending and its webhook pulls the poll, so it is aimed just after it is due (a
 * backstop for a lost webhook). An earlier one is aimed with the swap's own evidence
 * (confirmation-pace.ts): at the latest moment it can have happened once that moment is known
 * within a small tolerance (one poll, a short lag), else inside the window (its middle until the
 * block time is measured, then LATE_SHARE of the way in; each hit or miss narrows it); a block
 * later than its window gets lengthening retries. With
 * no evidence yet (`polls` absent), a little before the block is due (AIM), then retries.
 */
export function confirmationDelay(
  c: Confirmations,
  sinceChangeMs: number,
  blockMs: number,
  fastMs: number,
  polls?: ConfirmationPolls,
  now = 0,
): number {
  const prior = Math.max(blockMs, 1);
  const window = (target: number) => (polls?.length ? paceWindow(polls, target, prior) : undefined);
  const next = window(c.seen + 1);
  const block = next?.blockMs ?? prior;
  const step = Math.max(1, Math.ceil(fastMs / block));
  const target = Math.min(c.seen + step, c.needed);
  const span = Math.max(target - c.seen, 1) * block;
  const retry = Math.max(RETRY * span, fastMs / 5);
  const w = target === c.seen + 1 ? next : window(target);
  let due: number;
  // Never sooner than a retry: a due moment a few ms away is as good as missed.
  if (!w) return Math.round(Math.max((target >= c.needed ? span + retry : AIM * span) - sinceChangeMs, retry));
  if (target >= c.needed) due = w.latest + retry - now;
  else {
    const start = Math.max(w.earliest, now);
    // A few ms past the latest moment, so a block right on it is not missed by clock noise.
    const margin = block / 50;
    // Later than its window (an irregular block): retries that lengthen as it stays late, up to the fast cadence.
    if (w.latest <= start) due = Math.min(Math.max(retry, now - w.latest), fastMs);
    else if (w.latest - start <= Math.min(fastMs / 5, block / 8)) due = w.latest + margin - now;
    // Inside a wide window: in its middle until the pace is measured, then late in it (LATE_SHARE),
    // but a retry at least after this poll (a miss must not walk the next polls ever closer to a
    // moment the block has not reached).
    else {
      const { earliest, latest } = w.atEstimate;
      due =
        Math.min(Math.max(earliest + (w.measured ? LATE_SHARE : 0.5) * (latest - earliest) + margin, start + retry), w.latest + margin) -
        now;
    }
    // However it aims, a poll waits at most one block plus half a fast interval past the moment
    // the target can first have come, at the fastest pace the evidence allows, and at most such a
    // block (a fast interval at least) plus half one from now: a chain faster than the table (4 s
    // blocks believed 12 s), or a short block after long ones, is seen within about a block.
    if (w.fastestMs !== undefined)
      due = Math.min(due, w.earliest + w.fastestMs + fastMs / 2 - now, Math.max(w.fastestMs, fastMs) + fastMs / 2);
  }
  // Never two polls closer than a fifth of the fast cadence.
  return Math.round(Math.max(due, fastMs / 5));
}

/**
 * About how long one block (one more confirmation) takes on a network, by name, else by family;
 * 5 s when unknown (the catalogue has no block time). With webhooks trusted, confirmation polls
 * start at this pace; observe.ts then learns the swap's own.
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
const BLOCK_MS_BY_TYPE: Readonly<Record<string, number>> = {
  evm: 2_000,
  solana: 1_000,
  ton: 5_000,
  tron: 3_000,
  starknet: 30_000,
  bitcoin: 600_000,
  fuel: 1_000,
};
const DEFAULT_BLOCK_MS = 5_000;

export function blockTimeMs(network: { name?: string | null; type?: string | null } | null | undefined): number {
  const name = (network?.name ?? '').toUpperCase();
  for (const [re, ms] of BLOCK_MS_BY_NAME) if (re.test(name)) return ms;
  return BLOCK_MS_BY_TYPE[(network?.type ?? '').toLowerCase()] ?? DEFAULT_BLOCK_MS;
}

export interface Confirmations {
  seen: number;
  needed: number;
}

/** The deposit's confirmations while it is listed and still gathers them; undefined otherwise. */
export function depositConfirmations(
  txs: ReadonlyArray<{ type: string; status: string | null; confirmations: number | null; maxConfirmations: number | null }>,
): Confirmations | undefined {
  const input = txs.find((t) => t.type === 'input' && t.status !== 'completed' && (t.maxConfirmations ?? 0) > (t.confirmations ?? 0));
  return input ? { seen: input.confirmations ?? 0, needed: input.maxConfirmations ?? 0 } : undefined;
}

function isOnHold(input: CadenceInput): boolean {
  return (
    input.status === 'failed' && input.failReason === 'received_more_than_valid_range' && (input.statusAgeMs ?? Infinity) < ON_HOLD_WATCH_MS
  );
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

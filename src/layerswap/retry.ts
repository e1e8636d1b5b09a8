import { ApiError, ConnectionError, TimeoutError } from './errors.js';

/**
 * When and how long to wait before trying a GET again (after openai-node and stripe-node):
 * connection failures, timeouts, 408, 429 and 5xx are worth another try; the service's own
 * Retry-After wins over our backoff, but only up to a cap, past which waiting is worse than
 * telling the user now.
 */

const RETRY_AFTER_CAP_MS = 60_000;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

function isRetryable(err: unknown): boolean {
  if (err instanceof ConnectionError || err instanceof TimeoutError) return true;
  if (err instanceof ApiError) return err.status === 408 || err.status === 429 || err.status >= 500;
  return false;
}

/** 0.5 s · 2^retry, capped at 8 s, minus up to 25% jitter so many clients do not retry in step. */
function backoffMs(retry: number, random: () => number): number {
  const base = Math.min(BASE_DELAY_MS * 2 ** retry, MAX_DELAY_MS);
  return Math.round(base * (1 - 0.25 * clamp01(random())));
}

/** The wait before the next try, or undefined when the error must surface now. */
export function retryDelayMs(err: unknown, retry: number, random: () => number): number | undefined {
  if (!isRetryable(err)) return undefined;
  const hinted = err instanceof ApiError ? err.retryAfterMs : undefined;
  if (hinted === undefined) return backoffMs(retry, random);
  return hinted <= RETRY_AFTER_CAP_MS ? hinted : undefined;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

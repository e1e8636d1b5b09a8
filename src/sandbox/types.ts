import type { SandboxSolana } from './solana.js';
import type { SandboxChain, SandboxChainOptions } from './chain.js';
/**
 * The programmatic face of the sandbox (a local stand-in of the Layerswap v2 API over real HTTP).
 * Tests, `npm start` without an API key, `swapbot sandbox` and the benchmarks all use this.
 */

/** Time as the sandbox sees it. Swap lifecycles are computed from it, so tests can drive them. */
export interface SandboxClock {
  now(): number;
}

/**
 * Real time, optionally sped up from `origin` (its start): `speed` 10 makes one real second ten
 * sandbox seconds. A bot in another process reads the same clock from the two (SANDBOX_CLOCK).
 */
export class SystemClock implements SandboxClock {
  constructor(
    readonly speed = 1,
    readonly origin = Date.now(),
  ) {}
  now(): number {
    return this.origin + (Date.now() - this.origin) * this.speed;
  }
}

/** A clock tests move by hand. */
export class ManualClock implements SandboxClock {
  constructor(private t = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = ms;
  }
}

/** What happens after a deposit arrives. */
export type DepositOutcome =
  /** Confirmations climb, then the payout (and refuel) transaction: completed. */
  | 'complete'
  /** Execution fails: pending_refund -> refunded with a refund transaction when the swap has a
   * refund address; without one the swap stays in ls_transfer_pending (Layerswap keeps retrying). */
  | 'fail_execution'
  /** Confirmed, then failed at the payout time with DepositOptions.failReason (or none). */
  | 'fail'
  /** The input transaction itself fails on chain: status failed, no fail_reason. */
  | 'input_failed';

/** fail_reason values the sandbox can produce (the service's documented ones plus gasless). */
export const SANDBOX_FAIL_REASONS = [
  'swap_route_unavailable',
  'degraded_quote',
  'gasless_deposit_failed',
  'received_more_than_valid_range',
  'received_less_than_valid_range',
] as const;

export interface DepositOptions {
  /** Defaults to the requested amount; outside the limits the swap fails once confirmed. */
  amount?: number | string;
  outcome?: DepositOutcome;
  /** For outcome 'fail': one of SANDBOX_FAIL_REASONS, or null for a failure without a reason. */
  failReason?: string | null;
  /** Sent to an expired swap's address anyway: listed, and the swap stays expired. */
  late?: boolean;
}

/** A swap created "from another app" (not through this bot), for tracking by hash or address. */
export interface ExternalSwapInit {
  source_network: string;
  source_token: string;
  destination_network: string;
  destination_token: string;
  destination_address: string;
  amount: number | string;
  source_address?: string;
  /** The deposit's transaction hash; when set the deposit is made at once. */
  deposit_tx_hash?: string;
  outcome?: DepositOutcome;
}

export interface SandboxTimings {
  /** Sandbox ms between a swap's creation and its automatic deposit; 'off' disables it. */
  depositDelayMs: number | 'off';
  /** Sandbox ms between two confirmations of the input transaction. */
  confirmationIntervalMs: number;
  /** Sandbox ms from the last confirmation to the payout. */
  payoutDelayMs: number;
  /** Sandbox ms without a deposit before a swap expires (the real service: 6 hours). */
  expiryMs: number;
  /** Sandbox ms from pending_refund to refunded. */
  refundDelayMs: number;
  /** Sandbox ms the status stays ls_transfer_pending after the output transaction completed. */
  completionLagMs: number;
  /**
   * With a local chain: sandbox ms from a deposit's block to the service listing it. The real
   * service indexes a deposit some seconds after its block, which is when the bot's own chain
   * watch shows it first. 0 by default here (tests drive it); the CLI and `npm start` use 3000.
   */
  chainPickupMs: number;
}

export interface SandboxWebhookOptions {
  /** Where Svix-style notifications are POSTed on each status change. */
  url: string;
  /** The signing secret, whsec_<base64> as the Layerswap dashboard gives it. */
  secret: string;
  /** Attempts per notification (default 4), spaced by retryDelayMs doubling (default 500 ms, real time). */
  attempts?: number;
  retryDelayMs?: number;
  /** Real ms between two looks for status changes (default 200). */
  pollMs?: number;
}

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** The X-LS-APIKEY value accepted (default 'sandbox'). */
  apiKey?: string;
  /** Real-time speed factor when no clock is given (default 1). */
  speed?: number;
  clock?: SandboxClock;
  timings?: Partial<SandboxTimings>;
  /** Signed webhooks on status changes; off when absent. */
  webhook?: SandboxWebhookOptions;
  /** Run the EVM networks on a real chain (`--chain`): see chain.ts. */
  chain?: SandboxChainOptions;
}

export interface SandboxFault {
  /** HTTP status to answer with (e.g. 500, 429, 502). */
  status: number;
  /** How many matching requests get the fault. */
  count: number;
  /** Sent as Retry-After (seconds) with 429/503. */
  retryAfterSeconds?: number;
  /** Only requests whose path starts with this (e.g. '/api/v2/swaps/'). */
  pathPrefix?: string;
  /** The error code in the envelope (e.g. 'UNEXPECTED_ERROR'). Without one a 400 has an empty body, as Layerswap's does. */
  code?: string;
}

export interface SandboxServer {
  /** Base URL, e.g. http://127.0.0.1:41234 (give it to LayerswapClient as baseUrl). */
  readonly url: string;
  /** The real chain under the EVM networks (--chain), when there is one. */
  readonly chain?: SandboxChain;
  /** The real local chain under the Solana network (--chain): solana.ts. */
  readonly solana?: SandboxSolana;
  readonly apiKey: string;
  readonly clock: SandboxClock;
  /** Simulates a deposit now (same as POST /sandbox/swaps/{id}/deposit). Defaults: the exact amount, 'complete'. */
  deposit(swapId: string, options?: DepositOptions): void;
  /** Pins a status from now on (same as POST /sandbox/swaps/{id}/status): created, user_transfer_delayed, cancelled, failed... */
  setStatus(swapId: string, status: string, failReason?: string | null): void;
  /** A gasless swap's open authorization expires now: its next POST /authorize answers "expired". */
  expireAuthorization(swapId: string): void;
  /** Creates a swap as another app would (same as POST /sandbox/swaps); returns its id. */
  injectSwap(init: ExternalSwapInit): string;
  /** Webhook deliveries: attempted, delivered (2xx) and given up. */
  webhookStats(): { attempted: number; delivered: number; failed: number };
  /** Requests served, by operation name ('getSwap', 'getQuote', ...) or in total. */
  requestCount(operation?: string): number;
  /** Makes the next matching requests fail (for outage and 429 tests). */
  injectFault(fault: SandboxFault): void;
  close(): Promise<void>;
}

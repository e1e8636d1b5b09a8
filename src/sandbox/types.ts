/**
 * The programmatic face of the sandbox (a local stand-in of the Layerswap v2 API over real HTTP).
 * Tests, `npm start` without an API key, `swapbot sandbox` and the benchmarks all use this.
 */

/** Time as the sandbox sees it. Swap lifecycles are computed from it, so tests can drive them. */
export interface SandboxClock {
  now(): number;
}

/** Real time, optionally sped up: `speed` 10 makes one real second ten sandbox seconds. */
export class SystemClock implements SandboxClock {
  private readonly origin = Date.now();
  constructor(private readonly speed = 1) {}
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
  | 'fail_execution';

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
}

export interface SandboxServer {
  /** Base URL, e.g. http://127.0.0.1:41234 (give it to LayerswapClient as baseUrl). */
  readonly url: string;
  readonly apiKey: string;
  readonly clock: SandboxClock;
  /** Simulates a deposit now (same as POST /sandbox/swaps/{id}/deposit). Defaults: the exact amount, 'complete'. */
  deposit(swapId: string, options?: { amount?: number; outcome?: DepositOutcome }): void;
  /** Requests served, by operation name ('getSwap', 'getQuote', ...) or in total. */
  requestCount(operation?: string): number;
  /** Makes the next matching requests fail (for outage and 429 tests). */
  injectFault(fault: SandboxFault): void;
  close(): Promise<void>;
}

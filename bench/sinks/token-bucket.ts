/**
 * A platform limit as the fake platforms enforce it: a token bucket holding `limit` calls,
 * refilled at `limit` per `windowMs`. Bursts up to the limit pass, and over any longer span the
 * rate cannot exceed limit per window; a client's fixed-window limiter at the platform's rate
 * stays inside it, one that overshoots does not. (How API gateways usually count; the platforms
 * do not publish their exact algorithm.)
 */
export class TokenBucket {
  private tokens: number;
  private last = -Infinity;
  private readonly perMs: number;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    this.tokens = limit;
    this.perMs = limit / windowMs;
  }

  /** 0 when a call at `now` fits (and counts it), else ms until one would fit. */
  take(now: number): number {
    const wait = this.peek(now);
    if (wait === 0) this.tokens -= 1;
    return wait;
  }

  /** 0 when a call at `now` would fit, else ms until one would; counts nothing. */
  peek(now: number): number {
    if (now > this.last) {
      this.tokens = Math.min(this.limit, this.tokens + (this.last === -Infinity ? this.limit : (now - this.last) * this.perMs));
      this.last = now;
    }
    return this.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - this.tokens) / this.perMs));
  }
}

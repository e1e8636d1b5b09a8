/**
 * One error class per failure kind, after openai-node and grammY: "the service said no"
 * (ApiError, with its code) is kept apart from "we could not reach it" (ConnectionError,
 * TimeoutError) and "it answered something we cannot read" (ResponseShapeError).
 * No error ever carries the API key: only the request's method and path (no query string).
 */

/** Error codes documented by Layerswap (layerswap-api.md §7; API_KEY_FORBIDDEN and UNEXPECTED_ERROR from the 2026 docs). */
export const API_ERROR_CODES = [
  'ROUTE_NOT_FOUND_ERROR',
  'PRICE_IMPACT_TOO_HIGH',
  'UNEXPECTED_ERROR',
  'API_KEY_FORBIDDEN',
  'LESS_THAN_MIN_ERROR',
  'GREATER_THAN_MAX_ERROR',
  'VALIDATION_ERROR',
  'QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS',
  'INVALID_ADDRESS_ERROR',
  'BLACKLISTED_ADDRESS',
  'UNACTIVATED_ADDRESS_ERROR',
  'NETWORK_CURRENCY_DAILY_LIMIT_REACHED',
  'ACTIVE_SWAP_LIMIT_EXCEEDED',
  'NOT_FOUND',
  'INVALID_CREDENTIALS',
  'INSUFFICIENT_FUNDS',
  'FUNDS_ON_HOLD_ERROR',
  'COINBASE_AUTHORIZATION_LIMIT_EXCEEDED',
  'COINBASE_INVALID_2FA',
  'NETWORK_ACCOUNT_ALREADY_EXISTS',
] as const;
export type KnownApiErrorCode = (typeof API_ERROR_CODES)[number];
/** Codes our client makes up when the service gave none. */
/** EMPTY_REFUSAL: a 4xx with no body at all (Layerswap's answer to malformed parameters): a refusal. */
export type LocalApiErrorCode = 'HTTP_ERROR' | 'RATE_LIMITED' | 'NON_JSON_RESPONSE' | 'EMPTY_REFUSAL';
export type ApiErrorCode = KnownApiErrorCode | LocalApiErrorCode | (string & {});

export abstract class LayerswapError extends Error {
  override name = 'LayerswapError';
  /** "GET /api/v2/quote": never the query string, never headers. */
  readonly request: string;
  constructor(message: string, request: string, options?: { cause?: unknown }) {
    super(message, options);
    this.request = request;
  }
}

/** The service answered with an error envelope or a non-2xx status. */
export class ApiError extends LayerswapError {
  override name = 'ApiError';
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly requestId: string | undefined;
  /** Seconds from Retry-After when the service sent one. */
  readonly retryAfterMs: number | undefined;
  constructor(init: {
    status: number;
    code: ApiErrorCode;
    message: string;
    metadata?: Record<string, unknown> | null;
    request: string;
    requestId?: string | undefined;
    retryAfterMs?: number | undefined;
  }) {
    super(`${init.request} failed with ${init.status} ${init.code}: ${init.message}`, init.request);
    this.status = init.status;
    this.code = init.code;
    this.metadata = Object.freeze({ ...(init.metadata ?? {}) });
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
  }
  /** The text the service sent, without our prefix. */
  get serviceMessage(): string {
    const m = this.message.indexOf(': ');
    return m >= 0 ? this.message.slice(m + 2) : this.message;
  }
  is<C extends ApiErrorCode>(code: C): boolean {
    return this.code === code;
  }
}

/** The request never got an answer: refused, reset, DNS failure. */
export class ConnectionError extends LayerswapError {
  override name = 'ConnectionError';
  /** True only when the service certainly did not receive the request (connection refused). */
  readonly notSent: boolean;
  constructor(request: string, cause: unknown, notSent: boolean) {
    super(`${request}: could not reach the swap service (${describeCause(cause)})`, request, { cause });
    this.notSent = notSent;
  }
}

/** No answer within the request timeout. */
export class TimeoutError extends LayerswapError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;
  constructor(request: string, timeoutMs: number) {
    super(`${request}: no answer from the swap service within ${timeoutMs} ms`, request);
    this.timeoutMs = timeoutMs;
  }
}

/** A 2xx answer whose data does not fit our schema: names the path of the first mismatch. */
export class ResponseShapeError extends LayerswapError {
  override name = 'ResponseShapeError';
  readonly path: string;
  constructor(request: string, path: string, detail: string) {
    super(`${request}: unexpected response shape at ${path || '(root)'}: ${detail}`, request);
    this.path = path;
  }
}

/**
 * createSwap got an ambiguous failure (timeout, reset after sending, 5xx): the swap may or may not
 * exist. Never retried automatically; the user is told to check /status or /history.
 */
export class UnconfirmedCreateError extends LayerswapError {
  override name = 'UnconfirmedCreateError';
  readonly referenceId: string;
  constructor(request: string, referenceId: string, cause: unknown) {
    super(`${request}: could not confirm whether the swap was created (reference ${referenceId})`, request, { cause });
    this.referenceId = referenceId;
  }
}

/** Refused locally before any request: e.g. a swap id that is not a UUID. */
export class InvalidRequestError extends LayerswapError {
  override name = 'InvalidRequestError';
  readonly field: string;
  constructor(request: string, field: string, message: string) {
    super(message, request);
    this.field = field;
  }
}

function describeCause(cause: unknown): string {
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  if (cause instanceof Error) return cause.name;
  return 'network error';
}

/**
 * An answer in the error envelope: handlers throw it, the server writes
 * {"data": null, "error": {"code", "message", "metadata"}} with its status.
 * Which status goes with which code is undocumented upstream; the sandbox's choice is listed in
 * STATUS_BY_CODE so it is visible in one place.
 */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  VALIDATION_ERROR: 400,
  LESS_THAN_MIN_ERROR: 400,
  GREATER_THAN_MAX_ERROR: 400,
  INVALID_ADDRESS_ERROR: 400,
  QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS: 400,
  ROUTE_NOT_FOUND_ERROR: 404,
  NOT_FOUND: 404,
  INVALID_CREDENTIALS: 401,
  API_KEY_FORBIDDEN: 403,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL_SERVER_ERROR: 500,
};

export class SandboxHttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly metadata: Record<string, unknown>;
  constructor(code: string, message: string, options: { status?: number; metadata?: Record<string, unknown> } = {}) {
    super(message);
    this.code = code;
    this.status = options.status ?? STATUS_BY_CODE[code] ?? 400;
    this.metadata = options.metadata ?? {};
  }
}

export const validation = (message: string) => new SandboxHttpError('VALIDATION_ERROR', message);

/**
 * Layerswap's answer to a malformed parameter it binds before its own checks (a snake_case
 * `statuses`, an unknown enum value): 400 with no body at all. The message is for the sandbox's log only.
 */
export class EmptyBadRequest extends SandboxHttpError {
  constructor(message: string) {
    super('EMPTY', message, { status: 400 });
  }
}

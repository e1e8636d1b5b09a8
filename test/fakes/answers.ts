/**
 * Answers as the platforms word them, shared by the end-to-end fakes and the benchmark's sinks, so
 * both exercise the same handling of success, errors and 429 in the bot's clients.
 */

/** Telegram's Bot API envelope. */
export type TelegramResult =
  | { ok: true; result: unknown }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number; migrate_to_chat_id?: number } };

export const ok = (result: unknown): TelegramResult => ({ ok: true, result });

/** A 429 carries its wait (seconds) as parameters.retry_after. */
export const err = (code: number, description: string, retryAfter?: number): TelegramResult => ({
  ok: false,
  error_code: code,
  description,
  ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
});

export const tooManyRequests = (retryAfter: number): TelegramResult => err(429, `Too Many Requests: retry after ${retryAfter}`, retryAfter);

export interface HttpAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Discord's 429: retry_after in the body and Retry-After (seconds, fractions allowed). A route's
 * limit names its bucket; the global one names only its scope, as Discord does.
 */
export function discordRateLimited(retryAfter: number, opts: { global?: boolean; code?: number } = {}): HttpAnswer {
  const after = String(retryAfter);
  const headers: Record<string, string> = opts.global
    ? { 'Retry-After': after, 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' }
    : {
        'Retry-After': after,
        'X-RateLimit-Limit': '5',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset-After': after,
        'X-RateLimit-Bucket': 'fake-bucket',
        'X-RateLimit-Scope': 'user',
      };
  return {
    status: 429,
    body: {
      message: 'You are being rate limited.',
      retry_after: retryAfter,
      global: Boolean(opts.global),
      ...(opts.code ? { code: opts.code } : {}),
    },
    headers,
  };
}

import { describe, expect, test } from 'vitest';
import { errorReply, notAnswering } from '../../src/bot/kernel/errors-text.js';
import { replyText } from '../../src/contracts/reply.js';
import {
  API_ERROR_CODES,
  ApiError,
  ConnectionError,
  ResponseShapeError,
  TimeoutError,
  UnconfirmedCreateError,
} from '../../src/layerswap/errors.js';

const apiError = (
  code: string,
  extra: Partial<{ status: number; message: string; metadata: Record<string, unknown>; retryAfterMs: number }> = {},
) =>
  new ApiError({
    status: extra.status ?? 400,
    code,
    message: extra.message ?? 'service text',
    metadata: extra.metadata,
    request: 'GET /api/v2/quote',
    retryAfterMs: extra.retryAfterMs,
  });

describe('errors in plain words', () => {
  test('every documented error code has its own message', () => {
    const generic = replyText(errorReply(apiError('SOMETHING_NEW')));
    const texts = API_ERROR_CODES.map((c) => replyText(errorReply(apiError(c))));
    for (const [i, t] of texts.entries()) {
      expect(t, API_ERROR_CODES[i]).not.toBe(generic);
      expect(t).not.toMatch(/GET \/api|stack|Error:/);
    }
    // A refused key reads the same whichever code says it (API_KEY_FORBIDDEN, INVALID_CREDENTIALS).
    expect(new Set(texts).size).toBe(texts.length - 1);
  });

  test('metadata makes the message concrete', () => {
    expect(replyText(errorReply(apiError('LESS_THAN_MIN_ERROR', { metadata: { AmountLimit: 10 } })))).toContain(
      'The smallest amount for this route is 10.',
    );
    expect(
      replyText(errorReply(apiError('NETWORK_CURRENCY_DAILY_LIMIT_REACHED', { metadata: { AvailableTransactionAmount: 42 } }))),
    ).toContain('At most 42');
    expect(replyText(errorReply(apiError('ROUTE_NOT_FOUND_ERROR', { message: 'Rate not available' })))).toContain('Try a smaller amount');
    expect(
      replyText(errorReply(apiError('UNACTIVATED_ADDRESS_ERROR', { metadata: { ActivationUrl: 'javascript:alert(1)' } }))),
    ).not.toContain('javascript');
  });

  test('outages, timeouts and 5xx: "not answering"; 429: when to retry', () => {
    for (const e of [
      new ConnectionError('GET /api/v2/quote', new Error('ECONNREFUSED'), true),
      new TimeoutError('GET /api/v2/quote', 15000),
      apiError('INTERNAL_SERVER_ERROR', { status: 500 }),
    ]) {
      expect(replyText(errorReply(e))).toContain(notAnswering('en'));
    }
    expect(replyText(errorReply(apiError('TOO_MANY_REQUESTS', { status: 429, retryAfterMs: 12_000 })))).toContain(
      'Try again in 12 seconds',
    );
  });

  test('an unconfirmed create warns not to pay twice; a shape error does not leak internals', () => {
    const t = replyText(errorReply(new UnconfirmedCreateError('POST /api/v2/swaps', 'ref-123', new Error('reset'))));
    expect(t).toContain('could not confirm the swap was created'.replace(/^c/, 'C'));
    expect(t).toContain('/history or /status in a minute');
    expect(t).toContain('Do not pay twice.');
    expect(replyText(errorReply(new ResponseShapeError('GET /api/v2/quote', 'quote.receive_amount', 'expected number')))).not.toContain(
      'receive_amount',
    );
  });

  test('anything else is a polite apology', () => {
    expect(replyText(errorReply(new TypeError('x is undefined')))).toBe(
      'Something went wrong\nSorry, that did not work on our side. Please try again.',
    );
  });
});

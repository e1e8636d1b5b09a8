import { DiscordAPIError, RateLimitError } from 'discord.js';
import { describe, expect, test } from 'vitest';
import { loggableError, toDeliveryError } from '../../../src/platforms/discord/errors.js';

const apiError = (status: number, code: number, url = 'https://discord.com/api/v10/channels/1/messages') =>
  new DiscordAPIError({ code, message: `error ${code}` }, code, status, 'POST', url, {
    body: { embeds: [{ description: '0xsecretish' }] },
  });

describe('Discord failures as delivery outcomes', () => {
  test.each([
    [404, 10003, 'gone'],
    [403, 50001, 'gone'],
    [403, 50007, 'gone'],
    [404, 10013, 'gone'],
    [403, 50013, 'gone'],
    [404, 10008, 'message_gone'],
    [400, 50035, 'rejected'],
    [401, 0, 'rejected'],
    [503, 0, 'transient'],
  ])('HTTP %i code %i -> %s', (status, code, failure) => {
    expect(toDeliveryError(apiError(status, code)).failure).toBe(failure);
  });

  test('a rejected 429 keeps the wait', () => {
    const e = toDeliveryError(
      new RateLimitError({
        timeToReset: 200,
        limit: 5,
        method: 'POST',
        hash: 'h',
        url: 'u',
        route: '/channels/:id/messages',
        majorParameter: '1',
        global: false,
        retryAfter: 750,
        sublimitTimeout: 0,
        scope: 'user',
      }),
    );
    expect(e).toMatchObject({ failure: 'rate_limited', retryAfterMs: 750 });
  });

  test('logs never carry interaction tokens or message bodies', () => {
    // What pino's serializer writes of an Error: name, message, stack and its own fields.
    const serialized = (e: Error) => JSON.stringify({ ...e, type: e.name, message: e.message, stack: e.stack });
    const api = loggableError(apiError(404, 10015, 'https://discord.com/api/v10/webhooks/1/aW50ZXJhY3Rpb24secret/messages/@original'));
    expect(api).toBeInstanceOf(Error);
    expect(api).toMatchObject({ status: 404, code: 10015 });
    expect(serialized(api)).not.toContain('aW50ZXJhY3Rpb24secret');
    expect(serialized(api)).not.toContain('0xsecretish');
    const plainError = loggableError(new Error('PATCH /webhooks/1/aW50tokenXYZ/messages failed'));
    expect(plainError.message).toBe('PATCH /webhooks/:id/:token/messages failed');
    expect(serialized(plainError)).not.toContain('aW50tokenXYZ');
  });
});

import { DiscordAPIError, HTTPError, RateLimitError } from './rest.js';
import { DeliveryError, neverSent } from '../../contracts/messenger.js';
import { asError } from '../../log.js';

/** Discord JSON error codes the adapter acts on (discord-api-docs topics/opcodes-and-status-codes). */
const DiscordCode = {
  UnknownChannel: 10003,
  UnknownMessage: 10008,
  UnknownUser: 10013,
  MissingAccess: 50001,
  CannotSendToUser: 50007,
  MissingPermissions: 50013,
} as const;

const GONE: ReadonlySet<number> = new Set([
  DiscordCode.UnknownChannel,
  DiscordCode.UnknownUser,
  DiscordCode.MissingAccess,
  DiscordCode.CannotSendToUser,
  DiscordCode.MissingPermissions,
]);

/** True when Discord refused a DM because the user does not accept them from this bot. */
export function isDmClosed(error: unknown): boolean {
  return error instanceof DiscordAPIError && error.code === DiscordCode.CannotSendToUser;
}

/** Any failure of a Discord REST call as a DeliveryError (the message never carries the token). */
export function toDeliveryError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  if (error instanceof RateLimitError) {
    const wait = Math.max(error.retryAfter, error.timeToReset, 0);
    // Only the global limit (X-RateLimit-Global / Scope: global) holds back every channel;
    // per-route buckets ('user', 'shared') hold back the channel the message was for.
    const global = error.global || error.scope === 'global';
    return new DeliveryError(
      'discord',
      'rate_limited',
      `Discord rate limit on ${error.route}${global ? ' (global)' : ''}: retry in ${wait} ms`,
      {
        retryAfterMs: wait,
        scope: global ? 'global' : 'chat',
        cause: error,
      },
    );
  }
  if (error instanceof DiscordAPIError) {
    const code = typeof error.code === 'number' ? error.code : Number(error.code);
    const what = `Discord ${error.status} ${code}: ${error.message}`;
    if (GONE.has(code)) return new DeliveryError('discord', 'gone', what, { cause: error });
    if (code === DiscordCode.UnknownMessage) return new DeliveryError('discord', 'message_gone', what, { cause: error });
    if (error.status === 429)
      return new DeliveryError('discord', 'rate_limited', what, {
        retryAfterMs: 1000,
        scope: isGlobal429(error.rawError) ? 'global' : 'chat',
        cause: error,
      });
    if (error.status >= 500) return new DeliveryError('discord', 'transient', what, { cause: error, inDoubt: true });
    return new DeliveryError('discord', 'rejected', what, { cause: error });
  }
  if (error instanceof HTTPError) {
    const transient = error.status >= 500 || error.status === 408;
    return new DeliveryError('discord', transient ? 'transient' : 'rejected', `Discord HTTP ${error.status} on ${error.method}`, {
      cause: error,
      ...(transient ? { inDoubt: true } : {}),
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  // A timeout (AbortError) or a reset may come after Discord got the request: in doubt, unless it never connected.
  return new DeliveryError('discord', 'transient', `Discord unreachable: ${message}`, {
    cause: error,
    ...(neverSent(error) ? {} : { inDoubt: true }),
  });
}

/** Discord's 429 body says `global: true` when the bot-wide limit was hit. */
function isGlobal429(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { global?: unknown }).global === true;
}

const maskTokens = (text: string): string =>
  text.replace(/\/webhooks\/\d+\/[^/\s]+/g, '/webhooks/:id/:token').replace(/\/interactions\/\d+\/[^/\s]+/g, '/interactions/:id/:token');

/**
 * A Discord error in the one log shape (log.ts asError): kind, message, stack, Discord's status and
 * code; its request URL's interaction or webhook token masked, never the body (user content).
 */
export function loggableError(error: unknown): Error {
  return asError(error, { mask: maskTokens });
}

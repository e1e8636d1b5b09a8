import { GrammyError, HttpError } from 'grammy';
import { DeliveryError, neverSent, type DeliveryFailure } from '../../contracts/messenger.js';
import { asError } from '../../log.js';

/**
 * Telegram's answers, normalised. The Bot API speaks in error codes plus English descriptions; the
 * descriptions below are the stable ones bots everywhere match on.
 */

/** Editing to identical content: Telegram says 400, we count it as success. */
export function isNotModified(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 400 && /message is not modified/i.test(err.description);
}

/** The message can be replaced by a new one: gone, too old to edit, or a photo edited to text. */
function isEditImpossible(err: unknown): boolean {
  return (
    err instanceof GrammyError &&
    err.error_code === 400 &&
    /message to edit not found|message can't be edited|there is no text in the message to edit|there is no caption in the message to edit|message_id_invalid/i.test(
      err.description,
    )
  );
}

/** Editing text on a photo, or a caption on a text message: the reply must go out as a new one. */
export function isKindMismatch(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 400 && /there is no (text|caption) in the message to edit/i.test(err.description);
}

export function classifyFailure(err: unknown): { failure: DeliveryFailure; retryAfterMs?: number; movedTo?: string; inDoubt?: boolean } {
  if (err instanceof GrammyError) {
    const code = err.error_code;
    const desc = err.description;
    if (code === 429) {
      // A flood wait holds back the chat it was sent to; Telegram has no bot-wide 429 scope (the
      // overall ~30 msg/s is paced before sending), so DeliveryError's default scope 'chat' fits.
      const seconds = err.parameters.retry_after;
      return { failure: 'rate_limited', retryAfterMs: (typeof seconds === 'number' && seconds > 0 ? seconds : 1) * 1000 };
    }
    // A gateway error (502, 504) may come after Telegram acted on the request.
    if (code >= 500) return { failure: 'transient', inDoubt: true };
    if (code === 403) return { failure: 'gone' };
    if (code === 400) {
      if (isEditImpossible(err)) return { failure: 'message_gone' };
      // A group upgraded to a supergroup: gone here, alive under the new id (tracking moves there).
      const movedTo = err.parameters.migrate_to_chat_id;
      if (typeof movedTo === 'number') return { failure: 'gone', movedTo: String(movedTo) };
      // Gone for good: deleted chat, upgraded group (migrate_to_chat_id), lost rights to post.
      if (
        /chat not found|group chat was upgraded|not enough rights|have no rights|need administrator rights|CHAT_WRITE_FORBIDDEN|CHANNEL_PRIVATE|user is deactivated/i.test(
          desc,
        )
      )
        return { failure: 'gone' };
      return { failure: 'rejected' };
    }
    // 401 (bad token), 404, 409...: retrying will not help.
    return { failure: 'rejected' };
  }
  if (err instanceof DeliveryError)
    return {
      failure: err.failure,
      ...(err.retryAfterMs !== undefined ? { retryAfterMs: err.retryAfterMs } : {}),
      ...(err.inDoubt ? { inDoubt: true } : {}),
    };
  // HttpError (network, timeouts) and anything unexpected: worth another try later. A request that
  // left (a timeout, a reset) may have been delivered: in doubt, unless it never connected.
  if (err instanceof HttpError) return { failure: 'transient', ...(neverSent(err.error) ? {} : { inDoubt: true }) };
  return { failure: 'transient' };
}

/**
 * A message safe to log or to put in an error: the method and Telegram's description, never the
 * request URL (it holds the bot token) nor the wrapped network error (which may quote the URL).
 */
export function describeError(err: unknown, token?: string): string {
  let msg: string;
  if (err instanceof GrammyError) msg = `Telegram ${err.method} failed: ${err.error_code} ${err.description}`;
  else if (err instanceof HttpError) msg = err.message;
  else if (err instanceof Error) msg = `${err.name}: ${err.message}`;
  else msg = String(err);
  return token && token.length >= 4 ? msg.split(token).join('[redacted]') : msg;
}

/**
 * A Telegram error in the one log shape (log.ts asError: no payload, no wrapped error), the token
 * removed; a refusal says the method and Telegram's description.
 */
export function telegramError(err: unknown, token?: string): Error {
  const message = err instanceof GrammyError ? `Telegram ${err.method} failed: ${err.error_code} ${err.description}` : undefined;
  return asError(err, { secrets: token ? [token] : [], ...(message !== undefined ? { message } : {}) });
}

export function toDeliveryError(err: unknown, token?: string): DeliveryError {
  if (err instanceof DeliveryError) return err;
  const { failure, retryAfterMs, movedTo, inDoubt } = classifyFailure(err);
  // No `cause`: a wrapped HttpError may quote the request URL (and the token in it), and a
  // GrammyError carries the whole payload (message text, deposit details) into every log line.
  return new DeliveryError('telegram', failure, describeError(err, token), {
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(movedTo !== undefined ? { movedTo } : {}),
    ...(inDoubt ? { inDoubt } : {}),
  });
}

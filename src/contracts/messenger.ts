import type { ChatTarget, MessageRef, Platform } from './incoming.js';
import type { Reply } from './reply.js';

/**
 * How the tracking worker pushes to a chat without running the platform's update loop: one per
 * platform, over that platform's HTTP API alone.
 */
export interface Messenger {
  readonly platform: Platform;
  /**
   * True when send() honours `idempotencyKey`: a second send with the same key (within a few
   * minutes) returns the first message instead of posting another (Discord's enforce_nonce).
   * Tracking then re-sends a message whose outcome a crash left unknown, instead of skipping it.
   */
  readonly idempotentSends?: boolean;
  /** Sends a new message (with its image, if any). */
  send(target: ChatTarget, reply: Reply, options?: SendOptions): Promise<MessageRef>;
  /**
   * Edits a message in place. Editing to identical content resolves (it counts as success).
   * Returns the ref of the message now showing the reply (the same ref, unless the platform
   * could only replace it).
   */
  edit(ref: MessageRef, reply: Reply): Promise<MessageRef>;
  /**
   * Edits a message in place and never sends a new one (the creator's deposit card: a second
   * card with an address would invite a second payment). A picture message given a reply without
   * a picture keeps its place, its picture replaced by a neutral one (Telegram editMessageMedia).
   * Absent where edit() never sends anew.
   */
  editInPlace?(ref: MessageRef, reply: Reply): Promise<void>;
  /**
   * Puts a reaction (an emoji such as '✅') on a message, in place of a new message: Telegram
   * setMessageReaction, a Discord reaction. Idempotent. Absent where the platform has none.
   */
  react?(ref: MessageRef, emoji: string): Promise<void>;
}

export interface SendOptions {
  /** At most 25 characters; used only where `idempotentSends` is true. */
  idempotencyKey?: string;
  /** Delivered without sound (Telegram disable_notification, Discord SUPPRESS_NOTIFICATIONS). */
  silent?: boolean;
}

export type DeliveryFailure =
  /** The platform asked us to wait (429); retry after retryAfterMs. */
  | 'rate_limited'
  /** The chat is gone for good: bot blocked, kicked, unknown channel, missing access. Unsubscribe. */
  | 'gone'
  /** The message to edit no longer exists (deleted): send a new one instead. */
  | 'message_gone'
  /** The platform refused the content (a bug on our side): do not retry. */
  | 'rejected'
  /** Network trouble or 5xx: retry with backoff. */
  | 'transient';

/**
 * What a 429 holds back: one chat (Telegram flood waits, Discord per-route buckets) or every
 * request of the bot (Discord's global limit).
 */
export type RateLimitScope = 'chat' | 'global';

/** Every Messenger failure is normalised to this at the platform edge. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  readonly failure: DeliveryFailure;
  readonly retryAfterMs: number | undefined;
  /** For rate_limited: 'chat' unless the platform said the limit is global. */
  readonly scope: RateLimitScope;
  readonly platform: Platform;
  /**
   * With 'gone': the chat lives on under this id (a Telegram group upgraded to a supergroup):
   * move its follows there instead of dropping them.
   */
  readonly movedTo: string | undefined;
  /**
   * For transient: the request may have reached the platform (a timeout or a reset after it was
   * written, a gateway error), so a send may have been delivered. False when it never left
   * (connection refused, no DNS answer): a retry cannot make a second message.
   */
  readonly inDoubt: boolean;
  constructor(
    platform: Platform,
    failure: DeliveryFailure,
    message: string,
    options?: { retryAfterMs?: number; scope?: RateLimitScope; cause?: unknown; movedTo?: string; inDoubt?: boolean },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.platform = platform;
    this.failure = failure;
    this.retryAfterMs = options?.retryAfterMs;
    this.scope = options?.scope ?? 'chat';
    this.movedTo = options?.movedTo;
    this.inDoubt = options?.inDoubt === true;
  }
}

/** Network errors raised before a request was written: nothing reached the platform. */
const NEVER_SENT: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * True when a failed request certainly never reached the platform: a connection that could not be
 * made (refused, no route, no DNS answer, a failed TLS handshake), found anywhere in the error's
 * chain (`cause`, grammY's `error`, AggregateError's `errors`). A timeout or a reset is not: the
 * request may have been written and acted on.
 */
export function neverSent(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 5) return false;
  const e = err as { code?: unknown; cause?: unknown; error?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && NEVER_SENT.has(e.code)) return true;
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((x) => neverSent(x, depth + 1))) return true;
  return neverSent(e.cause, depth + 1) || neverSent(e.error, depth + 1);
}

import { Api, InputFile } from 'grammy';
import type { ForceReply, InlineKeyboardMarkup, ReactionTypeEmoji } from 'grammy/types';
import type { ChatTarget, MessageRef } from '../../contracts/incoming.js';
import type { Messenger, SendOptions as MessengerSendOptions } from '../../contracts/messenger.js';
import type { Reply } from '../../contracts/reply.js';
import { isKindMismatch, isNotModified, toDeliveryError } from './errors.js';
import { plainPicture } from './plain-picture.js';
import { isForceReply, renderReply, type RenderedReply, type TelegramMessage } from './render.js';

/**
 * Sends and edits Telegram messages over the Bot API alone, so the tracking worker can push
 * status cards without running the update loop. Every failure becomes a DeliveryError.
 *
 * No retries in here: the tracking queue owns waiting (it reads DeliveryError.retryAfterMs), so a
 * worker is never blocked sleeping. The interactive bot passes its own `api`, whose auto-retry
 * transformer (capped at a few seconds) already waits out short 429s.
 */
export interface TelegramMessengerOptions {
  token: string;
  /** Another Bot API server (a local one, or a test fake). Default https://api.telegram.org. */
  apiRoot?: string;
  /** Use this Api (with its transformers) instead of building one from token and apiRoot. */
  api?: Api;
  /** For deeplink buttons (or a getter for it); asked with getMe once, when first needed, if absent. */
  botUsername?: string | (() => string | undefined);
}

/** Telegram has no idempotency key: `idempotencyKey` is ignored (idempotentSends is unset). */
export interface SendOptions extends MessengerSendOptions {
  /** Reply to this message (groups: lets a ForceReply target only its sender). */
  replyTo?: number;
  /** A forum topic (message_thread_id) to post in. */
  threadId?: string;
}

/**
 * Messages sent through inline mode live in no chat the bot is in: their MessageRef has a chatId
 * starting with this and the inline_message_id as messageId. They can be edited, never sent to.
 */
export const INLINE_CHAT_PREFIX = 'inline:';

/** Our reactions that Telegram does not list, as the listed emoji that says the same. */
const TELEGRAM_REACTION: Readonly<Record<string, ReactionTypeEmoji['emoji']>> = { '✅': '👍' };
const isInlineRef = (ref: Pick<MessageRef, 'chatId'>): boolean => ref.chatId.startsWith(INLINE_CHAT_PREFIX);

export class TelegramMessenger implements Messenger {
  readonly platform = 'telegram' as const;
  readonly api: Api;
  private readonly token: string;
  private username: Promise<string | undefined> | undefined;
  private readonly knownUsername: () => string | undefined;

  constructor(opts: TelegramMessengerOptions) {
    this.token = opts.token;
    this.api = opts.api ?? new Api(opts.token, { apiRoot: opts.apiRoot ?? 'https://api.telegram.org', timeoutSeconds: 30 });
    const given = opts.botUsername;
    this.knownUsername = typeof given === 'function' ? given : () => given;
  }

  async send(target: ChatTarget, reply: Reply, options: SendOptions = {}): Promise<MessageRef> {
    const rendered = await this.render(reply, target.chatId);
    return this.sendRendered(target.chatId, rendered, target.threadId ? { ...options, threadId: target.threadId } : options);
  }

  /**
   * A reaction on a message (setMessageReaction): a bot may set one emoji from the Bot API's list,
   * which has no ✅ (REACTION_INVALID): the nearest listed one stands in.
   */
  async react(ref: MessageRef, emoji: string): Promise<void> {
    try {
      await this.api.setMessageReaction(ref.chatId, Number(ref.messageId), [
        { type: 'emoji', emoji: TELEGRAM_REACTION[emoji] ?? (emoji as ReactionTypeEmoji['emoji']) },
      ]);
    } catch (err) {
      throw toDeliveryError(err, this.token);
    }
  }

  /**
   * Edits the message in place. A reply that renders as several messages edits the first (its
   * text and buttons) and sends the rest (a separate prompt) new; a text reply on a photo, or a
   * picture on a text message, goes out as a new message (Telegram cannot change a message's kind).
   */
  async edit(ref: MessageRef, reply: Reply, options: SendOptions = {}): Promise<MessageRef> {
    const rendered = await this.render(reply, ref.chatId);
    if (isInlineRef(ref)) return this.editInline(ref, rendered);
    const [first, ...rest] = rendered.messages;
    // Telegram cannot change a message's kind: text for a known photo goes out new, without a refused edit first.
    if (!first || rendered.main !== 0 || (first.kind === 'photo' && rest.length > 0) || (ref.kind === 'media' && first.kind === 'text'))
      return this.sendRendered(ref.chatId, rendered, options);
    const keyboard = isForceReply(first.markup) ? undefined : first.markup;
    const extra = { parse_mode: 'HTML' as const, ...(keyboard ? { reply_markup: keyboard } : {}) };
    try {
      if (first.kind === 'text')
        await this.api.editMessageText(ref.chatId, Number(ref.messageId), first.html, {
          ...extra,
          link_preview_options: { is_disabled: true },
        });
      else await this.api.editMessageCaption(ref.chatId, Number(ref.messageId), { caption: first.html, ...extra });
    } catch (err) {
      if (isKindMismatch(err)) return this.sendRendered(ref.chatId, rendered, options);
      if (!isNotModified(err)) throw toDeliveryError(err, this.token);
    }
    for (const msg of rest) await this.sendOne(ref.chatId, msg, options);
    return ref;
  }

  /**
   * Edits in place, never sending anew (the deposit card): a photo message given a reply without a
   * picture keeps its place with a plain picture instead of the old one (editMessageMedia), so a
   * QR that no longer applies is gone; a text message is edited as text.
   */
  async editInPlace(ref: MessageRef, reply: Reply): Promise<void> {
    const rendered = await this.render(reply, ref.chatId);
    const main = rendered.messages[rendered.main];
    if (!main || isInlineRef(ref)) throw toDeliveryError(new Error('only a message in a chat can be edited in place'), this.token);
    const keyboard = main.markup && !isForceReply(main.markup) ? main.markup : { inline_keyboard: [] };
    const chatId = ref.chatId;
    const messageId = Number(ref.messageId);
    const picture = main.kind === 'photo' && main.photo ? main.photo : { png: plainPicture(), filename: 'closed.png' };
    const asMedia = () =>
      this.api.editMessageMedia(
        chatId,
        messageId,
        { type: 'photo', media: new InputFile(picture.png, picture.filename ?? 'image.png'), caption: main.html, parse_mode: 'HTML' },
        { reply_markup: keyboard },
      );
    try {
      // A card known to be a photo gets the one edit a photo takes; only an unknown kind is tried as text first.
      if (main.kind === 'photo' || ref.kind === 'media') await asMedia();
      else {
        try {
          await this.api.editMessageText(chatId, messageId, main.html, {
            parse_mode: 'HTML',
            reply_markup: keyboard,
            link_preview_options: { is_disabled: true },
          });
        } catch (err) {
          // A photo (the card with its QR): the picture goes with the text.
          if (!isKindMismatch(err)) throw err;
          await asMedia();
        }
      }
    } catch (err) {
      if (!isNotModified(err)) throw toDeliveryError(err, this.token);
    }
  }

  /** An inline message: its text and buttons only (no photo, no prompt: nothing else can go there). */
  private async editInline(ref: MessageRef, rendered: RenderedReply): Promise<MessageRef> {
    const main = rendered.messages[rendered.main];
    if (!main || main.kind !== 'text') throw toDeliveryError(new Error('an inline message can only show text'), this.token);
    const keyboard = isForceReply(main.markup) ? undefined : main.markup;
    try {
      await this.api.editMessageTextInline(ref.messageId, main.html, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(keyboard ? { reply_markup: keyboard } : {}),
      });
    } catch (err) {
      if (!isNotModified(err)) throw toDeliveryError(err, this.token);
    }
    return ref;
  }

  /**
   * Renders with the bot's username known (deeplink buttons need it). A private chat's id is the
   * user's (positive); groups and channels have negative ids: only a private chat gets web_app buttons.
   */
  async render(reply: Reply, chatId?: string): Promise<RenderedReply> {
    const needsUsername = (reply.buttons ?? []).some((row) => row.some((b) => b.kind === 'deeplink'));
    const botUsername = needsUsername ? await this.botUsername() : undefined;
    const privateChat = chatId !== undefined && /^\d+$/.test(chatId);
    return renderReply(reply, { ...(botUsername ? { botUsername } : {}), privateChat });
  }

  private botUsername(): Promise<string | undefined> {
    const known = this.knownUsername();
    if (known) return Promise.resolve(known);
    this.username ??= this.api.getMe().then(
      (me) => me.username,
      () => {
        this.username = undefined; // try again next time
        return undefined;
      },
    );
    return this.username;
  }

  /** Sends each message in order; returns the ref of the main one (text and buttons). */
  async sendRendered(chatId: string, rendered: RenderedReply, options: SendOptions): Promise<MessageRef> {
    let mainRef: MessageRef | undefined;
    for (const [i, msg] of rendered.messages.entries()) {
      const ref = await this.sendOne(chatId, msg, options);
      if (i === rendered.main) mainRef = ref;
    }
    if (!mainRef) throw toDeliveryError(new Error('nothing to send'), this.token);
    return mainRef;
  }

  private async sendOne(chatId: string, msg: TelegramMessage, options: SendOptions): Promise<MessageRef> {
    const common = {
      parse_mode: 'HTML' as const,
      ...(msg.markup ? { reply_markup: withSelective(msg.markup, options.replyTo !== undefined) } : {}),
      ...(options.replyTo !== undefined ? { reply_parameters: { message_id: options.replyTo, allow_sending_without_reply: true } } : {}),
      ...(options.threadId && /^\d+$/.test(options.threadId) ? { message_thread_id: Number(options.threadId) } : {}),
      ...(options.silent ? { disable_notification: true } : {}),
    };
    try {
      const sent =
        msg.kind === 'photo' && msg.photo
          ? await this.api.sendPhoto(chatId, new InputFile(msg.photo.png, msg.photo.filename ?? 'image.png'), {
              caption: msg.html,
              ...common,
            })
          : msg.kind === 'document' && msg.document
            ? await this.api.sendDocument(chatId, new InputFile(msg.document.data, msg.document.filename), { caption: msg.html, ...common })
            : await this.api.sendMessage(chatId, msg.html, { ...common, link_preview_options: { is_disabled: true } });
      // A photo or document can only be edited as one: the ref says so (kept with the deposit card).
      const media = msg.kind === 'photo' || msg.kind === 'document';
      return {
        platform: 'telegram',
        chatId: String(sent.chat.id),
        messageId: String(sent.message_id),
        ...(media ? { kind: 'media' as const } : {}),
      };
    } catch (err) {
      throw toDeliveryError(err, this.token);
    }
  }
}

/** In a group, a ForceReply made selective pops up only for the user it replies to. */
function withSelective(markup: InlineKeyboardMarkup | ForceReply, selective: boolean): InlineKeyboardMarkup | ForceReply {
  return isForceReply(markup) && selective ? { ...markup, selective: true } : markup;
}

/**
 * The worker's Messenger: the Bot API alone, no update loop, no retries (the queue waits). Here,
 * not in adapter.ts, so a worker loads no update loop.
 */
export function telegramMessenger(settings: { token: string; apiRoot?: string }): TelegramMessenger {
  return new TelegramMessenger({ token: settings.token, ...(settings.apiRoot ? { apiRoot: settings.apiRoot } : {}) });
}

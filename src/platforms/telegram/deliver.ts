import type { Api } from 'grammy';
import type { ChatKind, ChatTarget, MessageRef } from '../../contracts/incoming.js';
import { DeliveryError } from '../../contracts/messenger.js';
import { replyButtons, replyText, type Reply } from '../../contracts/reply.js';
import type { Translate } from '../../i18n/index.js';
import type { Logger } from '../../log.js';
import { adapterWords, type LocaleOf } from '../words.js';
import type { InlineKeyboardMarkup } from 'grammy/types';
import { isNotModified, telegramError } from './errors.js';
import type { TelegramMessenger } from './messenger.js';
import { isForceReply, renderReply } from './render.js';

/**
 * Puts the core's Replies where they belong for one update: here, privately to the user (with a
 * public pointer when Telegram refuses), as a callback alert, or in place of the pressed message.
 * A failed reply is logged and the user told politely; nothing here throws.
 */

export interface DeliveryDeps {
  api: Api;
  messenger: TelegramMessenger;
  logger: Logger;
  token: string;
  botUsername: string;
  /** Where the creator's deposit card landed (BotCore.depositCardSent): tracking edits it later. */
  depositCardSent?: (swapId: string, chat: ChatTarget, ref: MessageRef) => Promise<void>;
  /** The language of the adapter's own words (BotCore.localeOf). */
  localeOf?: LocaleOf;
}

/** Where the update came from. */
export interface Origin {
  chatId: string;
  chatKind: ChatKind;
  /** The forum topic the update came from: answers here go to it. */
  threadId?: string;
  /** The sender's own id, when the sender is a user (a chat posting as itself has no DM). */
  dmUserId?: number;
  /** The user's message (groups: replies quote it so a ForceReply targets only its sender). */
  userMessageId?: number;
  /** The message carrying the pressed button. */
  buttonMessage?: { ref: MessageRef; isPhoto: boolean };
  callbackQueryId?: string;
  /**
   * The pressed message is an ephemeral one (seen by the presser alone): the answers stay with
   * them, and an edit changes that message (editEphemeralMessageText).
   */
  ephemeralMessageId?: number;
  /**
   * A press on a message sent through inline mode: it sits in a chat the bot may not be in, so
   * only that message can be edited; anything else goes privately or as an alert.
   */
  inline?: boolean;
  /** The sender's language_code, for the adapter's own words when the core has no saved choice. */
  locale?: string;
  /**
   * Whether the bot administers this group (asked only when needed, cached): a bot that is not an
   * admin may send an ephemeral message only tied to the receiver's button press.
   */
  botIsAdmin?: () => Promise<boolean>;
}

const ALERT_LIMIT = 200;

/**
 * A button press answered by one short, plain, button-less reply that is ephemeral or a
 * warning/error ("this button has expired") shows as an alert: it concerns only the presser and
 * should not add a message to the chat.
 */
function alertText(replies: Reply[]): string | undefined {
  const [reply] = replies;
  if (!reply || replies.length !== 1) return undefined;
  if (reply.target !== 'ephemeral' && reply.tone !== 'error' && reply.tone !== 'warning') return undefined;
  if (reply.image || reply.prompt || replyButtons(reply).length > 0) return undefined;
  const t = replyText(reply).trim();
  return t.length > 0 && t.length <= ALERT_LIMIT ? t : undefined;
}

export class ReplyDelivery {
  private answered = false;
  /** The neutral pointer to the private chat was posted: once per update, however many replies. */
  private pointed = false;

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly origin: Origin,
  ) {}

  async deliverAll(replies: Reply[]): Promise<void> {
    const alert = this.origin.callbackQueryId ? alertText(replies) : undefined;
    // In a group an ephemeral message tied to the press comes first (it can hold buttons); the alert is its fallback.
    if (alert !== undefined && !this.mayBeEphemeral()) return this.answer(alert, true);
    let failed = false;
    for (const reply of replies) {
      try {
        await this.deliver(reply);
      } catch (err) {
        failed = true;
        this.deps.logger.warn(
          { err: telegramError(err, this.deps.token), chatKind: this.origin.chatKind },
          'telegram: a reply could not be delivered',
        );
      }
    }
    if (failed) await this.apologise();
    else await this.answer();
  }

  /** Always answer a button press, once: Telegram shows a spinner until we do. */
  async answer(text?: string, alert = false): Promise<void> {
    if (!this.origin.callbackQueryId || this.answered) return;
    this.answered = true;
    await this.deps.api
      .answerCallbackQuery(this.origin.callbackQueryId, text ? { text: text.slice(0, ALERT_LIMIT), show_alert: alert } : {})
      .catch((err: unknown) =>
        this.deps.logger.debug({ err: telegramError(err, this.deps.token) }, 'telegram: answerCallbackQuery failed'),
      );
  }

  /** The polite line when something failed: an alert for a button press, a message otherwise. */
  async apologise(): Promise<void> {
    if (this.origin.callbackQueryId && !this.answered) return this.answer((await this.words('person'))('error.bug.reason'), true);
    await this.deps.api.sendMessage(this.origin.chatId, (await this.words('chat'))('error.bug.reason')).catch(() => undefined);
    await this.answer();
  }

  /** The adapter's own words: for the sender alone (an alert), or for everyone in the chat. */
  words(to: 'person' | 'chat'): Promise<Translate> {
    const o = this.origin;
    const userId = String(o.dmUserId ?? o.chatId);
    const alone = to === 'person' || o.chatKind === 'private';
    return adapterWords(this.deps.localeOf, {
      platform: 'telegram',
      userId,
      chatId: alone ? userId : o.chatId,
      chatKind: alone ? 'private' : o.chatKind,
      ...(o.locale ? { locale: o.locale } : {}),
    });
  }

  /** Telegram shows ephemeral messages in groups, to a real user, and not through inline mode. */
  private mayBeEphemeral(): boolean {
    return this.origin.chatKind === 'group' && this.origin.inline !== true && this.origin.dmUserId !== undefined;
  }

  /**
   * Where Telegram delivers a new ephemeral message: tied to the receiver's own button press, or
   * sent by a bot that administers the group. Anything else is refused (a typed command in a group
   * where the bot is a plain member), so it is not tried: the member gets it privately instead.
   */
  private async ephemeralDeliverable(): Promise<boolean> {
    if (!this.mayBeEphemeral()) return false;
    if (this.origin.callbackQueryId && !this.answered) return true;
    return (await this.origin.botIsAdmin?.().catch(() => false)) === true;
  }

  private async deliver(given: Reply): Promise<void> {
    // Pressed on an ephemeral message: the exchange belongs to the presser; what it says stays with them.
    const reply: Reply =
      this.origin.ephemeralMessageId !== undefined && given.target === 'here' ? { ...given, target: 'ephemeral' } : given;
    if (reply.target === 'ephemeral' && this.origin.chatKind === 'group' && this.origin.inline !== true) {
      if (this.mayBeEphemeral() && reply.mode === 'edit' && (await this.editEphemeral(reply))) return;
      if ((await this.ephemeralDeliverable()) && (await this.sendEphemeral(reply))) return;
      // Not deliverable, refused, or no person to show it to (an anonymous admin posting as the
      // group): an alert to their press; a wizard question is asked in the chat as before; the
      // rest goes privately (below), and never to the group when it is private.
      const alert = this.mayBeEphemeral() && this.origin.callbackQueryId && !this.answered ? alertText([reply]) : undefined;
      if (alert !== undefined) return this.answer(alert, true);
      const asChat = this.origin.dmUserId === undefined && reply.ephemeralFallback === 'notPrivate';
      if (reply.ephemeralFallback === 'here' || asChat)
        return this.show(this.origin.chatId, this.origin.chatKind, { ...reply, target: 'here', mode: 'new' });
    }
    const privately =
      reply.target === 'dm' ||
      (reply.target === 'ephemeral' && this.origin.chatKind === 'group') ||
      (this.origin.inline === true && reply.mode !== 'edit');
    if (!privately || this.origin.chatKind === 'private') return this.show(this.origin.chatId, this.origin.chatKind, reply);
    if (this.origin.dmUserId === undefined) return this.fallback(reply);
    try {
      await this.show(String(this.origin.dmUserId), 'private', reply);
    } catch (err) {
      // 403 "bot can't initiate conversation with a user" (or blocked): say so in the group.
      if (err instanceof DeliveryError && err.failure === 'gone') return this.fallback(reply);
      throw err;
    }
  }

  /**
   * The reply as an ephemeral message (Bot API 10.3 ephemeral_message_parameters): seen by the
   * sender alone, tied to their button press when one caused it. Text and inline buttons only: a
   * reply to an ephemeral message must itself be ephemeral, so a ForceReply prompt is left out (the
   * wizard's "Continue privately" button carries on). False when Telegram refuses it.
   */
  /** The reply as one ephemeral text message (no ForceReply), or undefined when it cannot be one. */
  private ephemeralText(reply: Reply): { html: string; markup?: InlineKeyboardMarkup } | undefined {
    const { prompt: _prompt, ...rest } = reply;
    const rendered = renderReply({ ...rest, mode: 'new' }, { botUsername: this.deps.botUsername });
    const [m] = rendered.messages;
    if (!m || m.kind !== 'text' || rendered.messages.length !== 1) return undefined;
    return { html: m.html, ...(m.markup && !isForceReply(m.markup) ? { markup: m.markup } : {}) };
  }

  /** Replaces the pressed ephemeral message in place; false when Telegram refuses (then a new one). */
  private async editEphemeral(reply: Reply): Promise<boolean> {
    const m = this.ephemeralText(reply);
    if (!m || this.origin.ephemeralMessageId === undefined || this.origin.dmUserId === undefined) return false;
    try {
      await this.deps.api.editEphemeralMessageText(this.origin.chatId, this.origin.dmUserId, this.origin.ephemeralMessageId, m.html, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(m.markup ? { reply_markup: m.markup } : {}),
      });
      return true;
    } catch (err) {
      if (isNotModified(err)) return true;
      this.deps.logger.info({ err: telegramError(err, this.deps.token) }, 'telegram: ephemeral edit refused; sending anew');
      return false;
    }
  }

  private async sendEphemeral(reply: Reply): Promise<boolean> {
    const m = this.ephemeralText(reply);
    if (!m || this.origin.dmUserId === undefined) return false;
    const markup = m.markup;
    try {
      await this.deps.api.sendMessage(this.origin.chatId, m.html, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(markup ? { reply_markup: markup } : {}),
        ...(this.origin.threadId ? { message_thread_id: Number(this.origin.threadId) } : {}),
        ephemeral_message_parameters: {
          receiver_user_id: this.origin.dmUserId,
          ...(this.origin.callbackQueryId ? { callback_query_id: this.origin.callbackQueryId } : {}),
        },
      });
      return true;
    } catch (err) {
      this.deps.logger.info({ err: telegramError(err, this.deps.token) }, 'telegram: ephemeral message refused; falling back');
      return false;
    }
  }

  private async show(chatId: string, chatKind: ChatKind, reply: Reply): Promise<void> {
    const { messenger } = this.deps;
    const here = chatId === this.origin.chatId;
    const options = here && chatKind !== 'private' && this.origin.userMessageId !== undefined ? { replyTo: this.origin.userMessageId } : {};
    const pressed = this.origin.buttonMessage;
    // Photos cannot become text: a card that was a picture is answered with a new message.
    if (reply.mode === 'edit' && pressed && pressed.ref.chatId === chatId && !pressed.isPhoto) {
      try {
        await messenger.edit(pressed.ref, reply, options);
        return;
      } catch (err) {
        if (!(err instanceof DeliveryError && err.failure === 'message_gone')) throw err;
      }
    }
    if (this.origin.inline && here) throw new Error('telegram: nothing can be sent to the chat of an inline message');
    const threadId = here ? this.origin.threadId : undefined;
    const target: ChatTarget = { platform: 'telegram', chatId, chatKind, ...(threadId ? { threadId } : {}) };
    const ref = await messenger.send(target, reply, options);
    if (reply.depositCardOf && chatKind === 'private') await this.deps.depositCardSent?.(reply.depositCardOf, target, ref);
  }

  /**
   * No DM possible (and no ephemeral message), so what was meant for one person is never
   * shown to the group: the reply's own public fallback if it has one, else a pointer to the
   * private chat, as an alert to a button press or as a message here.
   */
  private async fallback(reply: Reply): Promise<void> {
    const alert = async () => {
      const t = await this.words('person');
      return this.answer(
        this.deps.botUsername
          ? t('platform.telegram.privateOnly.alert', { bot: `@${this.deps.botUsername}` })
          : t('platform.telegram.privateOnly.text'),
        true,
      );
    };
    if (this.origin.inline && this.origin.callbackQueryId && !this.answered) return alert();
    if (reply.dmFallback) return this.show(this.origin.chatId, this.origin.chatKind, { ...reply.dmFallback, target: 'here', mode: 'new' });
    if (this.origin.callbackQueryId && !this.answered) return alert();
    if (this.pointed) return;
    this.pointed = true;
    // A neutral pointer for the member who asked (a reply to their message): in their language,
    // nothing of what was meant for them.
    const t = await this.words(this.origin.dmUserId !== undefined ? 'person' : 'chat');
    const notice: Reply = {
      tone: 'info',
      lines: [[{ kind: 'text', text: t('platform.telegram.privateOnly.text') }]],
      buttons: [[{ kind: 'url', label: t('platform.telegram.openPrivateChat'), url: `https://t.me/${this.deps.botUsername}` }]],
      target: 'here',
    };
    await this.show(this.origin.chatId, this.origin.chatKind, { ...notice, mode: 'new' });
  }
}

import type { Chat } from 'grammy/types';
import { err, ok, type TelegramResult } from '../../fakes/answers.js';
import type { Json } from '../../fakes/bodies.js';
import { checkMarkup } from './fake-rules.js';
import { parseTelegramHtml } from './telegram-html.js';

/**
 * Ephemeral messages as the Bot API 10.3 documents them (`ephemeral_message_parameters` on
 * sendMessage): only in groups and supergroups, seen by `receiver_user_id` alone, optionally tied
 * to that user's open callback query; no login_url buttons; the answer has message_id 0 and an
 * ephemeral_message_id. They are kept apart from the chat's messages: other members never see them.
 */
export interface EphemeralMessage {
  chatId: number;
  receiverId: number;
  ephemeralId: number;
  text: string;
  html: string;
  markup?: Json;
  callbackQueryId?: string;
  threadId?: number;
  /** Earlier HTML, one entry per edit. */
  versions: string[];
}

export class EphemeralStore {
  readonly sent: EphemeralMessage[] = [];
  private nextId = 1;

  /**
   * `openQuery`: the user who pressed an open callback query, undefined when none is open.
   * `botIsAdmin`: a bot that is a plain member may send one only tied to the receiver's press
   * (the refusal the issue-34 run met in basic groups; third-party libraries document it).
   */
  send(chat: Chat, p: Json, openQuery: (id: string) => number | undefined, botIsAdmin = false): TelegramResult {
    const raw = p.ephemeral_message_parameters;
    const params = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Json | undefined;
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      return err(400, "Bad Request: can't parse ephemeral message parameters JSON object");
    const receiver = Number(params.receiver_user_id);
    if (!Number.isSafeInteger(receiver) || receiver <= 0) return err(400, 'Bad Request: receiver_user_id is invalid');
    if (chat.type !== 'group' && chat.type !== 'supergroup')
      return err(400, 'Bad Request: ephemeral messages can be sent only to group chats');
    const query = params.callback_query_id === undefined ? undefined : String(params.callback_query_id);
    if (query !== undefined && openQuery(query) !== receiver)
      return err(400, 'Bad Request: callback query not found or sent by another user');
    const html = String(p.text ?? '');
    const parsed = p.parse_mode === 'HTML' ? parseTelegramHtml(html) : { ok: true as const, text: html };
    if (!parsed.ok) return err(400, parsed.error);
    if (parsed.text.trim() === '') return err(400, 'Bad Request: message text is empty');
    if (parsed.text.length > 4096) return err(400, 'Bad Request: message is too long');
    const markup = p.reply_markup as Json | undefined;
    const rows = (markup?.inline_keyboard ?? []) as Json[][];
    if (rows.flat().some((b) => 'login_url' in b))
      return err(400, 'Bad Request: login_url buttons are not supported in ephemeral messages');
    const markupError = checkMarkup(markup);
    if (markupError) return err(400, markupError);
    if (query === undefined && !botIsAdmin)
      return err(400, 'Bad Request: not enough rights to send ephemeral messages without a callback query');
    const stored: EphemeralMessage = {
      chatId: chat.id,
      receiverId: receiver,
      ephemeralId: this.nextId++,
      text: parsed.text,
      html,
      ...(markup ? { markup } : {}),
      ...(query ? { callbackQueryId: query } : {}),
      ...(p.message_thread_id !== undefined ? { threadId: Number(p.message_thread_id) } : {}),
      versions: [],
    };
    this.sent.push(stored);
    return ok({
      message_id: 0,
      ephemeral_message_id: stored.ephemeralId,
      date: Math.floor(Date.now() / 1000),
      chat,
      receiver_user: { id: receiver, is_bot: false, first_name: 'user' },
      text: parsed.text,
      ...(markup ? { reply_markup: markup } : {}),
    });
  }

  /** editEphemeralMessageText: only the receiver's own ephemeral message in that chat, text and inline keyboard. */
  edit(p: Json): TelegramResult {
    const m = this.sent.find(
      (e) =>
        e.chatId === Number(p.chat_id) && e.receiverId === Number(p.receiver_user_id) && e.ephemeralId === Number(p.ephemeral_message_id),
    );
    if (!m) return err(400, 'Bad Request: ephemeral message not found');
    const html = String(p.text ?? '');
    const parsed = p.parse_mode === 'HTML' ? parseTelegramHtml(html) : { ok: true as const, text: html };
    if (!parsed.ok) return err(400, parsed.error);
    if (parsed.text.trim() === '' || parsed.text.length > 4096) return err(400, 'Bad Request: message text is empty or too long');
    const markup = p.reply_markup as Json | undefined;
    if (markup && 'force_reply' in markup) return err(400, 'Bad Request: inline keyboard expected');
    if (((markup?.inline_keyboard ?? []) as Json[][]).flat().some((b) => 'login_url' in b))
      return err(400, 'Bad Request: login_url buttons are not supported in ephemeral messages');
    const markupError = checkMarkup(markup);
    if (markupError) return err(400, markupError);
    if (html === m.html && JSON.stringify(markup ?? null) === JSON.stringify(m.markup ?? null))
      return err(400, 'Bad Request: message is not modified');
    m.versions.push(m.html);
    Object.assign(m, { html, text: parsed.text });
    if (markup) m.markup = markup;
    else delete m.markup;
    return ok(true);
  }

  /** What one user was shown, ephemerally, in one chat. */
  to(chatId: number, userId: number): EphemeralMessage[] {
    return this.sent.filter((m) => m.chatId === chatId && m.receiverId === userId);
  }
}

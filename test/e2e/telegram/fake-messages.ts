import type { Chat, InlineKeyboardMarkup, Message, UserFromGetMe } from 'grammy/types';
import { err, ok, type TelegramResult } from '../../fakes/answers.js';
import type { Json } from '../../fakes/bodies.js';
import { checkMarkup, type StoredMessage } from './fake-rules.js';
import { parseTelegramHtml } from './telegram-html.js';

/** The fake's messages: what the bot sent (validated as Telegram does) and what users wrote. */
export class MessageStore {
  readonly all = new Map<string, StoredMessage>();
  private readonly lastId = new Map<number, number>();

  constructor(private readonly bot: UserFromGetMe) {}

  get(chatId: number, messageId: number): StoredMessage | undefined {
    return this.all.get(`${chatId}:${messageId}`);
  }

  put(m: StoredMessage): void {
    this.all.set(`${m.chat.id}:${m.message_id}`, m);
  }

  send(chat: Chat, method: string, p: Json, files: Record<string, Uint8Array>): TelegramResult {
    const isPhoto = method === 'sendPhoto';
    const html = String((isPhoto ? p.caption : p.text) ?? '');
    const parsed = p.parse_mode === 'HTML' ? parseTelegramHtml(html) : { ok: true as const, text: html, tags: [] };
    if (!parsed.ok) return err(400, parsed.error);
    if (!isPhoto && parsed.text.trim() === '') return err(400, 'Bad Request: message text is empty');
    if (!isPhoto && parsed.text.length > 4096) return err(400, 'Bad Request: message is too long');
    if (isPhoto && parsed.text.length > 1024) return err(400, 'Bad Request: message caption is too long');
    const markupError = checkMarkup(p.reply_markup);
    if (markupError) return err(400, markupError);
    // Telegram: "switch_inline_query_chosen_chat: not supported for messages sent in channels".
    if (chat.type === 'channel' && JSON.stringify(p.reply_markup ?? {}).includes('switch_inline_query_chosen_chat'))
      return err(400, 'Bad Request: BUTTON_TYPE_INVALID');
    if (isPhoto && !files.photo?.length) return err(400, 'Bad Request: there is no photo in the request');
    const stored: StoredMessage = {
      message_id: this.newId(chat.id),
      chat,
      from: null,
      fromBot: true,
      html,
      ...(isPhoto ? { caption: parsed.text, photoSize: files.photo!.length, photoBytes: files.photo! } : { text: parsed.text }),
      ...(p.reply_markup ? { markup: p.reply_markup as Json } : {}),
      ...(p.reply_parameters ? { replyTo: Number((p.reply_parameters as Json).message_id) } : {}),
      ...(p.message_thread_id !== undefined ? { threadId: Number(p.message_thread_id) } : {}),
      // Multipart sends carry booleans as text.
      ...(p.disable_notification === true || p.disable_notification === 'true' ? { silent: true } : {}),
      versions: [],
    };
    this.put(stored);
    return ok(this.asMessage(stored));
  }

  edit(method: string, p: Json): TelegramResult {
    const stored = this.get(Number(p.chat_id), Number(p.message_id));
    if (!stored || !stored.fromBot) return err(400, 'Bad Request: message to edit not found');
    const markup = p.reply_markup as Json | undefined;
    const markupError = checkMarkup(markup);
    if (markupError) return err(400, markupError);
    if ('force_reply' in (markup ?? {})) return err(400, 'Bad Request: inline keyboard expected');
    let html = stored.html ?? '';
    if (method === 'editMessageText' && stored.photoSize !== undefined)
      return err(400, 'Bad Request: there is no text in the message to edit');
    if (method === 'editMessageCaption' && stored.photoSize === undefined)
      return err(400, 'Bad Request: there is no caption in the message to edit');
    if (method !== 'editMessageReplyMarkup') html = String((method === 'editMessageText' ? p.text : p.caption) ?? '');
    const parsed =
      p.parse_mode === 'HTML' || method === 'editMessageReplyMarkup'
        ? parseTelegramHtml(html)
        : { ok: true as const, text: html, tags: [] };
    if (!parsed.ok) return err(400, parsed.error);
    if (parsed.text.length > (stored.photoSize !== undefined ? 1024 : 4096)) return err(400, 'Bad Request: message is too long');
    if (html === stored.html && JSON.stringify(markup ?? null) === JSON.stringify(stored.markup ?? null))
      return err(
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    stored.versions.push({ html: stored.html ?? '', markup: stored.markup });
    stored.html = html;
    if (stored.photoSize !== undefined) stored.caption = parsed.text;
    else stored.text = parsed.text;
    if (markup) stored.markup = markup;
    else delete stored.markup;
    return ok(this.asMessage(stored));
  }

  /** editMessageMedia: a photo message gets a new photo, caption and buttons (a text message has no media to edit). */
  editMedia(p: Json, files: Record<string, Uint8Array>): TelegramResult {
    const stored = this.get(Number(p.chat_id), Number(p.message_id));
    if (!stored || !stored.fromBot) return err(400, 'Bad Request: message to edit not found');
    const media = p.media as Json | undefined;
    if (!media || typeof media !== 'object' || media.type !== 'photo')
      return err(400, "Bad Request: can't parse InputMedia: media type must be one of: animation, audio, document, photo, video");
    const photo = files.media;
    if (!photo?.length) return err(400, 'Bad Request: wrong file identifier/HTTP URL specified');
    if (stored.photoSize === undefined) return err(400, 'Bad Request: there is no media in the message to edit');
    const markup = p.reply_markup as Json | undefined;
    const markupError = checkMarkup(markup);
    if (markupError) return err(400, markupError);
    const html = String(media.caption ?? '');
    const parsed = media.parse_mode === 'HTML' ? parseTelegramHtml(html) : { ok: true as const, text: html, tags: [] };
    if (!parsed.ok) return err(400, parsed.error);
    if (parsed.text.length > 1024) return err(400, 'Bad Request: message caption is too long');
    stored.versions.push({ html: stored.html ?? '', markup: stored.markup });
    stored.html = html;
    stored.caption = parsed.text;
    stored.photoSize = photo.length;
    stored.photoBytes = photo;
    if (markup) stored.markup = markup;
    else delete stored.markup;
    return ok(this.asMessage(stored));
  }

  newId(chatId: number): number {
    const id = (this.lastId.get(chatId) ?? 0) + 1;
    this.lastId.set(chatId, id);
    return id;
  }

  asMessage(s: StoredMessage): Message {
    return {
      message_id: s.message_id,
      date: Math.floor(Date.now() / 1000),
      chat: s.chat,
      ...(s.fromBot ? { from: this.bot } : s.from ? { from: s.from } : {}),
      ...(s.text !== undefined ? { text: s.text } : {}),
      ...(s.photoSize !== undefined
        ? {
            photo: [{ file_id: `ph${s.message_id}`, file_unique_id: `u${s.message_id}`, width: 256, height: 256, file_size: s.photoSize }],
            caption: s.caption ?? '',
          }
        : {}),
      ...(s.markup && 'inline_keyboard' in s.markup ? { reply_markup: s.markup as unknown as InlineKeyboardMarkup } : {}),
      ...(s.threadId !== undefined ? { message_thread_id: s.threadId, is_topic_message: true } : {}),
    } as Message;
  }
}

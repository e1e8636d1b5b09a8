import type { Chat, User } from 'grammy/types';
import type { Json } from '../../fakes/bodies.js';

/** Shapes and Telegram's rules for the fake Bot API (its envelope: test/fakes/answers.ts). */

export interface StoredMessage {
  message_id: number;
  chat: Chat;
  /** The user who wrote it; null for the bot's own messages (see fromBot) and channel posts. */
  from: User | null;
  fromBot?: boolean;
  /** Visible text (text messages). */
  text?: string;
  /** Visible caption (photos). */
  caption?: string;
  /** The HTML as sent (text or caption). */
  html?: string;
  /** Bytes of the uploaded photo. */
  photoSize?: number;
  /** The uploaded photo itself (the latest, after editMessageMedia). */
  photoBytes?: Uint8Array;
  markup?: Json;
  /** The message this one replies to. */
  replyTo?: number;
  /** Earlier contents, oldest first: one entry per successful edit. */
  versions: Array<{ html: string; markup: Json | undefined }>;
  /** The forum topic it is in (message_thread_id). */
  threadId?: number;
  /** Sent with disable_notification (delivered without sound). */
  silent?: boolean;
  /** The bot's reaction (setMessageReaction), if any. */
  reactions?: string[];
}

/**
 * The emoji a bot may react with (Bot API, ReactionTypeEmoji): anything else is REACTION_INVALID.
 * Notably not ✅.
 */
export const TELEGRAM_REACTIONS: ReadonlySet<string> = new Set([
  '👍',
  '👎',
  '❤',
  '🔥',
  '🥰',
  '👏',
  '😁',
  '🤔',
  '🤯',
  '😱',
  '🤬',
  '😢',
  '🎉',
  '🤩',
  '🤮',
  '💩',
  '🙏',
  '👌',
  '🕊',
  '🤡',
  '🥱',
  '🥴',
  '😍',
  '🐳',
  '❤‍🔥',
  '🌚',
  '🌭',
  '💯',
  '🤣',
  '⚡',
  '🍌',
  '🏆',
  '💔',
  '🤨',
  '😐',
  '🍓',
  '🍾',
  '💋',
  '🖕',
  '😈',
  '😴',
  '😭',
  '🤓',
  '👻',
  '👨‍💻',
  '👀',
  '🎃',
  '🙈',
  '😇',
  '😨',
  '🤝',
  '✍',
  '🤗',
  '🫡',
  '🎅',
  '🎄',
  '☃',
  '💅',
  '🤪',
  '🗿',
  '🆒',
  '💘',
  '🙉',
  '🦄',
  '😘',
  '💊',
  '🙊',
  '😎',
  '👾',
  '🤷‍♂',
  '🤷',
  '🤷‍♀',
  '😡',
]);

/** The button kinds this bot uses, checked as Telegram checks them; the error text or undefined. */
export function checkMarkup(markup: unknown): string | undefined {
  if (markup === undefined || markup === null) return undefined;
  if (typeof markup !== 'object') return "Bad Request: can't parse reply keyboard markup JSON object";
  const m = markup as Json;
  if ('force_reply' in m) {
    const ph = m.input_field_placeholder;
    if (ph !== undefined && (typeof ph !== 'string' || ph.length > 64)) return 'Bad Request: input field placeholder is too long';
    return undefined;
  }
  const rows = m.inline_keyboard;
  if (!Array.isArray(rows)) return 'Bad Request: field "inline_keyboard" must be an Array';
  for (const row of rows) {
    if (!Array.isArray(row)) return 'Bad Request: field "inline_keyboard" must be an Array of Arrays';
    for (const b of row as Json[]) {
      if (typeof b.text !== 'string' || b.text.length === 0) return 'Bad Request: text buttons are unallowed in the inline keyboard';
      const kinds = ['callback_data', 'url', 'copy_text', 'switch_inline_query_chosen_chat', 'web_app'].filter((k) => k in b);
      if (kinds.length !== 1) return 'Bad Request: inline keyboard button must have exactly one of the optional fields';
      if ('callback_data' in b) {
        const d = b.callback_data;
        if (typeof d !== 'string' || d.length === 0 || Buffer.byteLength(d) > 64) return 'Bad Request: BUTTON_DATA_INVALID';
      }
      if ('url' in b) {
        const u = String(b.url);
        if (!/^(https?|tg):\/\/\S+$/.test(u)) return `Bad Request: inline keyboard button URL '${u}' is invalid: Wrong HTTP URL`;
      }
      if ('web_app' in b) {
        const u = String((b.web_app as Json | undefined)?.url);
        if (!/^https:\/\/\S+$/.test(u)) return 'Bad Request: BUTTON_URL_INVALID';
      }
      if ('switch_inline_query_chosen_chat' in b) {
        const s = b.switch_inline_query_chosen_chat as Json | undefined;
        if (typeof s?.query !== 'string' || s.query.length > 256) return 'Bad Request: BUTTON_TYPE_INVALID';
      }
      if ('copy_text' in b) {
        const t = (b.copy_text as Json | undefined)?.text;
        if (typeof t !== 'string' || t.length === 0 || t.length > 256) return 'Bad Request: BUTTON_COPY_TEXT_INVALID';
      }
    }
  }
  return undefined;
}

import type { ForceReply, InlineKeyboardButton, InlineKeyboardMarkup } from 'grammy/types';
import type { Attachment, Button, Image, Line, Reply } from '../../contracts/reply.js';
import { linesToHtml, safeHttpUrl } from './html.js';

/**
 * Reply (neutral) -> the Telegram messages that show it: HTML text or a photo with an HTML caption,
 * an inline keyboard, and a ForceReply when the core wants free text next. Pure: no I/O.
 */

export const TEXT_LIMIT = 4096;
export const CAPTION_LIMIT = 1024;
const CALLBACK_DATA_BYTES = 64;
const COPY_TEXT_LIMIT = 256;
const PLACEHOLDER_LIMIT = 64;
const SHARE_QUERY_LIMIT = 256;
const START_PAYLOAD = /^[A-Za-z0-9_-]{1,64}$/;

export interface TelegramMessage {
  /** 'photo' carries `photo`, 'document' carries `document`; both show `html` as their caption. */
  kind: 'text' | 'photo' | 'document';
  /** HTML (parse_mode HTML), within TEXT_LIMIT or CAPTION_LIMIT visible characters. */
  html: string;
  markup?: InlineKeyboardMarkup | ForceReply;
  photo?: Image;
  document?: Attachment;
}

export interface RenderedReply {
  /** Sent in order (usually one). */
  messages: TelegramMessage[];
  /** Index of the message that holds the text and buttons: the one a later edit targets. */
  main: number;
  /** Buttons left out because Telegram would refuse them: a bug upstream, worth a log line. */
  problems: string[];
}

export interface RenderOptions {
  /** For deeplink buttons (https://t.me/<username>?start=<payload>). */
  botUsername?: string;
  /** The message goes to a private chat: web_app buttons are allowed (Telegram refuses them elsewhere). */
  privateChat?: boolean;
}

/** The reply's text as lines: bold title, the lines, then "name: value" fields. */
function replyLines(r: Reply): Line[] {
  const out: Line[] = [];
  if (r.title) out.push([{ kind: 'bold', text: r.title }]);
  if (r.title && r.lines.length > 0) out.push([]);
  out.push(...r.lines);
  if (r.fields?.length) {
    if (out.length > 0) out.push([]);
    for (const f of r.fields) out.push([{ kind: 'bold', text: `${f.name}:` }, { kind: 'text', text: ' ' }, ...f.value]);
  }
  return out;
}

function renderButton(b: Button, opts: RenderOptions, problems: string[]): InlineKeyboardButton | undefined {
  const text = b.label.trim() || '·';
  switch (b.kind) {
    case 'action':
      if (b.action.length === 0 || Buffer.byteLength(b.action, 'utf8') > CALLBACK_DATA_BYTES) {
        problems.push(`action button "${b.label}": callback data must be 1-64 bytes`);
        return undefined;
      }
      return { text, callback_data: b.action };
    case 'url': {
      const url = safeHttpUrl(b.url);
      if (!url) {
        problems.push(`url button "${b.label}": not an http(s) URL`);
        return undefined;
      }
      return { text, url };
    }
    case 'webapp': {
      // A Mini App: Telegram allows web_app buttons in private chats only, and https only.
      const url = safeHttpUrl(b.url);
      if (!url || !url.startsWith('https://')) {
        problems.push(`webapp button "${b.label}": not an https URL`);
        return undefined;
      }
      return opts.privateChat ? { text, web_app: { url } } : undefined;
    }
    case 'copy':
      if (b.text.length === 0 || b.text.length > COPY_TEXT_LIMIT) {
        problems.push(`copy button "${b.label}": text must be 1-256 characters`);
        return undefined;
      }
      return { text, copy_text: { text: b.text } };
    case 'deeplink':
      if (!opts.botUsername || !START_PAYLOAD.test(b.payload)) {
        problems.push(
          `deeplink button "${b.label}": ${opts.botUsername ? 'payload must be 1-64 of A-Z a-z 0-9 _ -' : 'bot username unknown'}`,
        );
        return undefined;
      }
      return { text, url: `https://t.me/${opts.botUsername}?start=${b.payload}` };
    case 'share':
      if (b.query.length > SHARE_QUERY_LIMIT) {
        problems.push(`share button "${b.label}": query must be at most ${SHARE_QUERY_LIMIT} characters`);
        return undefined;
      }
      // The user picks a chat (private, group or channel); the query opens there as @bot <query>.
      return {
        text,
        switch_inline_query_chosen_chat: { query: b.query, allow_user_chats: true, allow_group_chats: true, allow_channel_chats: true },
      };
  }
}

function renderKeyboard(rows: Button[][] | undefined, opts: RenderOptions, problems: string[]): InlineKeyboardMarkup | undefined {
  const keyboard = (rows ?? [])
    .map((row) => row.map((b) => renderButton(b, opts, problems)).filter((b): b is InlineKeyboardButton => b !== undefined))
    .filter((row) => row.length > 0);
  return keyboard.length > 0 ? { inline_keyboard: keyboard } : undefined;
}

function forceReply(prompt: NonNullable<Reply['prompt']>): ForceReply {
  const placeholder = (prompt.placeholder ?? prompt.label).slice(0, PLACEHOLDER_LIMIT);
  return { force_reply: true, ...(placeholder ? { input_field_placeholder: placeholder } : {}) };
}

/** Telegram refuses empty text; a reply with only buttons still needs a body. */
// Telegram refuses a message whose visible text is empty or blank ("<b>\t</b>" included).
const nonEmpty = (html: string, fallback: string): string => (html.replace(/<[^>]*>/g, '').trim() ? html : fallback);

export function renderReply(reply: Reply, opts: RenderOptions = {}): RenderedReply {
  const problems: string[] = [];
  const lines = replyLines(reply);
  const keyboard = renderKeyboard(reply.buttons, opts, problems);
  const messages: TelegramMessage[] = [];
  const fullText = linesToHtml(lines, TEXT_LIMIT);
  // The keyboard goes on the message that holds the text; a prompt with no keyboard rides on it too.
  const ownMarkup: InlineKeyboardMarkup | ForceReply | undefined = keyboard ?? (reply.prompt ? forceReply(reply.prompt) : undefined);

  if (reply.image) {
    const caption = linesToHtml(lines, CAPTION_LIMIT);
    if (caption === fullText) {
      messages.push({ kind: 'photo', html: caption, photo: reply.image, ...(ownMarkup ? { markup: ownMarkup } : {}) });
    } else {
      // Too long for a caption: the picture with its alt text, then the full text and buttons.
      messages.push({ kind: 'photo', html: linesToHtml([[{ kind: 'text', text: reply.image.alt }]], CAPTION_LIMIT), photo: reply.image });
      messages.push({ kind: 'text', html: nonEmpty(fullText, '…'), ...(ownMarkup ? { markup: ownMarkup } : {}) });
    }
  } else {
    messages.push({
      kind: 'text',
      html: nonEmpty(fullText, reply.prompt ? linesToHtml([[{ kind: 'text', text: reply.prompt.label }]], TEXT_LIMIT) : '…'),
      ...(ownMarkup ? { markup: ownMarkup } : {}),
    });
  }
  // A keyboard and a ForceReply cannot share a message: the prompt gets its own.
  if (reply.prompt && keyboard) {
    messages.push({
      kind: 'text',
      html: nonEmpty(linesToHtml([[{ kind: 'text', text: reply.prompt.label }]], TEXT_LIMIT), '…'),
      markup: forceReply(reply.prompt),
    });
  }
  const main = reply.prompt && keyboard ? messages.length - 2 : messages.length - 1;
  // A file follows its text as a document of its own (sendDocument), named in its caption.
  if (reply.attachment)
    messages.push({
      kind: 'document',
      html: linesToHtml([[{ kind: 'text', text: reply.attachment.filename }]], CAPTION_LIMIT),
      document: reply.attachment,
    });
  return { messages, main, problems };
}

export function isForceReply(m: InlineKeyboardMarkup | ForceReply | undefined): m is ForceReply {
  return m !== undefined && 'force_reply' in m;
}

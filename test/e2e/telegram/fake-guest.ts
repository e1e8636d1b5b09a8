import { err, ok, type TelegramResult } from '../../fakes/answers.js';
import type { Json } from '../../fakes/bodies.js';
import { checkMarkup } from './fake-rules.js';
import { parseTelegramHtml } from './telegram-html.js';

/**
 * Guest mode as the Bot API 10.0 documents it: a `guest_message` update (only when allowed_updates
 * lists it) whose `guest_query_id` is answered once by answerGuestQuery with ONE InlineQueryResult
 * (not an array), under the inline-result rules; the answer is a SentGuestMessage.
 */
export interface GuestAnswer {
  result: Json;
  /** The visible text of the message Telegram posted in the guest chat. */
  text: string;
  inlineMessageId: string;
}

export class GuestQueries {
  readonly answers = new Map<string, GuestAnswer>();
  private readonly open = new Set<string>();
  private next = 1;

  newQuery(): string {
    const id = `gq${this.next++}`;
    this.open.add(id);
    return id;
  }

  answer(p: Json): TelegramResult {
    const id = String(p.guest_query_id ?? '');
    const raw = p.result;
    const result = (typeof raw === 'string' ? JSON.parse(raw) : raw) as unknown;
    if (Array.isArray(result) || typeof result !== 'object' || result === null)
      return err(400, "Bad Request: can't parse InlineQueryResult JSON object");
    if (!this.open.has(id)) return err(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
    const r = result as Json;
    const rid = String(r.id ?? '');
    if (rid === '' || Buffer.byteLength(rid) > 64) return err(400, 'Bad Request: RESULT_ID_INVALID');
    if (r.type !== 'article' || typeof r.title !== 'string' || r.title === '') return err(400, 'Bad Request: RESULT_TITLE_EMPTY');
    const parsed = parseTelegramHtml(String((r.input_message_content as Json | undefined)?.message_text ?? ''));
    if (!parsed.ok) return err(400, parsed.error);
    if (parsed.text.trim() === '' || parsed.text.length > 4096) return err(400, 'Bad Request: MESSAGE_EMPTY');
    if (r.reply_markup !== undefined && (!('inline_keyboard' in (r.reply_markup as Json)) || checkMarkup(r.reply_markup)))
      return err(400, checkMarkup(r.reply_markup) ?? 'Bad Request: inline keyboard expected');
    this.open.delete(id);
    const inlineMessageId = `gm${this.next++}`;
    this.answers.set(id, { result: r, text: parsed.text, inlineMessageId });
    return ok({ inline_message_id: inlineMessageId });
  }
}

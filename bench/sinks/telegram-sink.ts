import { performance } from 'node:perf_hooks';
import { err, ok, tooManyRequests } from '../../test/fakes/answers.js';
import { telegramPayload, type Json } from '../../test/fakes/bodies.js';
import { listen, readBody, sendJson } from '../../test/fakes/http.js';
import { sinkRecorder, type SinkEvent, type SinkRecord } from './sink-event.js';
import { TokenBucket } from './token-bucket.js';

/**
 * A fake Telegram Bot API on 127.0.0.1 for TelegramMessenger (apiRoot). It answers like the
 * platform, records when each message arrives, and enforces the platform's limits with 429 +
 * retry_after: overall messages per second, and messages per minute in each group (negative chat
 * ids). Edits count as messages: they are what a status card costs. Its HTTP, request bodies and
 * answers are those of the end-to-end fake (test/fakes).
 */

export interface Limit {
  limit: number;
  windowMs: number;
}

export interface TelegramSinkOptions {
  /** Default 30 per 1 s. */
  overall?: Limit;
  /** Default 20 per 60 s, per group chat. */
  perGroup?: Limit;
  /**
   * Time compression of the limits (default 1). Telegram's retry_after is whole seconds; with
   * limits per shorter windows it is given in the same compressed seconds (a fraction).
   */
  timeScale?: number;
}

export interface TelegramSink extends SinkRecord {
  /** Give this to TelegramMessenger as apiRoot. */
  readonly apiRoot: string;
  readonly token: string;
  /** Changes the limits enforced from now on (the fan-out run compresses time). */
  setLimits(options: TelegramSinkOptions): void;
  close(): Promise<void>;
}

export const TELEGRAM_LIMITS: Readonly<Required<Omit<TelegramSinkOptions, 'timeScale'>>> = {
  overall: { limit: 30, windowMs: 1000 },
  perGroup: { limit: 20, windowMs: 60_000 },
};

const MESSAGE_METHODS: ReadonlySet<string> = new Set([
  'sendMessage',
  'sendPhoto',
  'editMessageText',
  'editMessageCaption',
  'editMessageReplyMarkup',
]);

export async function startTelegramSink(options: TelegramSinkOptions = {}): Promise<TelegramSink> {
  const token = '123456789:bench-telegram-token';
  let groupRule: Limit = TELEGRAM_LIMITS.perGroup;
  let timeScale = 1;
  let overall = new TokenBucket(TELEGRAM_LIMITS.overall.limit, TELEGRAM_LIMITS.overall.windowMs);
  const groups = new Map<string, TokenBucket>();
  const setLimits = (o: TelegramSinkOptions) => {
    const rule = o.overall ?? TELEGRAM_LIMITS.overall;
    overall = new TokenBucket(rule.limit, rule.windowMs);
    groupRule = o.perGroup ?? TELEGRAM_LIMITS.perGroup;
    timeScale = o.timeScale ?? 1;
    groups.clear();
  };
  setLimits(options);
  const recorder = sinkRecorder();
  let nextMessageId = 1;

  const server = await listen(async (req, res) => {
    const body = await readBody(req);
    const at = performance.now();
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
    if (!m || m[1] !== token) {
      sendJson(res, 404, err(404, 'Not Found'));
      return;
    }
    const method = m[2] as string;
    let fields: Json;
    try {
      fields = telegramPayload(body, req.headers['content-type']).payload;
    } catch (e) {
      sendJson(res, 400, err(400, `Bad Request: ${(e as Error).message}`));
      return;
    }
    const chatId = String(fields.chat_id ?? '');
    if (method === 'getMe') {
      sendJson(res, 200, ok({ id: 123456789, is_bot: true, first_name: 'Bench', username: 'bench_swapbot' }));
      return;
    }
    if (!MESSAGE_METHODS.has(method)) {
      sendJson(res, 200, ok(true));
      return;
    }
    const isGroup = chatId.startsWith('-');
    let group: TokenBucket | undefined;
    if (isGroup) {
      group = groups.get(chatId);
      if (!group) groups.set(chatId, (group = new TokenBucket(groupRule.limit, groupRule.windowMs)));
    }
    // A refused call counts against nothing; an accepted one against both windows.
    const wait = Math.max(overall.peek(at), group?.peek(at) ?? 0);
    if (wait === 0) {
      overall.take(at);
      group?.take(at);
    }
    const text = String(fields.text ?? fields.caption ?? '');
    const messageId = method.startsWith('edit') ? String(fields.message_id ?? '') : String(nextMessageId++);
    const event: SinkEvent = { platform: 'telegram', method, chatId, messageId, at, limited: wait > 0, text };
    recorder.record(event);
    if (wait > 0) {
      const seconds = Math.max(1, Math.ceil((wait / 1000) * timeScale)) / timeScale;
      sendJson(res, 429, tooManyRequests(seconds));
      return;
    }
    recorder.deliver();
    const chat = {
      id: Number(chatId),
      type: isGroup ? 'supergroup' : 'private',
      ...(isGroup ? { title: 'Bench group' } : { first_name: 'Bench' }),
    };
    const date = Math.floor(Date.now() / 1000);
    const result = { message_id: Number(messageId), date, chat, ...(method.startsWith('edit') ? { edit_date: date } : {}), text };
    sendJson(res, 200, ok(result));
  });

  return {
    ...recorder.view,
    apiRoot: server.url,
    token,
    setLimits,
    close: () => server.close(),
  };
}

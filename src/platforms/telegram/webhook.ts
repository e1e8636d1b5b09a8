import type { IncomingMessage, ServerResponse } from 'node:http';
import { webhookCallback, type Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { BodyNotRead, BodyTooLarge, CLOSE_CONNECTION, readBody } from '../../http.js';
import type { Logger } from '../../log.js';
import { telegramError } from './errors.js';

/**
 * Webhook mode, through grammY's own webhookCallback: Telegram POSTs each update to our URL with
 * the secret we gave setWebhook in the X-Telegram-Bot-Api-Secret-Token header; anything without it
 * gets 401 and is never read. Our adapter adds what grammY's `http` one lacks: POST only, a body
 * size cap, and 400 for a body that is not an update.
 */

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
const MAX_BODY_BYTES = 1_000_000;
/**
 * Telegram redelivers when we are slow; past this we answer 200 and finish in the background.
 * An update in hand is not lost if the process then dies: its lease lapses and it is taken over.
 */
const ANSWER_WITHIN_MS = 8_000;

export type WebhookHandler = (req: IncomingMessage, res: ServerResponse) => void;

class BadUpdate extends Error {}

async function readUpdate(req: IncomingMessage): Promise<Update> {
  const raw = await readBody(req, MAX_BODY_BYTES);
  let v: unknown;
  try {
    v = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BadUpdate('not JSON');
  }
  if (typeof v === 'object' && v !== null && Number.isSafeInteger((v as { update_id?: unknown }).update_id)) return v as Update;
  throw new BadUpdate('not an update');
}

const end = (res: ServerResponse, status: number, body = '', headers: Record<string, string> = {}) => {
  if (!res.headersSent && !res.destroyed) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(body);
};

/** grammY's adapter contract for node:http, with the checks above. */
function adapter(req: IncomingMessage, res: ServerResponse) {
  const given = req.headers[SECRET_HEADER];
  let update: Promise<Update> | undefined;
  return {
    // Read only when asked: grammY asks after the secret matched.
    get update() {
      return (update ??= readUpdate(req));
    },
    header: typeof given === 'string' ? given : undefined,
    end: () => end(res, 200, 'ok'),
    respond: (json: string) => void res.writeHead(200, { 'content-type': 'application/json' }).end(json),
    unauthorized: () => {
      req.resume();
      end(res, 401, 'unauthorized');
    },
  };
}

export function createWebhookHandler(bot: Bot, secret: string, logger: Logger): WebhookHandler {
  if (!secret) throw new Error('A Telegram webhook needs a secret (TELEGRAM_WEBHOOK_SECRET).');
  const callback = webhookCallback(bot, adapter, { secretToken: secret, onTimeout: 'return', timeoutMilliseconds: ANSWER_WITHIN_MS });
  return (req, res) => {
    if (req.method !== 'POST') {
      req.resume();
      return end(res, 405, 'POST only');
    }
    (callback(req, res) as Promise<void>).catch((err: unknown) => {
      if (err instanceof BadUpdate || err instanceof BodyNotRead) return end(res, 400, 'not a Telegram update');
      if (err instanceof BodyTooLarge) return end(res, 413, err.message, CLOSE_CONNECTION);
      // Not 200: Telegram retries, and the update (if claimed) is answered once all the same.
      logger.error({ err: telegramError(err, bot.token) }, 'telegram: webhook request failed');
      end(res, 500, 'error');
    });
  };
}

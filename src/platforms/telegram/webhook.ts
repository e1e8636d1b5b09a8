import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookCallback, type Bot } from 'grammy';
import type { Update } from 'grammy/types';
import type { Logger } from '../../log.js';
import { describeError } from './errors.js';

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
export const ANSWER_WITHIN_MS = 8_000;

export type WebhookHandler = (req: IncomingMessage, res: ServerResponse) => void;

class BadUpdate extends Error {}

function readUpdate(req: IncomingMessage): Promise<Update> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BadUpdate('too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        const v = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        if (typeof v === 'object' && v !== null && Number.isSafeInteger((v as { update_id?: unknown }).update_id)) resolve(v as Update);
        else reject(new BadUpdate('not an update'));
      } catch {
        reject(new BadUpdate('not JSON'));
      }
    });
    req.on('error', () => reject(new BadUpdate('body not read')));
  });
}

const end = (res: ServerResponse, status: number, body = '') => {
  if (!res.headersSent && !res.destroyed) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
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
      if (err instanceof BadUpdate) return end(res, 400, 'not a Telegram update');
      // Not 200: Telegram retries, and the update (if claimed) is answered once all the same.
      logger.error({ err: describeError(err, bot.token) }, 'telegram: webhook request failed');
      end(res, 500, 'error');
    });
  };
}

export interface WebhookServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves the handler on `port` at the webhook URL's path (anything else: 404). For a process that
 * already has an HTTP server, mount createTelegramBot(...).webhookHandler(secret) instead. Closing
 * stops taking requests; the bot's stop() waits for the updates in hand.
 */
export async function serveWebhook(handler: WebhookHandler, opts: { url: string; port: number; host?: string }): Promise<WebhookServer> {
  const path = new URL(opts.url).pathname;
  const server = http.createServer((req, res) => {
    const reqPath = (req.url ?? '/').split('?')[0];
    if (reqPath !== path) {
      req.resume();
      res.writeHead(404).end('not found');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

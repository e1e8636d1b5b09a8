import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import type { Logger } from '../../log.js';
import { describeError } from './errors.js';

/**
 * Webhook mode: Telegram POSTs each update to our URL with the secret we gave setWebhook in the
 * X-Telegram-Bot-Api-Secret-Token header. Anything without it gets 401 and is never handled.
 */

const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
const MAX_BODY_BYTES = 1_000_000;
/** Telegram redelivers when we are slow; past this we answer 200 and finish in the background. */
const ANSWER_WITHIN_MS = 8_000;

export type WebhookHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  /** Resolves when every update being handled is done (for a clean shutdown). */
  drain(): Promise<void>;
};

function sameSecret(given: string | string[] | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  // Equal-length digests: a constant-time comparison that does not leak the secret's length.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });
}

function isUpdate(v: unknown): v is Update {
  return typeof v === 'object' && v !== null && Number.isSafeInteger((v as { update_id?: unknown }).update_id);
}

export function createWebhookHandler(bot: Bot, secret: string, logger: Logger): WebhookHandler {
  if (!secret) throw new Error('A Telegram webhook needs a secret (TELEGRAM_WEBHOOK_SECRET).');
  const inFlight = new Set<Promise<void>>();
  const end = (res: ServerResponse, status: number, body = '') => {
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') return end(res, 405, 'POST only');
    if (!sameSecret(req.headers[SECRET_HEADER], secret)) {
      req.resume();
      return end(res, 401, 'unauthorized');
    }
    const body = await readBody(req);
    let update: unknown;
    try {
      update = body === undefined ? undefined : JSON.parse(body);
    } catch {
      update = undefined;
    }
    if (!isUpdate(update)) return end(res, 400, 'not a Telegram update');
    await bot.init();
    const work = bot.handleUpdate(update).catch((err: unknown) => {
      logger.error({ err: describeError(err, bot.token) }, 'telegram: webhook update failed');
    });
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([work, new Promise<void>((r) => (timer = setTimeout(r, ANSWER_WITHIN_MS)))]);
    clearTimeout(timer);
    end(res, 200, 'ok');
  };
  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      logger.error({ err: describeError(err, bot.token) }, 'telegram: webhook request failed');
      end(res, 500, 'error');
    });
  }) as WebhookHandler;
  handler.drain = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  return handler;
}

export interface WebhookServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves the handler on `port` at the webhook URL's path (anything else: 404). For a process that
 * already has an HTTP server, mount createTelegramBot(...).webhookHandler(secret) instead.
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
    close: async () => {
      // Stop accepting, let requests in progress answer, drop idle keep-alive connections.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await handler.drain();
      await closed;
    },
  };
}

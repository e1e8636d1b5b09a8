import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, GrammyError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Redis } from 'ioredis';
import type { BotCore } from '../../bot/core.js';
import { silentLogger, type Logger } from '../../log.js';
import { createAdminCheck } from './admin.js';
import { buttonPresses } from './callbacks.js';
import { dedupUpdates } from './dedup.js';
import { SORRY } from './deliver.js';
import { describeError } from './errors.js';
import { textMessages } from './messages.js';
import { TelegramMessenger } from './messenger.js';
import { createWebhookHandler, type WebhookHandler } from './webhook.js';

/**
 * The Telegram bot: grammY with one Composer per feature (dedup, text, buttons), replies through
 * the TelegramMessenger, and 429/5xx retries capped so a user never waits minutes.
 */

export interface TelegramBotOptions {
  token: string;
  /** Another Bot API server (local, or a test fake). No trailing slash. */
  apiRoot?: string;
  core: BotCore;
  redis: Redis;
  keyPrefix: string;
  logger?: Logger;
  /** Skips getMe at start (tests, or a known bot). */
  botInfo?: UserFromGetMe;
  /** Called when long polling stops for good (revoked token). Default: logged. */
  onFatalError?: (err: Error) => void;
}

export interface TelegramBot {
  readonly bot: Bot;
  /** Sends and edits through the bot's own (auto-retrying) Api. */
  readonly messenger: TelegramMessenger;
  /** Long polling. Resolves once polling runs; rejects if the bot cannot start (bad token). */
  start(): Promise<void>;
  /** Stops polling (or the webhook handler) after the update in hand is done. */
  stop(): Promise<void>;
  /** A node:http handler for webhook mode; 401 unless the secret header matches. */
  webhookHandler(secret: string): WebhookHandler;
}

export const ALLOWED_UPDATES = ['message', 'callback_query', 'channel_post'] as const;
/** Interactive replies: wait out short 429s only; 3 tries for 5xx. */
export const INTERACTIVE_RETRY = { maxDelaySeconds: 5, maxRetryAttempts: 3, rethrowHttpErrors: true } as const;
const CONFLICT_RETRY_MS = 5_000;

export function createTelegramBot(opts: TelegramBotOptions): TelegramBot {
  const logger = opts.logger ?? silentLogger;
  const token = opts.token;
  const bot = new Bot(token, {
    client: { apiRoot: opts.apiRoot ?? 'https://api.telegram.org', timeoutSeconds: 60 },
    ...(opts.botInfo ? { botInfo: opts.botInfo } : {}),
  });
  // A network failure is not retried: the request may have reached Telegram (a double message).
  bot.api.config.use(autoRetry(INTERACTIVE_RETRY));
  const messenger = new TelegramMessenger({ token, api: bot.api, botUsername: () => (bot.isInited() ? bot.botInfo.username : undefined) });
  const isAdmin = createAdminCheck({ api: bot.api, redis: opts.redis, keyPrefix: opts.keyPrefix, logger, token });
  const deps = { core: opts.core, api: bot.api, messenger, isAdmin, logger, token };

  bot.use(dedupUpdates({ redis: opts.redis, keyPrefix: opts.keyPrefix, logger }));
  bot.use(textMessages(deps));
  bot.use(buttonPresses(deps));

  bot.catch(async (err) => {
    // Never the error object itself: a wrapped network error may quote the URL with the token.
    logger.error({ err: describeError(err.error, token), updateId: err.ctx.update.update_id }, 'telegram: update failed');
    const ctx = err.ctx;
    try {
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: SORRY, show_alert: true });
      else if (ctx.chat) await ctx.api.sendMessage(ctx.chat.id, SORRY);
    } catch {
      // Telegram itself is failing: the log line above is all we can do.
    }
  });

  let stopping = false;
  let polling: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let webhook: WebhookHandler | undefined;
  const onFatal = opts.onFatalError ?? ((e: Error) => logger.error({ err: describeError(e, token) }, 'telegram: long polling stopped'));

  async function poll(started: () => void, failed: (e: Error) => void): Promise<void> {
    let running = false;
    while (!stopping) {
      try {
        await bot.start({
          allowed_updates: [...ALLOWED_UPDATES],
          onStart: () => {
            running = true;
            started();
          },
        });
        return;
      } catch (err) {
        if (stopping) return;
        // 409: another poller (the old process during a deploy). Wait for it to go away.
        if (err instanceof GrammyError && err.error_code === 409) {
          logger.warn('telegram: another process is polling this bot; retrying in a few seconds');
          await new Promise<void>((r) => {
            const t = setTimeout(r, CONFLICT_RETRY_MS);
            wakeUp = () => (clearTimeout(t), r());
          });
          continue;
        }
        const e = new Error(describeError(err, token));
        if (running) onFatal(e);
        else failed(e);
        return;
      }
    }
  }

  return {
    bot,
    messenger,
    start() {
      if (polling) return Promise.resolve();
      stopping = false;
      return new Promise<void>((resolve, reject) => {
        polling = poll(resolve, (e) => {
          polling = undefined;
          reject(e);
        });
      });
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      if (polling) {
        // grammY aborts the pending getUpdates and confirms the offset; the loop ends after the
        // update in hand, which `polling` waits for.
        if (bot.isRunning()) await bot.stop().catch((err: unknown) => logger.warn({ err: describeError(err, token) }, 'telegram: stop could not confirm the offset'));
        await polling;
        polling = undefined;
      }
      await webhook?.drain();
    },
    webhookHandler(secret: string) {
      webhook = createWebhookHandler(bot, secret, logger);
      return webhook;
    },
  };
}

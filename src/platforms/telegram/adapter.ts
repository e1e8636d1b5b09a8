import { Api } from 'grammy';
import type { Redis } from 'ioredis';
import type { BotCore } from '../../bot/core.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { createTelegramBot, type TelegramBot } from './bot.js';
import { registerTelegramCommands } from './commands.js';
import { telegramError } from './errors.js';
import { TelegramMessenger } from './messenger.js';
import type { WebhookHandler } from './webhook.js';

/**
 * The Telegram side of the `web`/`start` processes, `worker` and `register-commands`, from Config
 * alone: TELEGRAM_BOT_TOKEN, TELEGRAM_API_ROOT, TELEGRAM_WEBHOOK_URL, TELEGRAM_WEBHOOK_SECRET.
 */

/** The Telegram adapter of the `web`/`start` processes. */
export interface TelegramAdapter {
  readonly telegram: TelegramBot;
  readonly mode: 'polling' | 'webhook';
  /** Webhook mode: mount this on the process's HTTP server before start(). */
  readonly webhook?: { readonly path: string; readonly handler: WebhookHandler };
  /**
   * Reaches Telegram (retrying while it cannot), registers the command menu (best effort), then
   * sets the webhook or starts long polling. Rejects only if the token is refused or on stop().
   */
  start(): Promise<void>;
  /** SIGTERM: stop taking updates, finish the ones in hand. The webhook stays set at Telegram. */
  stop(): Promise<void>;
}

function tokenOf(config: Config): string {
  if (!config.TELEGRAM_BOT_TOKEN) throw new Error('Telegram is not configured: set TELEGRAM_BOT_TOKEN (from @BotFather).');
  return config.TELEGRAM_BOT_TOKEN;
}

/**
 * The one way to run Telegram: long polling, or, when TELEGRAM_WEBHOOK_URL and its secret are set,
 * grammY's webhookCallback at the URL's path (the caller serves it) plus setWebhook with the secret.
 */
export function telegramFromConfig(config: Config, deps: { core: BotCore; redis: Redis; logger: Logger; keyPrefix?: string }): TelegramAdapter {
  const token = tokenOf(config);
  const { logger } = deps;
  const telegram = createTelegramBot({
    token,
    apiRoot: config.TELEGRAM_API_ROOT,
    core: deps.core,
    redis: deps.redis,
    keyPrefix: deps.keyPrefix ?? config.REDIS_PREFIX,
    logger,
  });
  const { TELEGRAM_WEBHOOK_URL: url, TELEGRAM_WEBHOOK_SECRET: secret } = config;
  const hook = url && secret ? { url, secret } : undefined;
  return {
    telegram,
    mode: hook ? 'webhook' : 'polling',
    ...(hook ? { webhook: { path: new URL(hook.url).pathname, handler: telegram.webhookHandler(hook.secret) } } : {}),
    async start() {
      await telegram.connect();
      await registerTelegramCommands(telegram.bot.api).catch((err: unknown) =>
        logger.warn({ err: telegramError(err, token) }, 'telegram: could not register the command menu; commands still work'),
      );
      if (hook) await telegram.setWebhook(hook.url, hook.secret);
      else await telegram.start();
      logger.info(hook ? 'telegram: webhook set' : 'telegram: long polling');
    },
    stop: () => telegram.stop(),
  };
}

/** The worker's Messenger: the Bot API alone, no update loop, no retries (the queue waits). */
export function createTelegramMessenger(config: Config): TelegramMessenger {
  return new TelegramMessenger({ token: tokenOf(config), apiRoot: config.TELEGRAM_API_ROOT });
}

/** `swapbot register-commands`. */
export async function registerTelegramCommandsFromConfig(config: Config): Promise<void> {
  await registerTelegramCommands(new Api(tokenOf(config), { apiRoot: config.TELEGRAM_API_ROOT }));
}

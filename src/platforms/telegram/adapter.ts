import { Api } from 'grammy';
import type { Redis } from 'ioredis';
import type { BotCore } from '../../bot/core.js';
import type { Logger } from '../../log.js';
import { createTelegramBot, type TelegramBot } from './bot.js';
import { registerTelegramCommands } from './commands.js';
import { telegramError } from './errors.js';
import type { WebhookHandler } from './webhook.js';

/**
 * The Telegram side of the `web`/`start` processes, `worker` and `register-commands`, from the
 * values it needs (the composition reads them from Config: app/platform-settings.ts).
 */
export interface TelegramSettings {
  /** TELEGRAM_BOT_TOKEN. */
  token: string;
  /** TELEGRAM_API_ROOT (default https://api.telegram.org). */
  apiRoot?: string;
  /** TELEGRAM_WEBHOOK_URL and TELEGRAM_WEBHOOK_SECRET: webhook mode, else long polling. */
  webhook?: { url: string; secret: string; maxConnections?: number };
}

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

/**
 * The one way to run Telegram: long polling, or, when TELEGRAM_WEBHOOK_URL and its secret are set,
 * grammY's webhookCallback at the URL's path (the caller serves it) plus setWebhook with the secret.
 */
export function telegramAdapter(
  settings: TelegramSettings,
  deps: { core: BotCore; redis: Redis; logger: Logger; keyPrefix: string },
): TelegramAdapter {
  const { token } = settings;
  const { logger } = deps;
  const telegram = createTelegramBot({
    token,
    ...(settings.apiRoot ? { apiRoot: settings.apiRoot } : {}),
    core: deps.core,
    redis: deps.redis,
    keyPrefix: deps.keyPrefix,
    logger,
  });
  const hook = settings.webhook;
  return {
    telegram,
    mode: hook ? 'webhook' : 'polling',
    ...(hook ? { webhook: { path: new URL(hook.url).pathname, handler: telegram.webhookHandler(hook.secret) } } : {}),
    async start() {
      await telegram.connect();
      await registerTelegramCommands(telegram.bot.api).catch((err: unknown) =>
        logger.warn({ err: telegramError(err, token) }, 'telegram: could not register the command menu; commands still work'),
      );
      if (hook) await telegram.setWebhook(hook.url, hook.secret, hook.maxConnections);
      else await telegram.start();
      logger.info(hook ? 'telegram: webhook set' : 'telegram: long polling');
    },
    stop: () => telegram.stop(),
  };
}

/** `swapbot register-commands`. */
export async function registerTelegramMenus(settings: Pick<TelegramSettings, 'token' | 'apiRoot'>): Promise<void> {
  await registerTelegramCommands(new Api(settings.token, settings.apiRoot ? { apiRoot: settings.apiRoot } : {}));
}

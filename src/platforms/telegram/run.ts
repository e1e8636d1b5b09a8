import { Api } from 'grammy';
import type { Redis } from 'ioredis';
import type { BotCore } from '../../bot/core.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { createTelegramBot, type TelegramBot } from './bot.js';
import { registerTelegramCommands } from './commands.js';
import { describeError } from './errors.js';
import { TelegramMessenger } from './messenger.js';
import { serveWebhook } from './webhook.js';

/**
 * The Telegram side of the `web`/`start` processes, `worker` and `register-commands`, from Config
 * alone: TELEGRAM_BOT_TOKEN, TELEGRAM_API_ROOT, TELEGRAM_WEBHOOK_URL, TELEGRAM_WEBHOOK_SECRET, PORT.
 */

export interface RunningTelegram {
  readonly telegram: TelegramBot;
  readonly mode: 'polling' | 'webhook';
  /** Webhook mode: the port serving it. */
  readonly port?: number;
  /** SIGTERM: stop taking updates, finish the one in hand. The webhook stays set at Telegram. */
  stop(): Promise<void>;
}

function tokenOf(config: Config): string {
  if (!config.TELEGRAM_BOT_TOKEN) throw new Error('Telegram is not configured: set TELEGRAM_BOT_TOKEN (from @BotFather).');
  return config.TELEGRAM_BOT_TOKEN;
}

/**
 * Starts the bot: commands registered (best effort), then long polling, or, when
 * TELEGRAM_WEBHOOK_URL is set, an HTTP server on PORT at the URL's path plus setWebhook with the
 * secret. To serve the webhook from an existing HTTP server instead, use createTelegramBot and
 * mount its webhookHandler(secret).
 */
export async function startTelegram(config: Config, deps: { core: BotCore; redis: Redis; logger: Logger; keyPrefix?: string; webhookHost?: string }): Promise<RunningTelegram> {
  const token = tokenOf(config);
  const telegram = createTelegramBot({
    token,
    apiRoot: config.TELEGRAM_API_ROOT,
    core: deps.core,
    redis: deps.redis,
    keyPrefix: deps.keyPrefix ?? config.REDIS_PREFIX,
    logger: deps.logger,
  });
  await telegram.connect();
  await registerTelegramCommands(telegram.bot.api).catch((err: unknown) =>
    deps.logger.warn({ err: describeError(err, token) }, 'telegram: could not register the command menu; commands still work'),
  );
  const url = config.TELEGRAM_WEBHOOK_URL;
  const secret = config.TELEGRAM_WEBHOOK_SECRET;
  if (url && secret) {
    const server = await serveWebhook(telegram.webhookHandler(secret), { url, port: config.PORT, ...(deps.webhookHost ? { host: deps.webhookHost } : {}) });
    await telegram.setWebhook(url, secret);
    deps.logger.info({ port: server.port }, 'telegram: webhook mode');
    return {
      telegram,
      mode: 'webhook',
      port: server.port,
      stop: async () => {
        await server.close();
        await telegram.stop();
      },
    };
  }
  await telegram.start();
  deps.logger.info('telegram: long polling');
  return { telegram, mode: 'polling', stop: () => telegram.stop() };
}

/** The worker's Messenger: the Bot API alone, no update loop, no retries (the queue waits). */
export function createTelegramMessenger(config: Config): TelegramMessenger {
  return new TelegramMessenger({ token: tokenOf(config), apiRoot: config.TELEGRAM_API_ROOT });
}

/** `swapbot register-commands`. */
export async function registerTelegramCommandsFromConfig(config: Config): Promise<void> {
  await registerTelegramCommands(new Api(tokenOf(config), { apiRoot: config.TELEGRAM_API_ROOT }));
}

import { discordBotFromConfig } from '../platforms/discord/from-config.js';
import { ALLOWED_UPDATES, createTelegramBot } from '../platforms/telegram/bot.js';
import { registerTelegramCommands } from '../platforms/telegram/commands.js';
import { createWebhookHandler, redisReplayGuard } from '../tracking/webhook.js';
import { serveHttp, type RequestHandler } from './http-server.js';
import type { Runtime } from './runtime.js';

/** Where the web process accepts Layerswap's Svix-signed status notifications. */
export const LAYERSWAP_WEBHOOK_PATH = '/webhooks/layerswap';

/**
 * The platform adapters: Telegram (long polling, or a webhook on PORT), the Discord gateway, and
 * the Layerswap webhook endpoint. `alwaysServeHttp` (the `web` process) binds PORT even with no
 * webhook, because process managers such as Heroku expect the web process to listen there.
 */
export async function startWeb(rt: Runtime, opts: { alwaysServeHttp: boolean }): Promise<{ adapters: string[]; port?: number }> {
  const { config, logger } = rt;
  const routes = new Map<string, RequestHandler>();
  const afterListen: Array<() => Promise<unknown>> = [];
  const adapters: string[] = [];

  if (config.TELEGRAM_BOT_TOKEN) {
    const telegram = createTelegramBot({ token: config.TELEGRAM_BOT_TOKEN, apiRoot: config.TELEGRAM_API_ROOT, core: rt.core, redis: rt.redis, keyPrefix: config.REDIS_PREFIX, logger });
    await registerTelegramCommands(telegram.bot.api).catch((err: unknown) => logger.warn({ err }, 'telegram: could not register the command menu; commands still work'));
    const { TELEGRAM_WEBHOOK_URL: url, TELEGRAM_WEBHOOK_SECRET: secret } = config;
    if (url && secret) {
      routes.set(new URL(url).pathname, telegram.webhookHandler(secret));
      // Tell Telegram only once we listen, so its first call finds us.
      afterListen.push(() => telegram.bot.api.setWebhook(url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] }));
      adapters.push('telegram (webhook)');
    } else {
      await telegram.start();
      adapters.push('telegram (long polling)');
    }
    rt.onClose(() => telegram.stop());
  }

  if (config.DISCORD_TOKEN && config.DISCORD_APPLICATION_ID) {
    // Autocomplete answers from the cached catalogue only (it cannot wait for the API): load it now.
    await rt.catalog.networks().catch((err: unknown) => logger.warn({ err }, 'discord: could not load the network list yet; autocomplete fills in once it loads'));
    const discord = discordBotFromConfig(config, rt.core, logger);
    await discord.start();
    rt.onClose(() => discord.stop());
    adapters.push('discord');
  }

  if (config.LAYERSWAP_WEBHOOK_SECRET) {
    routes.set(
      LAYERSWAP_WEBHOOK_PATH,
      createWebhookHandler({ secret: config.LAYERSWAP_WEBHOOK_SECRET, onSwapHint: (id) => rt.tracking.pollNow(id), logger, replay: redisReplayGuard(rt.redis, config.REDIS_PREFIX) }),
    );
    adapters.push(`layerswap webhooks at ${LAYERSWAP_WEBHOOK_PATH}`);
  }

  if (routes.size === 0 && !opts.alwaysServeHttp) return { adapters };
  const server = await serveHttp(routes, { port: config.PORT, health: async () => (await rt.redis.ping()) === 'PONG' });
  rt.onClose(() => server.close());
  for (const fn of afterListen) await fn();
  logger.info({ port: server.port }, 'web: listening (/health and webhooks)');
  return { adapters, port: server.port };
}

import { asError } from '../log.js';
import { discordBot } from '../platforms/discord/adapter.js';
import { TokenRefused } from '../platforms/telegram/connect.js';
import { telegramAdapter } from '../platforms/telegram/adapter.js';
import { discordSettings, telegramSettings } from './platform-settings.js';
import { createWebhookHandler } from '../tracking/webhook.js';
import { serveHttp, type RequestHandler } from './http-server.js';
import { mcpWeb } from '../mcp/wiring.js';
import type { Runtime } from './runtime.js';
import { payPage, PAY_PATH } from '../pay/index.js';

/** Where the web process accepts Layerswap's Svix-signed status notifications. */
const LAYERSWAP_WEBHOOK_PATH = '/webhooks/layerswap';
/** Where agents reach the MCP server over Streamable HTTP. */
const MCP_PATH = '/mcp';
/** /health must answer even while Redis hangs: past this it says "not ready". */
const HEALTH_PING_MS = 2_000;

/**
 * The platform adapters: Telegram (long polling, or a webhook on PORT), the Discord gateway, and
 * the Layerswap webhook endpoint. `alwaysServeHttp` (the `web` process) binds PORT even with no
 * webhook, because process managers such as Heroku expect the web process to listen there.
 *
 * The HTTP server listens first; /health answers 503 until Redis answers and every adapter is up.
 * Telegram comes up in the background, so a start while Telegram is unreachable says so in the
 * log, keeps /health at 503, and retries until it can.
 */
export async function startWeb(
  rt: Runtime,
  opts: { alwaysServeHttp: boolean },
): Promise<{ adapters: string[]; port?: number; ready: Promise<void> }> {
  const { config, logger } = rt;
  const routes = new Map<string, RequestHandler>();
  const background: Array<() => Promise<void>> = [];
  const adapters: string[] = [];
  const waiting = new Set<string>();

  if (config.TELEGRAM_BOT_TOKEN) {
    const telegram = telegramAdapter(telegramSettings(config), { core: rt.core, redis: rt.redis, logger, keyPrefix: config.REDIS_PREFIX });
    // Mounted at once: Telegram's first call may come as soon as setWebhook is done.
    if (telegram.webhook) routes.set(telegram.webhook.path, telegram.webhook.handler);
    adapters.push(telegram.webhook ? 'telegram (webhook)' : 'telegram (long polling)');
    waiting.add('telegram');
    background.push(async () => {
      await telegram.start();
      waiting.delete('telegram');
    });
    rt.onClose('telegram', () => telegram.stop());
  }

  if (config.LAYERSWAP_WEBHOOK_SECRET) {
    routes.set(
      LAYERSWAP_WEBHOOK_PATH,
      createWebhookHandler({
        secret: config.LAYERSWAP_WEBHOOK_SECRET,
        onSwapHint: (id) => rt.tracking.pollNow(id),
        logger,
        replay: rt.tracking.webhookReplayGuard,
      }),
    );
    adapters.push(`layerswap webhooks at ${LAYERSWAP_WEBHOOK_PATH}`);
  }

  const prefixes = new Map<string, RequestHandler>();
  const pay = payPage(rt);
  if (pay) {
    prefixes.set(PAY_PATH, pay);
    adapters.push(`pay page at ${PAY_PATH}`);
  }

  if (opts.alwaysServeHttp || config.setVariables.includes('PORT')) {
    // Agents over Streamable HTTP (src/mcp): every request needs a key from `swapbot mcp-key create`.
    const mcp = await mcpWeb({ redisUrl: rt.redisUrl, coreDeps: rt.coreDeps, logger, botUsername: config.TELEGRAM_BOT_USERNAME });
    routes.set(MCP_PATH, mcp.handle);
    rt.onClose('mcp', mcp.close);
    adapters.push(`mcp at ${MCP_PATH}`);
  }

  let port: number | undefined;
  if (routes.size > 0 || prefixes.size > 0 || opts.alwaysServeHttp) {
    const server = await serveHttp(routes, {
      port: config.PORT,
      health: () => healthy(rt, waiting),
      metricsToken: config.METRICS_TOKEN,
      prefixes,
    });
    rt.onClose('http server', () => server.close());
    port = server.port;
    logger.info({ port }, 'web: listening (/health and webhooks)');
    rt.redis
      .ping()
      .catch(() =>
        logger.error(
          'web: Redis does not answer (unreachable, or a wrong password in REDIS_URL: see the Redis lines above); /health answers 503 while it keeps retrying',
        ),
      );
  }

  const ready = Promise.all(
    background.map((task) =>
      task().catch((err: unknown) => {
        if (err instanceof TokenRefused) logger.error(`${err.message} /health answers 503 until the process restarts with a valid token.`);
        else if (!rt.closing) logger.error({ err: asError(err) }, 'web: an adapter could not start');
      }),
    ),
  ).then(() => undefined);

  if (config.DISCORD_TOKEN && config.DISCORD_APPLICATION_ID) {
    waiting.add('discord');
    // Autocomplete answers from the cached catalogue only (it cannot wait for the API): load it now.
    await rt.catalog
      .warm()
      .catch((err: unknown) =>
        logger.warn({ err: asError(err) }, 'discord: could not load the network list yet; autocomplete fills in once it loads'),
      );
    const discord = discordBot(discordSettings(config), rt.core, logger);
    await discord.start();
    rt.onClose('discord', () => discord.stop());
    waiting.delete('discord');
    adapters.push('discord');
  }

  return { adapters, ready, ...(port !== undefined ? { port } : {}) };
}

export async function healthy(rt: Runtime, waiting: ReadonlySet<string>): Promise<boolean> {
  if (waiting.size > 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), HEALTH_PING_MS)));
  try {
    return await Promise.race([rt.redis.ping().then((p) => p === 'PONG'), late]);
  } finally {
    clearTimeout(timer);
  }
}

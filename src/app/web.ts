import { asError } from '../log.js';
import type { DiscordBot } from '../platforms/discord/bot.js';
import { discordSettings, telegramSettings } from './platform-settings.js';
import { createWebhookHandler } from '../tracking/webhook.js';
import { serveHttp, type RequestHandler } from './http-server.js';
import type { Runtime } from './runtime.js';
import { healthy } from './health.js';

/** Where the web process accepts Layerswap's Svix-signed status notifications. */
const LAYERSWAP_WEBHOOK_PATH = '/webhooks/layerswap';
/** Where agents reach the MCP server over Streamable HTTP. */
const MCP_PATH = '/mcp';

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

  // Each platform's library (grammY, discord.js) and the pay page load only when configured.
  if (config.TELEGRAM_BOT_TOKEN) {
    const { telegramAdapter } = await import('../platforms/telegram/adapter.js');
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

  // DISCORD_INTERACTIONS=http: interactions arrive as signed POSTs, so the route is mounted at once.
  let discordOverHttp: DiscordBot | undefined;
  const { discordBot, discordInteractions } =
    config.DISCORD_TOKEN && config.DISCORD_APPLICATION_ID ? await import('../platforms/discord/adapter.js') : {};
  if (discordBot && discordInteractions && config.DISCORD_INTERACTIONS === 'http') {
    const settings = discordSettings(config);
    discordOverHttp = discordBot(settings, rt.core, logger);
    const route = discordInteractions(settings, discordOverHttp, { claims: rt.tracking.webhookReplayGuard, logger });
    routes.set(route.path, route.handler);
  }

  const prefixes = new Map<string, RequestHandler>();
  const pay = config.PAY_PUBLIC_URL && config.PAY_LINK_SECRET ? await import('../pay/index.js') : undefined;
  const page = pay?.payPage(rt);
  if (pay && page) {
    prefixes.set(pay.PAY_PATH, page);
    adapters.push(`pay page at ${pay.PAY_PATH}`);
  }

  if (opts.alwaysServeHttp || config.setVariables.includes('PORT')) {
    // Agents over Streamable HTTP (src/mcp): every request needs a key from `swapbot mcp-key create`.
    const { mcpWeb } = await import('../mcp/wiring.js');
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

  if (discordBot) {
    // In the background, retried with back-off: Discord unreachable at start must not take
    // Telegram and the webhooks down with it (one failure domain per platform).
    waiting.add('discord');
    adapters.push(discordOverHttp ? 'discord (interactions at /discord/interactions)' : 'discord');
    let discord: DiscordBot | undefined;
    rt.onClose('discord', async () => discord?.stop());
    background.push(async () => {
      // Autocomplete answers from the cached catalogue only (it cannot wait for the API): load it now.
      await rt.catalog
        .warm()
        .catch((err: unknown) =>
          logger.warn({ err: asError(err) }, 'discord: could not load the network list yet; autocomplete fills in once it loads'),
        );
      discord = await startWithRetry(rt, 'discord', async () => {
        // Over HTTP start() only checks the token, so the one bot behind the route is kept.
        const bot = discordOverHttp ?? discordBot(discordSettings(config), rt.core, logger);
        await bot.start();
        return bot;
      });
      if (discord) waiting.delete('discord');
    });
  }

  const ready = Promise.all(
    background.map((task) =>
      task().catch((err: unknown) => {
        // platforms/telegram/connect.ts's TokenRefused, by name: that module loads grammY.
        if (err instanceof Error && err.name === 'TokenRefused')
          logger.error(
            { err: asError(err, { stack: false }) },
            'a token was refused; /health answers 503 until the process restarts with a valid token.',
          );
        else if (!rt.closing) logger.error({ err: asError(err) }, 'web: an adapter could not start');
      }),
    ),
  ).then(() => undefined);

  return { adapters, ready, ...(port !== undefined ? { port } : {}) };
}

/** Back-off between attempts to connect a platform: 1 s doubling to a minute. */
const RETRY_MAX_MS = 60_000;

/**
 * Connects a platform, again and again with back-off until it works or the process closes: the
 * first failure logged as an error (what and why), the retries quiet, the connection once it comes.
 * A refused token is not retried (it will not get better): /health stays 503 and the error says why.
 */
async function startWithRetry<T>(rt: Runtime, name: string, connect: () => Promise<T>): Promise<T | undefined> {
  for (let attempt = 0; !rt.closing; attempt++) {
    try {
      const value = await connect();
      if (attempt > 0) rt.logger.info({ attempts: attempt + 1 }, `${name}: connected after ${attempt} failed attempt(s)`);
      return value;
    } catch (err) {
      if (isTokenRefused(err)) {
        rt.logger.error(
          { err: asError(err, { stack: false }) },
          `${name}: the token was refused; /health answers 503 until the process restarts with a valid token.`,
        );
        return undefined;
      }
      const waitMs = Math.min(1000 * 2 ** attempt, RETRY_MAX_MS);
      if (attempt === 0)
        rt.logger.error({ err: asError(err) }, `${name}: cannot connect; retrying with back-off while the other platforms keep serving`);
      else rt.logger.debug({ err: asError(err), waitMs }, `${name}: still cannot connect`);
      await new Promise((r) => setTimeout(r, waitMs).unref());
    }
  }
  return undefined;
}

/** discord.js names a refused token TokenInvalid (a 401 from the gateway's login). */
const isTokenRefused = (err: unknown): boolean =>
  err instanceof Error && ((err as { code?: unknown }).code === 'TokenInvalid' || (err as { status?: unknown }).status === 401);

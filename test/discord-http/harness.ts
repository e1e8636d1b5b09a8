import type { BotCore } from '../../src/bot/core.js';
import { serveHttp } from '../../src/app/http-server.js';
import { discordInteractions, type DiscordSettings } from '../../src/platforms/discord/adapter.js';
import { createDiscordBot, type DiscordBot, type DiscordBotOptions } from '../../src/platforms/discord/bot.js';
import { redisReplayGuard } from '../../src/tracking/webhook.js';
import type { HttpInteractions } from '../e2e/discord/fake-interactions-http.js';
import { startDiscordWorld, type DiscordWorld } from '../e2e/discord/harness.js';
import { memoryLogger } from '../support/log.js';
import { testRedis, uniquePrefix } from '../support/redis.js';

/**
 * The Discord side of the web process with DISCORD_INTERACTIONS=http, on real sockets: the fake
 * Discord signs each interaction and POSTs it to /discord/interactions on the web process's HTTP
 * server (serveHttp, as `swapbot web` mounts it), and takes the answer as the first response.
 * Replays are refused through real Redis, as on any number of replicas.
 */
export interface HttpDiscord extends DiscordWorld {
  bot: DiscordBot;
  delivery: HttpInteractions;
  logLines: string[];
  /** The web process's endpoint. */
  endpoint: string;
  close(): Promise<void>;
}

export async function startHttpDiscord(
  core: BotCore,
  opts: Partial<DiscordBotOptions> = {},
  world: DiscordWorld | undefined = undefined,
): Promise<HttpDiscord> {
  world ??= await startDiscordWorld();
  const delivery = world.fake.deliverOverHttp();
  const { logger, lines } = memoryLogger([world.token]);
  const prefix = uniquePrefix('discord-http');
  const redis = testRedis(prefix);
  const settings: DiscordSettings = {
    token: world.token,
    applicationId: world.applicationId,
    apiUrl: world.fake.apiUrl,
    trackRole: 'Swap Trackers',
    interactions: 'http',
    publicKey: delivery.publicKeyHex,
  };
  const bot = createDiscordBot({
    token: settings.token,
    applicationId: settings.applicationId,
    core,
    logger,
    restApi: world.fake.apiUrl,
    trackRole: 'Swap Trackers',
    interactions: 'http',
    ...opts,
  });
  const route = discordInteractions(settings, bot, { claims: redisReplayGuard(redis, prefix), logger });
  const server = await serveHttp(new Map([[route.path, route.handler]]), { port: 0, host: '127.0.0.1', health: async () => true });
  delivery.endpoint = `http://127.0.0.1:${server.port}${route.path}`;
  await bot.start();
  return {
    ...world,
    bot,
    delivery,
    logLines: lines,
    endpoint: delivery.endpoint,
    async close() {
      await bot.stop();
      await server.close();
      await world.fake.close();
      await redis.quit();
    },
  };
}

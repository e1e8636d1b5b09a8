import { trackingRenderer } from '../bot/renderer.js';
import { agentDelivery } from '../mcp/delivery.js';
import type { Platform } from '../contracts/incoming.js';
import type { Messenger } from '../contracts/messenger.js';
import type { Config } from '../config.js';
import { discordSettings, telegramSettings } from './platform-settings.js';
import type { Runtime } from './runtime.js';

/**
 * Starts the tracking workers of this process with their messengers, one per configured platform
 * (each over that platform's HTTP API alone, no update loop: a `worker` needs only tokens), plus
 * any the caller already has (the terminal chat's), and the core's renderer. Only processes that
 * deliver build these clients: `web` never does.
 */
export async function startTrackingWorkers(rt: Runtime, extra: Partial<Record<Platform, Messenger>> = {}): Promise<void> {
  // Agents' keys (src/mcp) are followers too: their moments become events and signed webhooks.
  const agents = agentDelivery({ redisUrl: rt.redisUrl, coreDeps: rt.coreDeps, logger: rt.logger });
  rt.onClose('mcp webhooks', agents.close);
  await rt.tracking.startWorkers({
    messengers: { ...(await buildMessengers(rt.config)), mcp: agents.messenger, ...extra },
    render: trackingRenderer,
    renderers: { mcp: agents.renderer },
    concurrency: rt.config.TRACK_POLL_CONCURRENCY,
  });
}

/** Each platform's HTTP client (grammY's Api, @discordjs/rest) loads only with its token: the terminal chat and `swapbot mcp` start without them. */
async function buildMessengers(config: Config): Promise<Partial<Record<Platform, Messenger>>> {
  const byPlatform: Partial<Record<Platform, Messenger>> = {};
  if (config.TELEGRAM_BOT_TOKEN)
    byPlatform.telegram = (await import('../platforms/telegram/messenger.js')).telegramMessenger(telegramSettings(config));
  if (config.DISCORD_TOKEN)
    byPlatform.discord = (await import('../platforms/discord/messenger.js')).discordMessenger(discordSettings(config));
  return byPlatform;
}

import { REST } from 'discord.js';
import type { BotCore } from '../../bot/core.js';
import { silentLogger, type Logger } from '../../log.js';
import { createDiscordBot, type DiscordBot } from './bot.js';
import { registerDiscordCommands, type RegisterResult } from './commands.js';
import { DISCORD_INTERACTIONS_PATH, interactionsEndpoint, type InteractionClaims } from './http-endpoint.js';

/**
 * The Discord side of the `web`/`start` processes, `worker` and `register-commands`, from the
 * values it needs (the composition reads them from Config: app/platform-settings.ts).
 */
export interface DiscordSettings {
  /** DISCORD_TOKEN and DISCORD_APPLICATION_ID. */
  token: string;
  applicationId: string;
  /** DISCORD_GUILD_ID: commands registered to this server only (instant), else globally. */
  guildId?: string;
  /** DISCORD_API_URL (default https://discord.com/api). */
  apiUrl?: string;
  /** DISCORD_GATEWAY_URL. */
  gatewayUrl?: string;
  /** DISCORD_TRACK_ROLE. */
  trackRole?: string;
  /** DISCORD_INTERACTIONS (default 'gateway'). */
  interactions?: 'gateway' | 'http';
  /** DISCORD_PUBLIC_KEY (hex): required over HTTP. */
  publicKey?: string;
}

/** The bot for the web process (`swapbot web` / `start`): over the gateway, or over HTTP (see discordInteractions). */
export function discordBot(settings: DiscordSettings, core: BotCore, logger?: Logger): DiscordBot {
  return createDiscordBot({
    token: settings.token,
    applicationId: settings.applicationId,
    core,
    ...(settings.apiUrl ? { restApi: settings.apiUrl } : {}),
    ...(logger ? { logger } : {}),
    ...(settings.gatewayUrl ? { gatewayUrl: settings.gatewayUrl } : {}),
    ...(settings.trackRole ? { trackRole: settings.trackRole } : {}),
    ...(settings.interactions ? { interactions: settings.interactions } : {}),
  });
}

/**
 * DISCORD_INTERACTIONS=http: the route the web process mounts for a bot made with `interactions:
 * 'http'`. `claims` (Redis in production) refuses a replayed interaction on any replica.
 */
export function discordInteractions(
  settings: Pick<DiscordSettings, 'publicKey'>,
  bot: DiscordBot,
  opts: { claims?: InteractionClaims; logger?: Logger; now?: () => number } = {},
): { path: string; handler: ReturnType<typeof interactionsEndpoint> } {
  const receive = bot.receive?.bind(bot);
  if (!settings.publicKey || !receive) throw new Error('Discord over HTTP needs DISCORD_PUBLIC_KEY and a bot made with interactions: http');
  return {
    path: DISCORD_INTERACTIONS_PATH,
    handler: interactionsEndpoint({ publicKey: settings.publicKey, receive, ...opts }),
  };
}

/** `swapbot register-commands`: to the guild when one is given (instant), else globally. */
export async function registerDiscordMenus(settings: DiscordSettings, logger: Logger = silentLogger): Promise<RegisterResult> {
  const rest = new REST(settings.apiUrl ? { api: settings.apiUrl } : {}).setToken(settings.token);
  const result = await registerDiscordCommands({
    rest,
    applicationId: settings.applicationId,
    ...(settings.guildId ? { guildId: settings.guildId } : {}),
  });
  logger.info(
    { scope: result.scope, created: result.created, updated: result.updated, deleted: result.deleted, unchanged: result.unchanged.length },
    'discord commands registered',
  );
  return result;
}

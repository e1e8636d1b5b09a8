import { REST } from 'discord.js';
import type { BotCore } from '../../bot/core.js';
import type { Config } from '../../config.js';
import { silentLogger, type Logger } from '../../log.js';
import { createDiscordBot, type DiscordBot } from './bot.js';
import { registerDiscordCommands, type RegisterResult } from './commands.js';
import { DiscordMessenger } from './messenger.js';

/**
 * The Discord pieces from the Config object: DISCORD_TOKEN, DISCORD_APPLICATION_ID,
 * DISCORD_GUILD_ID, DISCORD_API_URL, DISCORD_GATEWAY_URL and DISCORD_TRACK_ROLE.
 */
function credentials(config: Config): { token: string; applicationId: string } {
  if (!config.DISCORD_TOKEN || !config.DISCORD_APPLICATION_ID)
    throw new Error('Discord needs DISCORD_TOKEN and DISCORD_APPLICATION_ID (Discord developer portal: Bot, and General Information).');
  return { token: config.DISCORD_TOKEN, applicationId: config.DISCORD_APPLICATION_ID };
}

/** The gateway bot for the web process (`swapbot web` / `start`). */
export function discordBotFromConfig(config: Config, core: BotCore, logger?: Logger): DiscordBot {
  return createDiscordBot({
    ...credentials(config),
    core,
    restApi: config.DISCORD_API_URL,
    ...(logger ? { logger } : {}),
    ...(config.DISCORD_GATEWAY_URL ? { gatewayUrl: config.DISCORD_GATEWAY_URL } : {}),
    ...(config.DISCORD_TRACK_ROLE ? { trackRole: config.DISCORD_TRACK_ROLE } : {}),
  });
}

/** The Messenger for the tracking worker (REST only). */
export function discordMessengerFromConfig(config: Config): DiscordMessenger {
  return new DiscordMessenger({ token: credentials(config).token, api: config.DISCORD_API_URL });
}

/** `swapbot register-commands`: to DISCORD_GUILD_ID when set (instant), else globally. */
export async function registerDiscordCommandsFromConfig(config: Config, logger: Logger = silentLogger): Promise<RegisterResult> {
  const { token, applicationId } = credentials(config);
  const rest = new REST({ api: config.DISCORD_API_URL }).setToken(token);
  const result = await registerDiscordCommands({ rest, applicationId, ...(config.DISCORD_GUILD_ID ? { guildId: config.DISCORD_GUILD_ID } : {}) });
  logger.info({ scope: result.scope, created: result.created, updated: result.updated, deleted: result.deleted, unchanged: result.unchanged.length }, 'discord commands registered');
  return result;
}

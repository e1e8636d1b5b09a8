import { REST } from 'discord.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { registerDiscordCommands } from '../platforms/discord/commands.js';
import { registerTelegramCommandsFromConfig } from '../platforms/telegram/run.js';
import { StartupError } from './runtime.js';

/** `swapbot register-commands`: command menus on every configured platform, on demand. */
export async function registerCommands(config: Config, logger: Logger): Promise<void> {
  if (!config.telegramEnabled && !config.discordEnabled) {
    throw new StartupError('register-commands: no platform is configured. Set TELEGRAM_BOT_TOKEN and/or DISCORD_TOKEN with DISCORD_APPLICATION_ID.');
  }
  if (config.telegramEnabled) {
    await registerTelegramCommandsFromConfig(config);
    logger.info('telegram: command menus set for private chats and groups');
  }
  if (config.DISCORD_TOKEN && config.DISCORD_APPLICATION_ID) {
    const rest = new REST({ api: config.DISCORD_API_URL }).setToken(config.DISCORD_TOKEN);
    const result = await registerDiscordCommands({ rest, applicationId: config.DISCORD_APPLICATION_ID, ...(config.DISCORD_GUILD_ID ? { guildId: config.DISCORD_GUILD_ID } : {}) });
    logger.info({ result }, `discord: commands registered ${config.DISCORD_GUILD_ID ? 'to the server' : 'globally'}`);
  }
}

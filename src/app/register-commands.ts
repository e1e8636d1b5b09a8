import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { registerDiscordCommandsFromConfig } from '../platforms/discord/adapter.js';
import { registerTelegramCommandsFromConfig } from '../platforms/telegram/adapter.js';
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
  if (config.discordEnabled) await registerDiscordCommandsFromConfig(config, logger);
}

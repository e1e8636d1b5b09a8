import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { registerDiscordMenus } from '../platforms/discord/adapter.js';
import { registerTelegramMenus } from '../platforms/telegram/adapter.js';
import { discordSettings, telegramSettings } from './platform-settings.js';
import { StartupError } from './startup-error.js';

/** `swapbot register-commands`: command menus on every configured platform, on demand. */
export async function registerCommands(config: Config, logger: Logger): Promise<void> {
  if (!config.telegramEnabled && !config.discordEnabled) {
    throw new StartupError(
      'register-commands: no platform is configured. Set TELEGRAM_BOT_TOKEN and/or DISCORD_TOKEN with DISCORD_APPLICATION_ID.',
    );
  }
  if (config.telegramEnabled) {
    await registerTelegramMenus(telegramSettings(config));
    logger.info('telegram: command menus set for private chats and groups');
  }
  if (config.discordEnabled) await registerDiscordMenus(discordSettings(config), logger);
}

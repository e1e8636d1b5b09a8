import type { Platform } from '../bot/incoming.js';
import type { Messenger } from '../bot/messenger.js';
import type { Config } from '../config.js';
import { ConsoleMessenger } from '../platforms/console/messenger.js';
import { DiscordMessenger } from '../platforms/discord/messenger.js';
import { TelegramMessenger } from '../platforms/telegram/messenger.js';

/**
 * One Messenger per configured platform: what the tracking worker pushes cards through, over each
 * platform's HTTP API alone (no update loop), so `worker` processes need only tokens.
 */
export function buildMessengers(config: Config, opts: { console?: NodeJS.WritableStream | undefined }): { byPlatform: Partial<Record<Platform, Messenger>> } {
  const byPlatform: Partial<Record<Platform, Messenger>> = {};
  if (config.TELEGRAM_BOT_TOKEN) byPlatform.telegram = new TelegramMessenger({ token: config.TELEGRAM_BOT_TOKEN, apiRoot: config.TELEGRAM_API_ROOT });
  if (config.DISCORD_TOKEN) byPlatform.discord = new DiscordMessenger({ token: config.DISCORD_TOKEN, api: config.DISCORD_API_URL });
  if (opts.console) byPlatform.console = new ConsoleMessenger(opts.console);
  return { byPlatform };
}

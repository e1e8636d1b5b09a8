import type { Config } from '../config.js';
import type { DiscordSettings } from '../platforms/discord/adapter.js';
import type { TelegramSettings } from '../platforms/telegram/adapter.js';

/**
 * Config → the values each adapter takes (adapters never see Config). Throws, naming the
 * variables, when a platform is asked for but not configured.
 */
export function telegramSettings(config: Config): TelegramSettings {
  if (!config.TELEGRAM_BOT_TOKEN) throw new Error('Telegram is not configured: set TELEGRAM_BOT_TOKEN (from @BotFather).');
  const { TELEGRAM_WEBHOOK_URL: url, TELEGRAM_WEBHOOK_SECRET: secret } = config;
  const webhook = url && secret ? { url, secret, maxConnections: config.TELEGRAM_WEBHOOK_MAX_CONNECTIONS } : undefined;
  return { token: config.TELEGRAM_BOT_TOKEN, apiRoot: config.TELEGRAM_API_ROOT, ...(webhook ? { webhook } : {}) };
}

export function discordSettings(config: Config): DiscordSettings {
  if (!config.DISCORD_TOKEN || !config.DISCORD_APPLICATION_ID)
    throw new Error('Discord needs DISCORD_TOKEN and DISCORD_APPLICATION_ID (Discord developer portal: Bot, and General Information).');
  return {
    token: config.DISCORD_TOKEN,
    applicationId: config.DISCORD_APPLICATION_ID,
    apiUrl: config.DISCORD_API_URL,
    ...(config.DISCORD_GUILD_ID ? { guildId: config.DISCORD_GUILD_ID } : {}),
    ...(config.DISCORD_GATEWAY_URL ? { gatewayUrl: config.DISCORD_GATEWAY_URL } : {}),
    ...(config.DISCORD_TRACK_ROLE ? { trackRole: config.DISCORD_TRACK_ROLE } : {}),
    interactions: config.DISCORD_INTERACTIONS,
    ...(config.DISCORD_PUBLIC_KEY ? { publicKey: config.DISCORD_PUBLIC_KEY } : {}),
  };
}

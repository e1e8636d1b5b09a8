/** The Telegram adapter: import from here. See run.ts for the process wiring. */
export { startTelegram, createTelegramMessenger, registerTelegramCommandsFromConfig, type RunningTelegram } from './run.js';
export { createTelegramBot, ALLOWED_UPDATES, type TelegramBot, type TelegramBotOptions } from './bot.js';
export { TelegramMessenger, type TelegramMessengerOptions } from './messenger.js';
export { registerTelegramCommands, telegramCommands } from './commands.js';
export { serveWebhook, createWebhookHandler, type WebhookHandler, type WebhookServer } from './webhook.js';
export { renderReply, type RenderedReply } from './render.js';

/** The terminal chat: a private chat with the bot over stdin/stdout, and its Messenger. */
export { startConsoleChat } from './bot.js';
export { ConsoleMessenger } from './messenger.js';

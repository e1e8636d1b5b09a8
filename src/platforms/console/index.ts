/** The terminal chat: a private chat with the bot over stdin/stdout, and its Messenger. */
export { startConsoleChat, type ConsoleChat, type ConsoleChatOptions } from './chat.js';
export { ConsoleMessenger } from './messenger.js';
export { renderReply } from './render.js';

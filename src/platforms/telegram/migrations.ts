import { Composer, type Context } from 'grammy';
import type { HandlerDeps } from './handle.js';

/**
 * A group upgraded to a supergroup gets a new chat id. Telegram says so twice: in the old group
 * (migrate_to_chat_id) and in the new supergroup (migrate_from_chat_id); either moves what the
 * chat followed, its settings and language (the move is idempotent).
 */
export function chatMigrations(shared: Pick<HandlerDeps, 'core'>): Composer<Context> {
  const c = new Composer<Context>();
  c.on('message:migrate_to_chat_id', async (ctx) => {
    await shared.core.chatMoved?.('telegram', String(ctx.msg.chat.id), String(ctx.msg.migrate_to_chat_id));
  });
  c.on('message:migrate_from_chat_id', async (ctx) => {
    await shared.core.chatMoved?.('telegram', String(ctx.msg.migrate_from_chat_id), String(ctx.msg.chat.id));
  });
  return c;
}

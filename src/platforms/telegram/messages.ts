import { Composer, type Context } from 'grammy';
import type { Message } from 'grammy/types';
import type { Incoming } from '../../contracts/incoming.js';
import type { Origin } from './deliver.js';
import { forUpdate, runTurn, type HandlerDeps } from './handle.js';
import { actorOf, chatKind, routeText, topicOf } from './incoming.js';

/**
 * Text in: commands (/quote, /quote@thisbot; /start <payload> from a deep link), and answers to
 * prompts (any text in private; replies to the bot's messages in groups). Channel posts too.
 */
export function textMessages(shared: HandlerDeps): Composer<Context> {
  const c = new Composer<Context>();
  c.on(['message:text', 'channel_post:text'], async (ctx) => {
    const deps = forUpdate(shared, ctx);
    const msg: Message = ctx.msg;
    const text = msg.text ?? '';
    const route = routeText(msg, text, { id: ctx.me.id, username: ctx.me.username });
    if (route.kind === 'ignore') return;
    const actor = actorOf(msg);
    if (!actor) return;
    const kind = chatKind(msg.chat);
    const chatId = msg.chat.id;
    const threadId = topicOf(msg);
    const incoming: Incoming = {
      platform: 'telegram',
      userId: actor.userId,
      userName: actor.userName,
      chatId: String(chatId),
      chatKind: kind,
      ...(threadId ? { threadId } : {}),
      text: route.text,
      ...(actor.locale ? { locale: actor.locale } : {}),
      isChatAdmin: async () => {
        if (kind === 'private' || actor.actsAsChat) return true;
        return actor.dmUserId !== undefined && deps.isAdmin(chatId, actor.dmUserId);
      },
    };
    const origin: Origin = {
      chatId: String(chatId),
      chatKind: kind,
      ...(threadId ? { threadId } : {}),
      userMessageId: msg.message_id,
      ...(actor.dmUserId !== undefined ? { dmUserId: actor.dmUserId } : {}),
      ...(actor.locale ? { locale: actor.locale } : {}),
      ...(kind === 'group' ? { botIsAdmin: () => deps.isAdmin(chatId, ctx.me.id) } : {}),
    };
    await runTurn(deps, ctx.me.username, incoming, origin);
  });
  return c;
}

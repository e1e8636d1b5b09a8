import { Composer, type Context } from 'grammy';
import type { Incoming } from '../../contracts/incoming.js';
import { ReplyDelivery, type Origin } from './deliver.js';
import { forUpdate, runTurn, type HandlerDeps } from './handle.js';
import { chatKind, messageRef, userName } from './updates.js';

const STALE = 'This button no longer works. Send the command again.';

/**
 * Button presses -> Incoming.action with the message that carried the button. Every press is
 * answered exactly once; a press we cannot place (no message, no data) gets a short alert.
 * Whether an action is valid (forged, expired) is the core's call: it answers with an
 * ephemeral reply, shown as an alert.
 */
export function buttonPresses(shared: HandlerDeps): Composer<Context> {
  const c = new Composer<Context>();
  c.on('callback_query', async (ctx) => {
    const deps = forUpdate(shared, ctx);
    const q = ctx.callbackQuery;
    const msg = q.message;
    const origin: Origin = {
      chatId: String(msg?.chat.id ?? q.from.id),
      chatKind: msg ? chatKind(msg.chat) : 'private',
      dmUserId: q.from.id,
      callbackQueryId: q.id,
      ...(msg ? { buttonMessage: { ref: messageRef(msg), isPhoto: 'photo' in msg && Array.isArray(msg.photo) } } : {}),
    };
    if (!msg || !q.data) {
      const delivery = new ReplyDelivery({ api: deps.api, messenger: deps.messenger, logger: deps.logger, token: deps.token, botUsername: ctx.me.username }, origin);
      await delivery.answer(STALE, true);
      return;
    }
    const chatId = msg.chat.id;
    const kind = origin.chatKind;
    const incoming: Incoming = {
      platform: 'telegram',
      userId: String(q.from.id),
      userName: userName(q.from),
      chatId: String(chatId),
      chatKind: kind,
      action: q.data,
      messageRef: messageRef(msg),
      isChatAdmin: async () => kind === 'private' || deps.isAdmin(chatId, q.from.id),
    };
    await runTurn(deps, ctx.me.username, incoming, origin);
  });
  return c;
}

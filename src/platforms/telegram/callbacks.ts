import { Composer, type Context } from 'grammy';
import type { User } from 'grammy/types';
import type { Incoming } from '../../contracts/incoming.js';
import { ReplyDelivery, type Origin } from './deliver.js';
import { deliveryDeps, forUpdate, runTurn, type HandlerDeps } from './handle.js';
import { INLINE_CHAT_PREFIX } from './messenger.js';
import { chatKind, messageRef, userName, topicOf } from './incoming.js';

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
    if (q.inline_message_id !== undefined && q.data)
      return inlinePress(deps, ctx.me.username, q.from, q.id, q.inline_message_id, q.chat_instance, q.data);
    const msg = q.message;
    const threadId = msg ? topicOf(msg) : undefined;
    // An ephemeral message (Bot API 10.3) has message_id 0: it is changed by its ephemeral id only.
    const ephemeralId =
      msg && 'ephemeral_message_id' in msg && typeof msg.ephemeral_message_id === 'number' ? msg.ephemeral_message_id : undefined;
    const origin: Origin = {
      chatId: String(msg?.chat.id ?? q.from.id),
      chatKind: msg ? chatKind(msg.chat) : 'private',
      ...(threadId ? { threadId } : {}),
      dmUserId: q.from.id,
      callbackQueryId: q.id,
      ...(ephemeralId !== undefined
        ? { ephemeralMessageId: ephemeralId }
        : msg
          ? { buttonMessage: { ref: messageRef(msg), isPhoto: 'photo' in msg && Array.isArray(msg.photo) } }
          : {}),
      ...(q.from.language_code ? { locale: q.from.language_code } : {}),
    };
    if (!msg || !q.data) {
      const delivery = new ReplyDelivery(deliveryDeps(deps, ctx.me.username), origin);
      await delivery.answer((await delivery.words('person'))('platform.staleButton'), true);
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
      ...(threadId ? { threadId } : {}),
      ...(q.from.language_code ? { locale: q.from.language_code } : {}),
      isChatAdmin: async () => kind === 'private' || deps.isAdmin(chatId, q.from.id),
    };
    await runTurn(deps, ctx.me.username, incoming, origin);
  });
  return c;
}

/**
 * A press on a card sent through inline mode (Refresh): the chat is unknown and may be a group,
 * so it counts as public; only that card can be edited (by its inline_message_id).
 */
async function inlinePress(
  deps: HandlerDeps,
  botUsername: string,
  from: User,
  queryId: string,
  inlineMessageId: string,
  chatInstance: string,
  data: string,
): Promise<void> {
  const chatId = `${INLINE_CHAT_PREFIX}${chatInstance}`.slice(0, 128);
  const ref = { platform: 'telegram' as const, chatId, messageId: inlineMessageId };
  const incoming: Incoming = {
    platform: 'telegram',
    userId: String(from.id),
    userName: userName(from),
    chatId,
    chatKind: 'group',
    action: data,
    messageRef: ref,
    // Nobody administers a chat the bot is not in, as far as the bot can tell.
    isChatAdmin: () => Promise.resolve(false),
  };
  const origin: Origin = {
    chatId,
    chatKind: 'group',
    dmUserId: from.id,
    callbackQueryId: queryId,
    buttonMessage: { ref, isPhoto: false },
    inline: true,
    ...(from.language_code ? { locale: from.language_code } : {}),
  };
  await runTurn(deps, botUsername, incoming, origin);
}

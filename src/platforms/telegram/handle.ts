import type { Api, Context } from 'grammy';
import type { BotCore } from '../../bot/core.js';
import type { Incoming } from '../../contracts/incoming.js';
import type { Logger } from '../../log.js';
import type { AdminCheck } from './admin.js';
import { ReplyDelivery, type DeliveryDeps, type Origin } from './deliver.js';
import { telegramError } from './errors.js';
import type { TelegramMessenger } from './messenger.js';

/** What the update handlers share. */
export interface HandlerDeps {
  core: BotCore;
  api: Api;
  messenger: TelegramMessenger;
  isAdmin: AdminCheck;
  logger: Logger;
  token: string;
}

/** What a ReplyDelivery needs of the shared deps. */
export function deliveryDeps(deps: HandlerDeps, botUsername: string): DeliveryDeps {
  const core = deps.core;
  return {
    api: deps.api,
    messenger: deps.messenger,
    logger: deps.logger,
    token: deps.token,
    botUsername,
    ...(core.depositCardSent ? { depositCardSent: core.depositCardSent.bind(core) } : {}),
    ...(core.localeOf ? { localeOf: core.localeOf.bind(core) } : {}),
  };
}

/** The deps of one update: its log lines carry the update, chat and user ids. */
export function forUpdate(deps: HandlerDeps, ctx: Context): HandlerDeps {
  const ids: Record<string, number> = { updateId: ctx.update.update_id };
  if (ctx.chat) ids.chatId = ctx.chat.id;
  if (ctx.from) ids.userId = ctx.from.id;
  return { ...deps, logger: deps.logger.child(ids) };
}

/**
 * One turn: the core answers the Incoming, the Replies are delivered. The core never throws on
 * user input; if it throws anyway (Redis down, a bug), the user still gets a polite answer.
 */
export async function runTurn(deps: HandlerDeps, botUsername: string, incoming: Incoming, origin: Origin): Promise<void> {
  const delivery = new ReplyDelivery(deliveryDeps(deps, botUsername), origin);
  let replies;
  try {
    replies = await deps.core.handle(incoming);
  } catch (err) {
    deps.logger.error({ err: telegramError(err, deps.token), chatKind: incoming.chatKind }, 'telegram: the core failed on an update');
    await delivery.apologise();
    return;
  }
  await delivery.deliverAll(replies);
}

import { line, type Reply } from '../contracts/reply.js';
import { followAgainButton } from './follow/away.js';
import type { ActionHandler, CommandHandler } from './kernel/command.js';
import { COMMANDS, UNLISTED_COMMANDS } from './command-list.js';
import { cancelButtonAction } from './swap/cancel.js';
import { historyButton, historyExportButton } from './history/command.js';
import { networksButton } from './catalog/networks.js';
import { refreshQuote, swapThis } from './swap/quote-command.js';
import { routesButton } from './catalog/routes.js';
import { depositButton, refreshStatus } from './follow/status-command.js';
import { trackButton } from './follow/track.js';
import { trackingPage } from './follow/tracking.js';
import { setLanguage } from './language/command.js';
import { muteButton, refollowButton, stopButton, unmuteButton } from './follow/buttons.js';
import { settingsButton } from './follow/settings.js';
import { swapAgain } from './swap/again.js';
import type { Ctx } from './kernel/context.js';
import { addressPageButton } from './follow/lookup/answer.js';
import { followPrivatelyButton } from './follow/lookup/glance.js';
import { answerSent, sentButton } from './follow/lookup/sent.js';
import { answerWhere, whereButton } from './follow/lookup/where.js';
import { expired, notice } from './kernel/replies.js';
import { decodeInline } from './kernel/actions.js';
import { refreshInline } from './quote/inline.js';
import { VERBS, type VerbName } from './kernel/verbs.js';
import { answerText, confirm, pageChoices, pick, refuel, resume, skip, useAddress } from './swap/answer.js';
import { removeAddressButton } from './addresses/command.js';

/** Every command's handler, from the declarations (command-list.ts). */
export const COMMAND_HANDLERS: ReadonlyMap<string, CommandHandler> = new Map(
  [...COMMANDS, ...UNLISTED_COMMANDS].map((c) => [c.name, c.run]),
);

/** One handler per button verb: typed over VERBS, so neither can lack the other. */
const HANDLERS_BY_NAME: Readonly<Record<VerbName, ActionHandler>> = {
  refreshStatus,
  track: trackButton,
  followPrivately: followPrivatelyButton,
  depositDetails: depositButton,
  sent: sentButton,
  where: whereButton,
  addressPage: addressPageButton,
  swapThis,
  refreshQuote,
  refreshInline,
  swapAgain,
  useAddress,
  removeAddress: removeAddressButton,
  pick,
  pageChoices,
  skipRefund: skip,
  refuel,
  confirm,
  cancel: cancelButtonAction,
  resume,
  networksPage: networksButton,
  routesPage: routesButton,
  historyPage: historyButton,
  historyExport: historyExportButton,
  trackingPage,
  setLanguage,
  mute: muteButton,
  unmute: unmuteButton,
  stop: stopButton,
  refollow: refollowButton,
  followAgain: followAgainButton,
  settings: settingsButton,
};

export const ACTION_HANDLERS: ReadonlyMap<string, ActionHandler> = new Map(
  (Object.keys(VERBS) as VerbName[]).map((name) => [VERBS[name], HANDLERS_BY_NAME[name]]),
);

/** Buttons that ask a free-text question themselves. */
const ASKING_VERBS: ReadonlySet<string> = new Set([VERBS.sent, VERBS.where]);

const COMMAND_LINE = /^\/([A-Za-z0-9_]{1,32})(?:@[A-Za-z0-9_]{1,64})?(?:\s+([\s\S]*))?$/;

/** The command name of a text, for logs (never the arguments: they are user text). */
export function commandName(text: string | undefined): string | undefined {
  const m = text === undefined ? null : COMMAND_LINE.exec(text.trim());
  return m ? (m[1] as string).toLowerCase() : undefined;
}

/**
 * Whether dispatch will drop the user's open question, known before it runs (the core drops it in
 * its first round trip, kernel/admission.ts): a known command, or an inline button that does not
 * ask one. A stashed button is known only once read: dispatch drops the question itself.
 */
export function dropsQuestion(incoming: Ctx['incoming']): boolean {
  if (incoming.action !== undefined) {
    const action = decodeInline(incoming.action);
    return action !== undefined && ACTION_HANDLERS.has(action.verb) && !ASKING_VERBS.has(action.verb);
  }
  const m = COMMAND_LINE.exec((incoming.text ?? '').trim());
  return m !== null && COMMAND_HANDLERS.has((m[1] as string).toLowerCase());
}

/**
 * From an Incoming to its handler: a button's action, a command line, or plain text answering the
 * open draft's question. Unknown input gets a pointer to /help (in private chats; groups stay quiet).
 * `questionDropped`: the core already dropped the open question (dropsQuestion).
 */
export async function dispatch(ctx: Ctx, questionDropped = false): Promise<Reply[]> {
  const { incoming } = ctx;
  if (incoming.action !== undefined) {
    const decoded = await ctx.codec.decode(incoming.action);
    if (!decoded.ok) return [expired(ctx)];
    const handler = ACTION_HANDLERS.get(decoded.action.verb);
    // A question asked by a lookup button is dropped by any other button, so it never takes an answer meant for the wizard.
    if (handler && !ASKING_VERBS.has(decoded.action.verb) && !questionDropped) await ctx.asks.clear(incoming.platform, incoming.userId);
    return handler ? handler(ctx, decoded.action.args) : [expired(ctx)];
  }
  const text = (incoming.text ?? '').trim();
  const m = COMMAND_LINE.exec(text);
  if (m) {
    const name = (m[1] as string).toLowerCase();
    const handler = COMMAND_HANDLERS.get(name);
    if (handler) {
      if (!questionDropped) await ctx.asks.clear(incoming.platform, incoming.userId);
      return handler(ctx, (m[2] ?? '').trim());
    }
    return incoming.chatKind === 'private'
      ? [notice(ctx.t('core.unknownCommand.title'), [line(ctx.t('core.unknownCommand.text', { name: name.slice(0, 32) }))], 'warning')]
      : [];
  }
  if (text === '') return [];
  const ask = await ctx.asks.get(incoming.platform, incoming.userId);
  if (ask && ask.chatId === incoming.chatId)
    return ask.kind === 'sent' ? answerSent(ctx, ask.swapId, text.slice(0, 1000)) : answerWhere(ctx, text.slice(0, 1000));
  const draft = await ctx.drafts.get(incoming.platform, incoming.userId);
  if (draft && draft.chatId === incoming.chatId && draft.awaiting) return answerText(ctx, draft, text.slice(0, 1000));
  return incoming.chatKind === 'private' ? [notice(ctx.t('core.notSure.title'), [line(ctx.t('core.notSure.text'))])] : [];
}

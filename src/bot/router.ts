import { cancel, cancelButtonAction } from './commands/cancel.js';
import { help } from './commands/help.js';
import { history, historyButton } from './commands/history.js';
import { networks, networksButton } from './commands/networks.js';
import { quote, refreshQuote, swapThis } from './commands/quote.js';
import { routes, routesButton } from './commands/routes.js';
import { start } from './commands/start.js';
import { depositButton, refreshStatus, status } from './commands/status.js';
import { swap } from './commands/swap.js';
import { track, trackButton } from './commands/track.js';
import { tracking, trackingPage } from './commands/tracking.js';
import { untrack } from './commands/untrack.js';
import type { Ctx } from './context.js';
import { answerText } from './flow/answer.js';
import { confirm, pageChoices, pick, refuel, resume, skip } from './flow/draft-actions.js';
import { line, type Reply } from '../contracts/reply.js';
import { EXPIRED, notice } from './replies.js';

type CommandHandler = (ctx: Ctx, args: string) => Promise<Reply[]>;
type ActionHandler = (ctx: Ctx, args: string[]) => Promise<Reply[]>;

/** One handler per command (files in commands/). */
export const COMMAND_HANDLERS: Readonly<Record<string, CommandHandler>> = {
  quote, swap, status, track, untrack, tracking, history, networks, routes, help, start, cancel,
};

/** One handler per button verb (see actions.ts for the encoding). */
export const ACTION_HANDLERS: Readonly<Record<string, ActionHandler>> = {
  st: refreshStatus, tr: trackButton, dp: depositButton, qs: swapThis, qr: refreshQuote,
  pk: pick, pg: pageChoices, sk: skip, rf: refuel, cf: confirm, cx: cancelButtonAction, rs: resume,
  nw: networksButton, rt: routesButton, hs: historyButton, tk: trackingPage,
};

const COMMAND_LINE = /^\/([A-Za-z0-9_]{1,32})(?:@[A-Za-z0-9_]{1,64})?(?:\s+([\s\S]*))?$/;

/** The command name of a text, for logs (never the arguments: they are user text). */
export function commandName(text: string | undefined): string | undefined {
  const m = text === undefined ? null : COMMAND_LINE.exec(text.trim());
  return m ? (m[1] as string).toLowerCase() : undefined;
}

/**
 * From an Incoming to its handler: a button's action, a command line, or plain text answering the
 * open draft's question. Unknown input gets a pointer to /help (in private chats; groups stay quiet).
 */
export async function route(ctx: Ctx): Promise<Reply[]> {
  const { incoming } = ctx;
  if (incoming.action !== undefined) {
    const decoded = await ctx.codec.decode(incoming.action);
    if (!decoded.ok) return [EXPIRED];
    const handler = Object.hasOwn(ACTION_HANDLERS, decoded.action.verb) ? ACTION_HANDLERS[decoded.action.verb] : undefined;
    return handler ? handler(ctx, decoded.action.args) : [EXPIRED];
  }
  const text = (incoming.text ?? '').trim();
  const m = COMMAND_LINE.exec(text);
  if (m) {
    const name = (m[1] as string).toLowerCase();
    const handler = Object.hasOwn(COMMAND_HANDLERS, name) ? COMMAND_HANDLERS[name] : undefined;
    if (handler) return handler(ctx, (m[2] ?? '').trim());
    return incoming.chatKind === 'private' ? [notice('Unknown command', [line(`I do not know /${name.slice(0, 32)}. Send /help to see what I can do.`)], 'warning')] : [];
  }
  if (text === '') return [];
  const draft = await ctx.drafts.get(incoming.platform, incoming.userId);
  if (draft && draft.chatId === incoming.chatId && draft.awaiting) return answerText(ctx, draft, text.slice(0, 1000));
  return incoming.chatKind === 'private' ? [notice('Not sure what you mean', [line('Send /help to see what I can do, or /quote to get a price.')])] : [];
}

import type { Reply } from '../../contracts/reply.js';
import { AMOUNT, FROM, TO, TO_TOKEN, TOKEN, type Command } from '../kernel/command.js';
import type { Ctx } from '../kernel/context.js';
import { problemReply } from '../kernel/problem.js';
import { isQuotable, quoteNow, routeFromButton, routeFromLine } from '../quote/index.js';
import { expired, forSenderHere } from '../kernel/replies.js';
import { modeOf } from '../kernel/mode.js';
import { startWizard } from './start.js';

/**
 * /quote <amount> <token> <from> <to> [<to-token>], in words, or step by step. A complete line is
 * quoted at once without a draft; anything missing or wrong is asked by the wizard.
 */
async function quote(ctx: Ctx, args: string): Promise<Reply[]> {
  const networks = await ctx.catalog.networks();
  const read = await routeFromLine(ctx, args, networks);
  if (!read.route) return [problemReply(ctx.locale, read.problem, ctx.t('route.unreadable'))];
  // Quoted here when nothing is asked (the token to receive defaults in the route check), so the
  // line goes down once: no wizard, one read of the network list.
  if (read.problem || !isQuotable(read.route)) return startWizard(ctx, 'quote', read.route, read.problem);
  const outcome = await quoteNow(ctx, read.route, 'new', networks);
  return outcome.done ? outcome.replies : startWizard(ctx, 'quote', outcome.route, outcome.problem);
}

/** qr: Refresh on a quote card: the same route quoted again, replacing the card. */
export async function refreshQuote(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const networks = await ctx.catalog.networks();
  const route = await routeFromButton(ctx, args, networks);
  if (!route) return [expired(ctx)];
  const outcome = await quoteNow(ctx, route, modeOf(ctx), networks);
  return outcome.done ? outcome.replies : startWizard(ctx, 'quote', outcome.route, outcome.problem);
}

/** qs: Swap this on a quote card: a swap draft with the card's route, asking for the addresses next. */
export async function swapThis(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const route = await routeFromButton(ctx, args);
  if (!route) return [expired(ctx)];
  // In a group the question goes to the presser alone (with "Continue privately"); a platform that
  // refuses an ephemeral message asks in the group as before.
  return (await startWizard(ctx, 'swap', route)).map((r) => forSenderHere(ctx, { ...r, mode: 'new' as const }));
}

export const quoteCommand: Command = {
  name: 'quote',
  description: 'Quote a swap: fees, amount received, time',
  inGroups: true,
  options: [AMOUNT, TOKEN, FROM, TO, TO_TOKEN],
  usage: '/quote <amount> <token> <from> <to> [<to-token>]',
  run: quote,
};

import type { Reply } from '../../contracts/reply.js';
import { AMOUNT, FROM, TO, TO_TOKEN, TOKEN, type Command } from '../kernel/command.js';
import type { Ctx } from '../kernel/context.js';
import { problemReply } from '../kernel/problem.js';
import { routeFromLine } from '../quote/index.js';
import { startWizard } from './start.js';

/** /swap [route]: the route (one line or step by step), addresses, refuel, confirmation. */
async function swap(ctx: Ctx, args: string): Promise<Reply[]> {
  const read = await routeFromLine(ctx, args, await ctx.catalog.networks());
  if (!read.route) return [problemReply(ctx.locale, read.problem, ctx.t('route.unreadable'))];
  return startWizard(ctx, 'swap', read.route, read.problem);
}

export const swapCommand: Command = {
  name: 'swap',
  description: 'Create a swap and get its deposit address privately',
  inGroups: true,
  options: [
    { ...AMOUNT, required: false },
    { ...TOKEN, required: false },
    { ...FROM, required: false },
    { ...TO, required: false },
    TO_TOKEN,
  ],
  usage: '/swap [<amount> <token> <from> <to> [<to-token>]]',
  run: swap,
};

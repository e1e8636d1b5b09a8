import type { Ctx } from '../kernel/context.js';
import { parseSwapId } from '../kernel/swap-id.js';
import type { Reply } from '../../contracts/reply.js';
import { problemReply } from '../kernel/problem.js';
import { forSender, senderWords } from '../kernel/replies.js';
import { SWAP_LOOKUP, type Command } from '../kernel/command.js';
import { answerLookup } from './lookup/answer.js';
import { adminsOnly, followSwap, mayManageTracking } from './follow.js';
import { parseLookup } from './lookup/shape.js';
import { VERBS } from '../kernel/verbs.js';

/**
 * /track <swap id | deposit transaction hash | wallet address>: a swap id or a hash follows that
 * swap in this chat; an address lists its swaps, each with a Follow button; a short id ("13a8b6b4")
 * is one of the swaps the user or chat knows. Groups: admins only.
 */
async function track(ctx: Ctx, args: string): Promise<Reply[]> {
  const input = parseLookup(args.split(/\s+/)[0]);
  if (!input.ok) return [forSender(ctx, problemReply(senderWords(ctx).locale, input, senderWords(ctx).t('lookup.whichSwap')))];
  if (!(await mayManageTracking(ctx))) return [adminsOnly(ctx)];
  return answerLookup(ctx, input.value, (swapId, found) => followSwap(ctx, swapId, found), VERBS.track);
}

/** tr <swap id>: the Track and Follow buttons. */
export async function trackButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = parseSwapId(args.length === 1 ? args[0] : '');
  if (!id.ok) return [problemReply(ctx.locale, id, ctx.t('lookup.whichSwap'))];
  if (!(await mayManageTracking(ctx))) return [adminsOnly(ctx)];
  return followSwap(ctx, id.value);
}

export const trackCommand: Command = {
  name: 'track',
  description: 'Follow a swap: by its id, your deposit transaction or your wallet address',
  inGroups: true,
  options: [SWAP_LOOKUP],
  usage: '/track <swap id | tx hash | address>',
  run: track,
};

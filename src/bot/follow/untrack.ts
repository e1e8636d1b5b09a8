import { chatTarget, type Ctx } from '../kernel/context.js';
import { parseSwapId, parseSwapIdPrefix } from '../kernel/swap-id.js';
import { line, type Reply } from '../../contracts/reply.js';
import { problemReply } from '../kernel/problem.js';
import { forSender, notice, senderWords } from '../kernel/replies.js';
import { SWAP_ID, type Command } from '../kernel/command.js';
import { adminsOnly, mayManageTracking } from './follow.js';
import { shortIdReplies } from './lookup/short-id.js';
import { VERBS } from '../kernel/verbs.js';

/**
 * /untrack <swap id>: stop following a swap in this chat. A short id ("13a8b6b4", as cards show
 * it) is one of the swaps this chat follows; when several start so, a Stop button each.
 */
async function untrack(ctx: Ctx, args: string): Promise<Reply[]> {
  const raw = args.split(/\s+/)[0];
  const id = parseSwapId(raw);
  const prefix = id.ok ? undefined : parseSwapIdPrefix(raw);
  if (!id.ok && !prefix) return [forSender(ctx, problemReply(senderWords(ctx).locale, id, senderWords(ctx).t('lookup.whichSwap')))];
  if (!(await mayManageTracking(ctx))) return [adminsOnly(ctx)];
  if (id.ok) return stop(ctx, id.value);
  return shortIdReplies(ctx, prefix ?? '', { verb: VERBS.stop, known: 'followed' }, (swapId) => stop(ctx, swapId));
}

async function stop(ctx: Ctx, swapId: string): Promise<Reply[]> {
  const removed = await ctx.tracking.unfollow(swapId, chatTarget(ctx));
  return [
    removed
      ? notice(ctx.t('untrack.stopped.title'), [line(ctx.t('untrack.stopped.text'))], 'success')
      : notice(ctx.t('untrack.notFollowing.title'), [line(ctx.t('untrack.notFollowing.text'))]),
  ];
}

export const untrackCommand: Command = {
  name: 'untrack',
  description: 'Stop following a swap in this chat',
  inGroups: true,
  options: [SWAP_ID],
  usage: '/untrack <swap id>',
  run: untrack,
};

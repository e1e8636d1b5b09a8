import type { Ctx } from '../context.js';
import { parseSwapId } from '../parse/swap-id.js';
import { line, type Reply } from '../../contracts/reply.js';
import { problemReply } from '../problem.js';
import { forSender, notice } from '../replies.js';
import { SWAP_ID, type Command } from '../command.js';
import { adminsOnly, chatTarget, mayManageTracking } from '../lookup/follow.js';

/** /untrack <swap id>: stop following a swap in this chat. */
async function untrack(ctx: Ctx, args: string): Promise<Reply[]> {
  const id = parseSwapId(args.split(/\s+/)[0]);
  if (!id.ok) return [forSender(ctx, problemReply(ctx.locale, id, ctx.t('lookup.whichSwap')))];
  if (!(await mayManageTracking(ctx))) return [adminsOnly(ctx)];
  const removed = await ctx.tracking.unfollow(id.value, chatTarget(ctx));
  return [removed
    ? notice(ctx.t('untrack.stopped.title'), [line(ctx.t('untrack.stopped.text'))], 'success')
    : notice(ctx.t('untrack.notFollowing.title'), [line(ctx.t('untrack.notFollowing.text'))])];
}

export const untrackCommand: Command = { name: 'untrack', description: 'Stop following a swap in this chat', inGroups: true, options: [SWAP_ID], usage: '/untrack <swap id>', run: untrack };

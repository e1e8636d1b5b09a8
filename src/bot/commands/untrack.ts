import type { Ctx } from '../context.js';
import { parseSwapId } from '../parse/swap-id.js';
import { line, type Reply } from '../../contracts/reply.js';
import { problemReply } from '../problem.js';
import { notice } from '../replies.js';
import { SWAP_ID, type Command } from '../command.js';
import { ADMINS_ONLY, chatTarget, mayManageTracking } from './track.js';

/** /untrack <swap id>: stop following a swap in this chat. */
async function untrack(ctx: Ctx, args: string): Promise<Reply[]> {
  const id = parseSwapId(args.split(/\s+/)[0]);
  if (!id.ok) return [problemReply(id, 'Which swap?')];
  if (!(await mayManageTracking(ctx))) return [ADMINS_ONLY];
  const removed = await ctx.tracking.unfollow(id.value, chatTarget(ctx));
  return [removed
    ? notice('Stopped following', [line('No more updates about this swap here.')], 'success')
    : notice('Not following it', [line('This chat was not following that swap. See /tracking for the ones it follows.')])];
}

export const untrackCommand: Command = { name: 'untrack', description: 'Stop following a swap in this chat', inGroups: true, options: [SWAP_ID], usage: '/untrack <swap id>', run: untrack };

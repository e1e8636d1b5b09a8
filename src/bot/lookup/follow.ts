import type { ChatTarget } from '../../contracts/incoming.js';
import { bold, line, type Reply } from '../../contracts/reply.js';
import { statusReply } from '../commands/status.js';
import { isPublic, type Ctx } from '../context.js';
import { notice } from '../replies.js';

export const chatTarget = (ctx: Ctx): ChatTarget => ({ platform: ctx.incoming.platform, chatId: ctx.incoming.chatId, chatKind: ctx.incoming.chatKind });

/** In groups and channels only the chat's admins may change what the chat follows. */
export async function mayManageTracking(ctx: Ctx): Promise<boolean> {
  if (!isPublic(ctx)) return true;
  try {
    return (await ctx.incoming.isChatAdmin?.()) === true;
  } catch {
    return false;
  }
}

export const ADMINS_ONLY = notice('Only admins can do that here', [line('In groups and channels, only the chat\'s admins can start or stop tracking swaps.'), line('You can track a swap for yourself in a private chat with me.')], 'warning');

/**
 * Follows a swap in this chat (live updates come from the tracking worker). `known`: the swap was
 * just loaded (found by its transaction), so it exists; otherwise it is loaded first to prove it.
 * The caller has checked the admin rule.
 */
export async function followSwap(ctx: Ctx, swapId: string, known?: boolean): Promise<Reply[]> {
  if (!known) await statusReply(ctx, swapId); // errors become replies upstream
  const result = await ctx.tracking.follow(swapId, chatTarget(ctx), { userId: ctx.incoming.userId });
  if (!result.ok) {
    const who = result.reason === 'chat_limit' ? 'This chat follows' : 'You follow';
    return [notice('Cannot follow more swaps', [line(`${who} ${result.limit} swaps, the most allowed.`), line('Stop following one with /untrack <swap id>, then try again.')], 'warning')];
  }
  // No card here: the tracking worker posts this chat's one live status card (and edits it as the
  // swap moves), so a snapshot now would leave two cards, one of them going stale.
  return [notice(result.alreadyFollowing ? 'Already following' : 'Following this swap', [
    line(result.alreadyFollowing ? 'This chat already follows this swap; its live status card is above.' : 'Its live status card follows and is updated here until the swap finishes. ', bold('/untrack'), ' stops the updates.'),
  ], 'success')];
}

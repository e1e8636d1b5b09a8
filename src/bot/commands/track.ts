import type { ChatTarget } from '../../contracts/incoming.js';
import { isPublic, type Ctx } from '../context.js';
import { parseSwapId } from '../parse/swap-id.js';
import { bold, line, type Reply } from '../../contracts/reply.js';
import { problemReply } from '../problem.js';
import { notice } from '../replies.js';
import { SWAP_ID, type Command } from '../command.js';
import { statusReply } from './status.js';

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

/** /track <swap id>: follow a swap in this chat (live updates come from the tracking worker). */
async function trackSwap(ctx: Ctx, rawId: string | undefined): Promise<Reply[]> {
  const id = parseSwapId(rawId);
  if (!id.ok) return [problemReply(id, 'Which swap?')];
  if (!(await mayManageTracking(ctx))) return [ADMINS_ONLY];
  await statusReply(ctx, id.value); // proves the swap exists before following it; errors become replies upstream
  const result = await ctx.tracking.follow(id.value, chatTarget(ctx), { userId: ctx.incoming.userId });
  if (!result.ok) {
    const who = result.reason === 'chat_limit' ? 'This chat follows' : 'You follow';
    return [notice('Cannot follow more swaps', [line(`${who} ${result.limit} swaps, the most allowed.`), line('Stop following one with /untrack <swap id>, then try again.')], 'warning')];
  }
  // No card here: the tracking worker posts this chat's one live status card (and edits it as the
  // swap moves), so a snapshot now would leave two cards, one of them going stale.
  const head = notice(result.alreadyFollowing ? 'Already following' : 'Following this swap', [
    line(result.alreadyFollowing ? 'This chat already follows this swap; its live status card is above.' : 'Its live status card follows and is updated here until the swap finishes. ', bold('/untrack'), ' stops the updates.'),
  ], 'success');
  return [head];
}

const track = (ctx: Ctx, args: string): Promise<Reply[]> => trackSwap(ctx, args.split(/\s+/)[0]);
export const trackButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => trackSwap(ctx, args.length === 1 ? args[0] : '');

export const trackCommand: Command = { name: 'track', description: 'Follow a swap in this chat with live updates', inGroups: true, options: [SWAP_ID], usage: '/track <swap id>', run: track };

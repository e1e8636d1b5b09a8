import type { ChatTarget } from '../incoming.js';
import { isPublic, type Ctx } from '../context.js';
import { parseSwapId } from '../parse/swap-id.js';
import { bold, line, type Reply } from '../reply.js';
import { notice, problem } from '../replies.js';
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
export async function trackSwap(ctx: Ctx, rawId: string | undefined): Promise<Reply[]> {
  const id = parseSwapId(rawId);
  if (!id.ok) return [problem(id.reason, id.hint, 'Which swap?')];
  if (!(await mayManageTracking(ctx))) return [ADMINS_ONLY];
  const card = await statusReply(ctx, id.value); // also proves the swap exists before following it
  const result = await ctx.tracking.follow(id.value, chatTarget(ctx), { userId: ctx.incoming.userId });
  if (!result.ok) {
    const who = result.reason === 'chat_limit' ? 'This chat follows' : 'You follow';
    return [notice('Cannot follow more swaps', [line(`${who} ${result.limit} swaps, the most allowed.`), line('Stop following one with /untrack <swap id>, then try again.')], 'warning')];
  }
  const head = notice(result.alreadyFollowing ? 'Already following' : 'Following this swap', [
    line(result.alreadyFollowing ? 'This chat already follows this swap.' : 'Updates will appear in this chat until it finishes. ', bold('/untrack'), ' stops them.'),
  ], 'success');
  return [head, card];
}

export const track = (ctx: Ctx, args: string): Promise<Reply[]> => trackSwap(ctx, args.split(/\s+/)[0]);
export const trackButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => trackSwap(ctx, args.length === 1 ? args[0] : '');

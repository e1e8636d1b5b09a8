import { statusCard } from '../cards/status.js';
import { isPublic, type Ctx } from '../context.js';
import { modeOf } from '../flow/ui.js';
import { parseSwapId } from '../parse/swap-id.js';
import type { Reply } from '../reply.js';
import { problem } from '../replies.js';

/** The status card of a swap; public chats get the masked version. */
export async function statusReply(ctx: Ctx, swapId: string): Promise<Reply> {
  const details = await ctx.api.getSwap(swapId, { exclude_deposit_actions: true });
  return statusCard(details, { audience: isPublic(ctx) ? 'public' : 'private', now: ctx.now() });
}

/** /status <swap id>: the id is checked before any request. */
export async function status(ctx: Ctx, args: string): Promise<Reply[]> {
  const id = parseSwapId(args.split(/\s+/)[0]);
  if (!id.ok) return [problem(id.reason, id.hint, 'Which swap?')];
  return [await statusReply(ctx, id.value)];
}

/** Refresh (and Status) buttons: the card again, in place when the platform can edit. */
export async function refreshStatus(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = parseSwapId(args[0]);
  if (!id.ok || args.length !== 1) return [problem(id.ok ? 'That button is broken.' : id.reason)];
  return [{ ...(await statusReply(ctx, id.value)), mode: modeOf(ctx) }];
}

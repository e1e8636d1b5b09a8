import { UnconfirmedCreateError } from '../../layerswap/errors.js';
import type { CreateSwapParams } from '../../layerswap/schemas.js';
import { depositCards } from '../cards/deposit.js';
import { shortId } from '../cards/format.js';
import type { Ctx } from '../context.js';
import type { Draft } from '../drafts.js';
import { errorReply } from '../errors-text.js';
import { code, line, type Reply } from '../reply.js';
import { notice } from '../replies.js';
import { quoteProblem, clearField } from './quote-problem.js';
import { quoteParams } from './quote-step.js';
import { routeSummary } from './summary.js';
import { advance } from './wizard.js';

/**
 * Confirm: creates the swap exactly once however often the button is pressed (a Redis lock per
 * draft, kept after an unconfirmed create), sends the deposit card privately, follows the swap in
 * the creator's private chat and records it in their history.
 */
export async function createFromDraft(ctx: Ctx, draft: Draft): Promise<Reply[]> {
  if (!(await ctx.drafts.lock(draft.id))) {
    const done = await ctx.drafts.createdSwap(draft.id);
    return [done
      ? notice('Already created', [line('This swap was already created: ', code(done)), line('Its deposit details were sent to you privately. See /status ', done)])
      : notice('One moment', [line('This swap is already being created. Do not press Confirm again.')], 'pending')];
  }
  // The same route, amount, refuel and deposit-address flow as the quote the user confirmed.
  const params: CreateSwapParams = { ...quoteParams(draft.route, draft.refuel), destination_address: draft.destinationAddress ?? '' };
  if (draft.refundAddress) params.refund_address = draft.refundAddress;

  let details;
  try {
    details = await ctx.api.createSwap(params);
  } catch (err) {
    if (err instanceof UnconfirmedCreateError) {
      // The swap may exist: keep the lock so this draft can never create a second one.
      await ctx.drafts.delete(draft.platform, draft.userId);
      return [errorReply(err)];
    }
    await ctx.drafts.unlock(draft.id);
    const p = quoteProblem(err);
    if (p) {
      draft.route = clearField(draft.route, p.field);
      delete draft.checked;
      return advance(ctx, draft, { problem: p });
    }
    return [errorReply(err)];
  }

  const swapId = details.swap.id;
  const networks = ctx.catalog.peekNetworks() ?? [];
  await ctx.drafts.markCreated(draft.id, swapId);
  await ctx.drafts.delete(draft.platform, draft.userId);
  const now = ctx.now();
  await ctx.history.add(ctx.incoming.platform, ctx.incoming.userId, { swapId, createdAt: now, summary: routeSummary(draft.route, networks) });

  const replies: Reply[] = [];
  const follow = await ctx.tracking
    .follow(swapId, { platform: ctx.incoming.platform, chatId: ctx.incoming.userId, chatKind: 'private' }, { userId: ctx.incoming.userId, creator: true })
    .catch((err: unknown) => {
      ctx.logger.warn({ err: err instanceof Error ? err.message : String(err), swapId }, 'could not follow a new swap');
      return undefined;
    });
  replies.push(...(await depositCards(details, now)));
  if (ctx.incoming.chatKind !== 'private') {
    replies.push(notice(`Swap ${shortId(swapId)} created`, [line('The deposit details were sent to you privately.')], 'success'));
  }
  if (!follow || !follow.ok) {
    replies.push({ ...notice('Not following this swap', [line(follow ? `You already follow ${follow.limit} swaps, the most allowed; send /untrack <swap id> to make room.` : 'Live updates could not be switched on. Check it with /status ', code(swapId))], 'warning'), target: 'dm' });
  }
  return replies;
}

import { bold, line, type Reply } from '../../contracts/reply.js';
import { chatTarget, isPublic, type Ctx } from '../kernel/context.js';
import { forSender, notice, senderWords } from '../kernel/replies.js';
import { isCreator } from '../deposit/index.js';
import { statusCard } from '../status/index.js';
import { FINAL_SWAP_STATUSES, type SwapDetails } from '../../layerswap/schemas.js';

/** In groups and channels only the chat's admins may change what the chat follows. */
export async function mayManageTracking(ctx: Ctx): Promise<boolean> {
  if (!isPublic(ctx)) return true;
  try {
    return (await ctx.incoming.isChatAdmin?.()) === true;
  } catch {
    return false;
  }
}

/** Why a non-admin cannot change what a group follows, for that member alone in their language. */
export const adminsOnly = (ctx: Ctx): Reply => {
  const { t } = senderWords(ctx);
  return forSender(
    ctx,
    notice(t('follow.adminsOnly.title'), [line(t('follow.adminsOnly.text')), line(t('follow.adminsOnly.private'))], 'warning'),
  );
};

/**
 * Follows a swap in this chat (live updates come from the tracking worker). `known`: true when the
 * swap is live for sure (Undo, "I've sent it"); its details when just loaded (found by its
 * transaction); otherwise it is loaded first to prove it exists. A finished swap is not followed:
 * the answer says so with its final card. The caller has checked the admin rule.
 */
export async function followSwap(ctx: Ctx, swapId: string, known?: true | SwapDetails): Promise<Reply[]> {
  // Proves the swap exists (a not-found or service error becomes a reply upstream).
  const details = known === true ? undefined : (known ?? (await ctx.api.getSwap(swapId, { exclude_deposit_actions: true })));
  if (details && FINAL_SWAP_STATUSES.has(details.swap.status)) return finished(ctx, details);
  // ctx.locale is the chat's language (a group's, not the presser's): pushed updates use it. Only
  // the creator's own private chat reads the cards unmasked: anyone who merely knows the id sees
  // them as a group does (the destination is the creator's business).
  const own = !isPublic(ctx) && (await isCreator(ctx, swapId));
  const result = await ctx.tracking.follow(swapId, chatTarget(ctx), { userId: ctx.incoming.userId, own, locale: ctx.locale });
  if (!result.ok) {
    const limit = ctx.t(result.reason === 'chat_limit' ? 'follow.limitChat' : 'follow.limitUser', { count: result.limit });
    return [notice(ctx.t('follow.limit.title'), [line(limit), line(ctx.t('follow.limit.hint'))], 'warning')];
  }
  // No card here: the tracking worker posts this chat's one live status card (and edits it as the
  // swap moves), so a snapshot now would leave two cards, one of them going stale.
  // Already following: point at the card only if the chat has one (a creator's comes with the first change when it could not come at once).
  const cardSoon = result.alreadyFollowing && !(await hasStatusCard(ctx, swapId));
  const text = result.alreadyFollowing ? (cardSoon ? 'follow.already.cardSoon' : 'follow.already.text') : 'follow.started.text';
  return [
    notice(
      ctx.t(result.alreadyFollowing ? 'follow.already.title' : 'follow.started.title'),
      [line(ctx.t(text), ' ', bold('/untrack'), ' ', ctx.t('follow.untrackStops'))],
      'success',
    ),
  ];
}

/** Whether this chat has the swap's live status card (sent or due); true where tracking cannot tell. */
export async function hasStatusCard(ctx: Ctx, swapId: string): Promise<boolean> {
  if (!ctx.tracking.hasCard) return true;
  return ctx.tracking.hasCard(swapId, chatTarget(ctx)).catch(() => true);
}

/** Nothing more will change: say so, with the final card (unmasked only for its creator in private). */
async function finished(ctx: Ctx, details: SwapDetails): Promise<Reply[]> {
  const own = !isPublic(ctx) && (await isCreator(ctx, details.swap.id));
  return [
    notice(ctx.t('follow.finished.title'), [line(ctx.t('follow.finished.text'))], 'info'),
    statusCard(details, { audience: own ? 'private' : 'public', now: ctx.now(), locale: ctx.locale }),
  ];
}

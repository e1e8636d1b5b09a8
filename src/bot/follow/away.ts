import type { FollowedSwap } from '../../contracts/tracking.js';
import { actionButton, code, line, type Reply } from '../../contracts/reply.js';
import { FINAL_SWAP_STATUSES, type SwapDetails } from '../../layerswap/schemas.js';
import { t, type Locale } from '../../i18n/index.js';
import { inlineAction } from '../kernel/actions.js';
import { statusWords, swapStatusLabel } from '../status/index.js';
import { chatTarget, type Ctx } from '../kernel/context.js';
import { notice } from '../kernel/replies.js';
import { VERBS } from '../kernel/verbs.js';
import { isCreator } from '../deposit/index.js';

/**
 * A user who blocked the bot was unsubscribed from everything (a private chat that refuses
 * messages is gone for tracking). When they write again, they hear once which swaps stopped being
 * followed meanwhile, with the outcome of those that finished, and one button follows them all again.
 */

/** The notice for a private chat back from a block; undefined when nothing was dropped. */
export async function welcomeBack(ctx: Ctx): Promise<Reply | undefined> {
  if (ctx.incoming.chatKind !== 'private' || !ctx.tracking.droppedWhileAway) return undefined;
  const swaps = await ctx.tracking.droppedWhileAway(chatTarget(ctx));
  if (swaps.length === 0) return undefined;
  // Where each swap stands now (it may have finished while away), not where tracking last saw it.
  const now = await Promise.all(
    swaps.map((s) =>
      s.status && FINAL_SWAP_STATUSES.has(s.status)
        ? undefined
        : ctx.api.getSwap(s.swapId, { exclude_deposit_actions: true }).catch(() => undefined),
    ),
  );
  return {
    ...notice(ctx.t('notify.away.title'), [
      line(ctx.t('notify.away.text', { count: swaps.length })),
      ...swaps.map((s, i) => line('• ', code(s.swapId), ': ', now[i] ? awayLine(now[i], ctx.locale) : outcome(ctx, s))),
    ]),
    buttons: [[actionButton(ctx.t('notify.away.button'), inlineAction(VERBS.followAgain))]],
  };
}

/** A swap's line in the welcome back, from its current answer: its outcome, or "not finished yet" and where it stands. */
export function awayLine(details: SwapDetails, locale: Locale): string {
  const label = swapStatusLabel(details, locale);
  return FINAL_SWAP_STATUSES.has(details.swap.status) ? label : t(locale, 'notify.away.unfinishedNow', { label });
}

function outcome(ctx: Ctx, s: FollowedSwap): string {
  return s.status && FINAL_SWAP_STATUSES.has(s.status) ? statusWords(s.status, ctx.locale).label : ctx.t('notify.away.unfinished');
}

/** Follow again: every swap dropped while away, followed here again (the caps apply, as for /track). */
export async function followAgainButton(ctx: Ctx): Promise<Reply[]> {
  const n = ctx.tracking.followAgain
    ? await ctx.tracking.followAgain(chatTarget(ctx), {
        userId: ctx.incoming.userId,
        locale: ctx.locale,
        own: (swapId) => isCreator(ctx, swapId),
      })
    : 0;
  // The notice with the button becomes the answer, so it cannot be pressed twice.
  if (n === 0) return [{ ...notice(ctx.t('notify.away.title'), [line(ctx.t('notify.away.nothing'))], 'warning'), mode: 'edit' }];
  return [{ ...notice(ctx.t('notify.away.title'), [line(ctx.t('notify.away.followed', { count: n }))], 'success'), mode: 'edit' }];
}

import { actionButton, line, type Reply } from '../../contracts/reply.js';
import { trackingRenderer } from '../cards/moments.js';
import { shortId } from '../cards/format.js';
import { inlineAction } from '../actions.js';
import { isPublic, type Ctx } from '../context.js';
import { ADMINS_ONLY, chatTarget, followSwap, mayManageTracking } from '../lookup/follow.js';
import { parseSwapId } from '../parse/swap-id.js';
import { expired, notice } from '../replies.js';
import { VERBS } from '../verbs.js';

/**
 * The buttons tracking puts on every followed status card. Mute: the card keeps updating, with no
 * more key-moment messages for this swap here (Unmute undoes it, on the same card). Stop: no more
 * updates here (Undo follows again). In groups and channels, for admins only (as /track).
 */

const forPresser = (r: Reply): Reply => ({ ...r, target: 'ephemeral' });

async function allowed(ctx: Ctx, args: string[]): Promise<{ id: string } | Reply> {
  const id = parseSwapId(args[0]);
  if (!id.ok) return expired(ctx);
  if (!(await mayManageTracking(ctx))) return forPresser(ADMINS_ONLY);
  return { id: id.value };
}

async function setMuted(ctx: Ctx, args: string[], muted: boolean): Promise<Reply[]> {
  const ok = await allowed(ctx, args);
  if ('lines' in ok) return [ok];
  const target = chatTarget(ctx);
  if (!(await ctx.tracking.mute(ok.id, target, muted))) return [forPresser(notice(ctx.t('notify.notFollowing.title'), [line(ctx.t('notify.notFollowing.text'))], 'warning'))];
  // The pressed card shows the new state at once (Unmute in place of Mute); tracking keeps it current.
  try {
    const details = await ctx.api.getSwap(ok.id, { exclude_deposit_actions: true });
    const settings = isPublic(ctx) ? await ctx.tracking.settings(target) : undefined;
    return [{ ...trackingRenderer.card(details, target, { muted, ...(settings?.hideAmounts ? { hideAmounts: true } : {}) }), mode: 'edit' }];
  } catch {
    return [forPresser(notice(ctx.t(muted ? 'notify.muted.title' : 'notify.unmuted.title'), [line(ctx.t(muted ? 'notify.muted.text' : 'notify.unmuted.text'))], 'success'))];
  }
}

export const muteButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => setMuted(ctx, args, true);
export const unmuteButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => setMuted(ctx, args, false);

export async function stopButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const ok = await allowed(ctx, args);
  if ('lines' in ok) return [ok];
  const removed = await ctx.tracking.unfollow(ok.id, chatTarget(ctx));
  if (!removed) return [forPresser(notice(ctx.t('notify.notFollowing.title'), [line(ctx.t('notify.notFollowing.text'))], 'warning'))];
  return [{
    ...notice(ctx.t('notify.stopped.title'), [line(ctx.t('notify.stopped.text', { id: shortId(ok.id) }))], 'success'),
    buttons: [[actionButton(ctx.t('notify.button.undo'), inlineAction(VERBS.refollow, ok.id))]],
  }];
}

/** Undo after Stop: follows the swap here again (the chat's and user's caps apply, as for /track). */
export async function refollowButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const ok = await allowed(ctx, args);
  if ('lines' in ok) return [ok];
  const replies = await followSwap(ctx, ok.id, true);
  // The notice with Undo becomes the answer, so Undo cannot be pressed twice.
  return replies.map((r, i) => (i === 0 ? { ...r, mode: 'edit' as const } : r));
}

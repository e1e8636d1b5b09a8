import { actionButton, line, type Reply } from '../../contracts/reply.js';
import { statusCard } from '../status/index.js';
import { statusActions } from '../kernel/status-actions.js';
import { shortId } from '../kernel/format.js';
import { inlineAction } from '../kernel/actions.js';
import { chatTarget, isPublic, type Ctx } from '../kernel/context.js';
import { adminsOnly, followSwap, mayManageTracking } from './follow.js';
import { isCreator } from '../deposit/index.js';
import { parseSwapId } from '../kernel/swap-id.js';
import { expired, notice } from '../kernel/replies.js';
import { VERBS } from '../kernel/verbs.js';

/**
 * The buttons tracking puts on every followed status card. Mute: the card keeps updating, with no
 * more key-moment messages for this swap here (Unmute undoes it, on the same card). Stop: no more
 * updates here (Undo follows again). In groups and channels, for admins only (as /track).
 */

const forPresser = (r: Reply): Reply => ({ ...r, target: 'ephemeral' });

async function allowed(ctx: Ctx, args: string[]): Promise<{ id: string } | Reply> {
  const id = parseSwapId(args[0]);
  if (!id.ok) return expired(ctx);
  if (!(await mayManageTracking(ctx))) return forPresser(adminsOnly(ctx));
  return { id: id.value };
}

/**
 * The pressed card as tracking draws it for this chat, to edit in place: with Mute/Unmute and Stop
 * while followed, without them once stopped. Undefined when the swap cannot be read now.
 */
async function pressedCard(ctx: Ctx, id: string, followed: { muted: boolean } | undefined): Promise<Reply | undefined> {
  const target = chatTarget(ctx);
  try {
    const [details, own] = await Promise.all([
      ctx.api.getSwap(id, { exclude_deposit_actions: true }),
      isPublic(ctx) ? false : isCreator(ctx, id),
    ]);
    const settings = isPublic(ctx) ? await ctx.tracking.settings(target) : undefined;
    const seen = (await ctx.tracking.depositSeen?.(id)) === true;
    const view = {
      muted: followed?.muted === true,
      ...(settings?.hideAmounts ? { hideAmounts: true } : {}),
      ...(seen ? { depositSeen: true } : {}),
    };
    // The card tracking keeps (bot/renderer.ts), drawn here for the pressed message: masked unless
    // the presser created the swap and presses in their private chat.
    const card = statusCard(details, {
      audience: own ? 'private' : 'public',
      locale: ctx.locale,
      followed: view,
    });
    if (followed) return { ...card, mode: 'edit' };
    const stop = statusActions.stop(id);
    const rows = (card.buttons ?? []).filter((row) => !row.some((b) => b.kind === 'action' && b.action === stop));
    return { ...card, buttons: rows, mode: 'edit' };
  } catch {
    return undefined;
  }
}

async function setMuted(ctx: Ctx, args: string[], muted: boolean): Promise<Reply[]> {
  const ok = await allowed(ctx, args);
  if ('lines' in ok) return [ok];
  if (!(await ctx.tracking.mute(ok.id, chatTarget(ctx), muted)))
    return [forPresser(notice(ctx.t('notify.notFollowing.title'), [line(ctx.t('notify.notFollowing.text'))], 'warning'))];
  // The pressed card shows the new state at once (Unmute in place of Mute); tracking keeps it current.
  const card = await pressedCard(ctx, ok.id, { muted });
  return [
    card ??
      forPresser(
        notice(
          ctx.t(muted ? 'notify.muted.title' : 'notify.unmuted.title'),
          [line(ctx.t(muted ? 'notify.muted.text' : 'notify.unmuted.text'))],
          'success',
        ),
      ),
  ];
}

export const muteButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => setMuted(ctx, args, true);
export const unmuteButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => setMuted(ctx, args, false);

export async function stopButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const ok = await allowed(ctx, args);
  if ('lines' in ok) return [ok];
  const removed = await ctx.tracking.unfollow(ok.id, chatTarget(ctx));
  if (!removed) return [forPresser(notice(ctx.t('notify.notFollowing.title'), [line(ctx.t('notify.notFollowing.text'))], 'warning'))];
  // The card loses Mute and Stop (tracking no longer edits it); Undo comes in the notice below it.
  const card = await pressedCard(ctx, ok.id, undefined);
  return [
    ...(card ? [card] : []),
    {
      ...notice(ctx.t('notify.stopped.title'), [line(ctx.t('notify.stopped.text', { id: shortId(ok.id) }))], 'success'),
      buttons: [[actionButton(ctx.t('notify.button.undo'), inlineAction(VERBS.refollow, ok.id))]],
    },
  ];
}

/** Undo after Stop: follows the swap here again (the chat's and user's caps apply, as for /track). */
export async function refollowButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const ok = await allowed(ctx, args);
  if ('lines' in ok) return [ok];
  const replies = await followSwap(ctx, ok.id, true);
  // The notice with Undo becomes the answer, so Undo cannot be pressed twice.
  return replies.map((r, i) => (i === 0 ? { ...r, mode: 'edit' as const } : r));
}

import type { Ctx } from '../kernel/context.js';
import { line, type Reply } from '../../contracts/reply.js';
import { notice, senderWords } from '../kernel/replies.js';
import type { Command } from '../kernel/command.js';

/** /cancel: drops the open draft. */
async function cancel(ctx: Ctx): Promise<Reply[]> {
  const draft = await ctx.drafts.get(ctx.incoming.platform, ctx.incoming.userId);
  const dropped = await ctx.drafts.delete(ctx.incoming.platform, ctx.incoming.userId);
  // A step-by-step quote is not a swap: say which was dropped.
  const what = draft?.kind === 'quote' ? 'cancel.done.quote' : 'cancel.done.text';
  return [
    dropped
      ? notice(ctx.t('cancel.done.title'), [line(ctx.t(what))], 'success')
      : notice(ctx.t('cancel.nothing.title'), [line(ctx.t('cancel.nothing.text'))]),
  ];
}

/**
 * The Cancel button of a wizard message: only for the draft it belongs to. Anyone else's press
 * (or a stale one) is answered to the presser alone and leaves the message as it is.
 */
export async function cancelButtonAction(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const draft = await ctx.drafts.get(ctx.incoming.platform, ctx.incoming.userId);
  if (!draft || draft.id !== args[0]) {
    const { t } = senderWords(ctx);
    return [{ ...notice(t('cancel.nothing.title'), [line(t('cancel.nothing.button'))]), target: 'ephemeral' }];
  }
  return (await cancel(ctx)).map((r) => ({ ...r, mode: 'edit' as const }));
}

export const cancelCommand: Command = {
  name: 'cancel',
  description: 'Drop the swap you are setting up',
  inGroups: false,
  options: [],
  usage: '/cancel',
  run: cancel,
};

import type { Ctx } from '../context.js';
import { isDraftId, type Draft } from '../drafts.js';
import type { Reply } from '../../contracts/reply.js';
import { EXPIRED } from '../replies.js';
import { answerRouteField, setRefuel, skipRefund } from './answer.js';
import { fieldOfCode } from './choices.js';
import { createFromDraft, repeatedConfirm } from './create.js';
import { advance } from './wizard.js';

/**
 * Buttons of wizard messages. Each carries its draft's id: a button of an older (or someone
 * else's) draft finds no matching draft and says it has expired. The draft moves to the chat the
 * button was pressed in.
 */
async function ownDraft(ctx: Ctx, id: string | undefined): Promise<Draft | undefined> {
  if (!isDraftId(id)) return undefined;
  const draft = await ctx.drafts.get(ctx.incoming.platform, ctx.incoming.userId);
  if (!draft || draft.id !== id) return undefined;
  draft.chatId = ctx.incoming.chatId;
  draft.chatKind = ctx.incoming.chatKind;
  return draft;
}

/** pk <draft> <field code> <value>: a choice button. */
export async function pick(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const field = fieldOfCode(args[1]);
  const draft = await ownDraft(ctx, args[0]);
  if (!draft || !field || args.length !== 3 || draft.awaiting !== field) return [EXPIRED];
  return answerRouteField(ctx, draft, field, args[2] ?? '');
}

/** pg <draft> <field code> <page>: another page of choices. */
export async function pageChoices(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const field = fieldOfCode(args[1]);
  const draft = await ownDraft(ctx, args[0]);
  if (!draft || !field || draft.awaiting !== field || !/^\d{1,3}$/.test(args[2] ?? '')) return [EXPIRED];
  return advance(ctx, draft, { page: Number(args[2]) });
}

/** sk <draft>: skip the refund address. */
export async function skip(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const draft = await ownDraft(ctx, args[0]);
  if (!draft || draft.awaiting !== 'refund_address') return [EXPIRED];
  return skipRefund(ctx, draft);
}

/** rf <draft> <1|0>: refuel yes or no. */
export async function refuel(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const draft = await ownDraft(ctx, args[0]);
  if (!draft || draft.awaiting !== 'refuel' || (args[1] !== '1' && args[1] !== '0')) return [EXPIRED];
  return setRefuel(ctx, draft, args[1] === '1');
}

/** rs <draft>: try the current step again (after the service was down). */
export async function resume(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const draft = await ownDraft(ctx, args[0]);
  if (!draft) return [EXPIRED];
  return advance(ctx, draft);
}

/**
 * cf <draft>: Confirm. Idempotent: once the draft created its swap, a repeat (or a redelivered
 * update) re-sends the creator's deposit card privately; anyone else gets a private "expired".
 */
export async function confirm(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = args[0];
  const draft = await ownDraft(ctx, id);
  if (!draft || draft.awaiting !== 'confirm') return (isDraftId(id) ? await repeatedConfirm(ctx, id) : undefined) ?? [EXPIRED];
  return createFromDraft(ctx, draft);
}

import { line, type Reply } from '../../contracts/reply.js';
import { checkAddress } from './address/index.js';
import type { Ctx } from '../kernel/context.js';
import { msg, problemFrom } from '../kernel/problem.js';
import { expired, notice } from '../kernel/replies.js';
import { isRouteField, loadExchanges, setRouteField } from '../quote/index.js';
import { createFromDraft, repeatedConfirm } from './create.js';
import { payNow } from './pay-now.js';
import { advance } from './advance.js';
import { refundRequired } from './ask.js';
import { fieldOfCode } from './choices.js';
import { isDraftId } from './drafts.js';
import { isSavedId } from '../addresses/index.js';
import type { RouteField } from '../kernel/route.js';
import type { Draft } from '../kernel/stores.js';

/**
 * Answers to the wizard's questions, typed or pressed. Each button carries its draft's id: a
 * button of an older (or someone else's) draft finds no matching draft and says it has expired.
 * The draft moves to the chat the answer came from.
 */

/** A route field answered by text or by a button: the draft keeps everything else either way. */
async function answerRouteField(ctx: Ctx, draft: Draft, field: RouteField, value: string): Promise<Reply[]> {
  const networks = await ctx.catalog.networks();
  const u = setRouteField(draft.route, field, value, networks, await loadExchanges(ctx));
  draft.route = u.route;
  return advance(ctx, draft, u.problem ? { problem: u.problem } : {});
}

async function skipRefund(ctx: Ctx, draft: Draft): Promise<Reply[]> {
  if (refundRequired(draft.route)) return advance(ctx, draft, { problem: { id: 'refund.required', reason: msg('wizard.refundRequired') } });
  draft.refundSkipped = true;
  delete draft.refundAddress;
  return advance(ctx, draft);
}

/** Refuel is part of the quote's key: a changed answer is quoted again, the same one is not. */
async function setRefuel(ctx: Ctx, draft: Draft, on: boolean): Promise<Reply[]> {
  draft.refuel = on;
  return advance(ctx, draft);
}

/** Plain text sent while a draft waits on a question. */
export async function answerText(ctx: Ctx, draft: Draft, text: string): Promise<Reply[]> {
  const step = draft.awaiting;
  if (isRouteField(step)) return answerRouteField(ctx, draft, step, text);
  if (step === 'destination_address' || step === 'refund_address') {
    if (step === 'refund_address' && /^(skip|none|no)$/i.test(text.trim())) return skipRefund(ctx, draft);
    const networks = await ctx.catalog.networks();
    const name = step === 'destination_address' ? draft.route.destinationNetwork : draft.route.sourceNetwork;
    const network = networks.find((n) => n.name === name);
    if (!network) return advance(ctx, draft);
    const checked = checkAddress(text, network);
    if (!checked.ok) return advance(ctx, draft, { problem: problemFrom(checked, step) });
    if (step === 'destination_address') draft.destinationAddress = checked.value;
    else draft.refundAddress = checked.value;
    return advance(ctx, draft);
  }
  if (step === 'refuel') {
    if (/^(y|yes|on|refuel)$/i.test(text.trim())) return setRefuel(ctx, draft, true);
    if (/^(n|no|off)$/i.test(text.trim())) return setRefuel(ctx, draft, false);
    return advance(ctx, draft, { problem: { id: 'refuel.yes_or_no', reason: msg('problem.refuel.yesOrNo') } });
  }
  if (step === 'confirm') return [notice(ctx.t('wizard.waitingConfirm.title'), [line(ctx.t('wizard.waitingConfirm.text'))])];
  return advance(ctx, draft);
}

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
  if (!draft || !field || args.length !== 3 || draft.awaiting !== field) return [expired(ctx)];
  return answerRouteField(ctx, draft, field, args[2] ?? '');
}

/** pg <draft> <field code> <page>: another page of choices. */
export async function pageChoices(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const field = fieldOfCode(args[1]);
  const draft = await ownDraft(ctx, args[0]);
  if (!draft || !field || draft.awaiting !== field || !/^\d{1,3}$/.test(args[2] ?? '')) return [expired(ctx)];
  return advance(ctx, draft, { page: Number(args[2]) });
}

/** sk <draft>: skip the refund address. */
export async function skip(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const draft = await ownDraft(ctx, args[0]);
  if (!draft || draft.awaiting !== 'refund_address') return [expired(ctx)];
  return skipRefund(ctx, draft);
}

/** rf <draft> <1|0>: refuel yes or no. */
export async function refuel(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const draft = await ownDraft(ctx, args[0]);
  if (!draft || draft.awaiting !== 'refuel' || (args[1] !== '1' && args[1] !== '0')) return [expired(ctx)];
  return setRefuel(ctx, draft, args[1] === '1');
}

/** rs <draft>: try the current step again (after the service was down). */
export async function resume(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const draft = await ownDraft(ctx, args[0]);
  if (!draft) return [expired(ctx)];
  return advance(ctx, draft);
}

/**
 * cf <draft>: Confirm. Idempotent: once the draft created its swap, a repeat (or a redelivered
 * update) re-sends the creator's deposit card privately; anyone else gets a private "expired".
 */
export async function confirm(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = args[0];
  const draft = await ownDraft(ctx, id);
  if (!draft || draft.awaiting !== 'confirm') return (isDraftId(id) ? await repeatedConfirm(ctx, id) : undefined) ?? [expired(ctx)];
  // "Pay without gas" / "Use a deposit address": the confirmation again, quoted for that way of paying.
  if (args[1] === 'gasless' || args[1] === 'wallet' || args[1] === 'address') {
    draft.gasless = args[1] === 'gasless';
    draft.wallet = args[1] === 'wallet';
    return advance(ctx, draft);
  }
  if (args[1] === 'pay') return payNow(ctx, draft);
  return createFromDraft(ctx, draft);
}

/** ua <draft> <saved id>: a saved address at the destination address step, checked like a typed one. */
export async function useAddress(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const draft = await ownDraft(ctx, args[0]);
  if (!draft) return [expired(ctx)];
  // "to": the destination address just given, as the refund address (same family).
  if (args[1] === 'to' && draft.awaiting === 'refund_address' && draft.destinationAddress)
    return answerText(ctx, draft, draft.destinationAddress);
  if ((draft.awaiting !== 'destination_address' && draft.awaiting !== 'refund_address') || !isSavedId(args[1])) return [expired(ctx)];
  const saved = (await ctx.addressBook.list(ctx.incoming.platform, ctx.incoming.userId)).find((e) => e.id === args[1]);
  if (!saved) return [expired(ctx)];
  return answerText(ctx, draft, saved.address);
}

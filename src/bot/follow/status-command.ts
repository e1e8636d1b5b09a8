import { statusCard } from '../status/index.js';
import { isPublic, type Ctx } from '../kernel/context.js';
import { depositEvidence, depositReplies, isCreator, showsDepositAddress } from '../deposit/index.js';
import { parseSwapId } from '../kernel/swap-id.js';
import type { Reply } from '../../contracts/reply.js';
import type { SwapDetails } from '../../layerswap/schemas.js';
import { msg, problemReply } from '../kernel/problem.js';
import { modeOf } from '../kernel/mode.js';
import { senderWords } from '../kernel/replies.js';
import { SWAP_LOOKUP, type Command } from '../kernel/command.js';
import { lookupReplies } from './lookup/answer.js';

/**
 * Who sees what (docs/architecture.md): addresses unmasked only in a private chat with the swap's
 * creator; groups, channels and anyone else who knows the id get the masked card.
 */
async function load(
  ctx: Ctx,
  swapId: string,
  found?: SwapDetails,
): Promise<{ details: SwapDetails; mine: boolean; card: Reply; evidence: Awaited<ReturnType<typeof depositEvidence>> }> {
  const [details, entry, evidence] = await Promise.all([
    found ?? ctx.api.getSwap(swapId, { exclude_deposit_actions: true }),
    isPublic(ctx) ? undefined : ctx.history.entry(ctx.incoming.platform, ctx.incoming.userId, swapId),
    depositEvidence(ctx, swapId),
  ]);
  const card = statusCard(details, {
    audience: entry ? 'private' : 'public',
    now: ctx.now(),
    locale: ctx.locale,
    // What tracking knows beside the answer: a deposit it saw, the creator's "I've sent it".
    notes: evidence.notes,
    depositSeen: evidence.seen,
    // The creator's record of the refund address (null: none was given), which the service's
    // answer does not carry: so "no refund address" is said only to whoever knows it, in private.
    ...(entry?.refund !== undefined ? { refundAddress: entry.refund } : {}),
  });
  return { details, mine: entry !== undefined, card, evidence };
}

/** The status card of a swap, masked unless shown privately to its creator. */
async function statusReply(ctx: Ctx, swapId: string): Promise<Reply> {
  return (await load(ctx, swapId)).card;
}

/**
 * /status <swap id | deposit transaction hash | wallet address>: checked by shape before any
 * request; a hash shows its swap, an address lists its swaps. The creator, in private, also gets
 * the deposit details while the swap waits for its deposit.
 */
async function status(ctx: Ctx, args: string): Promise<Reply[]> {
  return lookupReplies(ctx, args.split(/\s+/)[0], async (swapId, found) => {
    const { details, mine, card, evidence } = await load(ctx, swapId, found);
    // Only while nothing says it was paid: after "I've sent it" the card alone (it says what happens next).
    return mine && showsDepositAddress(details, evidence) ? [card, ...(await depositReplies(ctx, swapId, details))] : [card];
  });
}

/** Refresh (and Status) buttons: the card again, in place when the platform can edit. */
export async function refreshStatus(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = parseSwapId(args[0]);
  const asNew = args.length === 2 && args[1] === 'n';
  if (!id.ok || (args.length !== 1 && !asNew))
    return [problemReply(ctx.locale, { reason: id.ok ? msg('problem.brokenButton') : id.reason })];
  return [{ ...(await statusReply(ctx, id.value)), mode: asNew ? 'new' : modeOf(ctx) }];
}

/** dp <swap id>: the Deposit details button, for the swap's creator only. */
export async function depositButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = parseSwapId(args[0]);
  if (!id.ok || args.length !== 1) return [problemReply(ctx.locale, { reason: id.ok ? msg('problem.brokenButton') : id.reason })];
  if (!(await isCreator(ctx, id.value)))
    return [
      {
        ...problemReply(senderWords(ctx).locale, { reason: msg('status.notYours.text') }, senderWords(ctx).t('status.notYours.title')),
        target: 'ephemeral',
      },
    ];
  return depositReplies(ctx, id.value);
}

export const statusCommand: Command = {
  name: 'status',
  description: 'Status of a swap: by its id, your deposit transaction or your wallet address',
  inGroups: true,
  options: [SWAP_LOOKUP],
  usage: '/status <swap id | tx hash | address>',
  run: status,
};

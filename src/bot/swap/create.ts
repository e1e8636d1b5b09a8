import { UnconfirmedCreateError } from '../../layerswap/errors.js';
import type { CreateSwapParams } from '../../layerswap/params.js';
import { code, line, type Reply } from '../../contracts/reply.js';
import { shortId } from '../kernel/format.js';
import type { Ctx } from '../kernel/context.js';
import { depositReplies } from '../deposit/index.js';
import { errorReply } from '../kernel/errors-text.js';
import { GASLESS_CREATE, WALLET_QUOTE, quoteParams, recoverQuote, routeSummary } from '../quote/index.js';
import { expired, notice } from '../kernel/replies.js';
import { advance } from './advance.js';
import { asError } from '../../log.js';
import type { Route } from '../kernel/route.js';
import type { Draft } from '../kernel/stores.js';

/**
 * The exchanges of a route as create-swap fields. Quotes and limits are asked for the networks
 * the exchanges use (as the official app does); only the swap itself names the exchanges.
 */
function exchangeParams(route: Route): { source_exchange?: string; destination_exchange?: string } {
  return {
    ...(route.sourceExchange ? { source_exchange: route.sourceExchange } : {}),
    ...(route.destinationExchange ? { destination_exchange: route.destinationExchange } : {}),
  };
}

/**
 * Confirm: creates the swap exactly once however often the button is pressed (a Redis lock per
 * draft, kept after an unconfirmed create). The created swap id is recorded against the draft
 * before anything else, then the swap goes into the creator's history and is followed in their
 * private chat, and the deposit card goes to them privately, once per swap and chat (a Redis claim):
 * a repeated Confirm, however many race, gets a short private note instead (/status shows the card).
 */
export async function createFromDraft(ctx: Ctx, draft: Draft): Promise<Reply[]> {
  if (!(await ctx.drafts.lock(draft.id))) {
    return (
      (await repeatedConfirm(ctx, draft.id)) ?? [
        { ...notice(ctx.t('create.busy.title'), [line(ctx.t('create.busy.text'))], 'pending'), target: 'ephemeral' },
      ]
    );
  }
  // The same route, amount, refuel and deposit-address flow as the quote the user confirmed.
  const params: CreateSwapParams = {
    ...quoteParams(draft.route, draft.refuel),
    ...exchangeParams(draft.route),
    destination_address: draft.destinationAddress ?? '',
    // The confirmation only keeps gasless when it could offer it (confirm.ts), quoted the same way.
    ...(draft.gasless ? GASLESS_CREATE : {}),
    ...(draft.wallet ? WALLET_QUOTE : {}),
  };
  if (draft.refundAddress) params.refund_address = draft.refundAddress;

  let details;
  try {
    details = await ctx.api.createSwap(params);
  } catch (err) {
    if (err instanceof UnconfirmedCreateError) {
      // The swap may exist: keep the lock so this draft can never create a second one.
      await ctx.drafts.delete(draft.platform, draft.userId);
      return [errorReply(err, ctx.locale)];
    }
    await ctx.drafts.unlock(draft.id);
    const recovered = recoverQuote(err, draft.route, ctx.locale);
    if (recovered) {
      draft.route = recovered.route;
      delete draft.checked;
      return advance(ctx, draft, { problem: recovered.problem });
    }
    return [errorReply(err, ctx.locale)];
  }

  // Whatever else the answer lacks, the swap exists once it has an id: record it first, with the
  // creator's follow (tracking completes it at its next start if Redis or this process fails before follow() does).
  const swapId = details.swap.id;
  const networks = ctx.catalog.peekNetworks() ?? [];
  const creatorChat = { platform: ctx.incoming.platform, chatId: ctx.incoming.userId, chatKind: 'private' as const };
  const by = { userId: ctx.incoming.userId, creator: true, ...(ctx.incoming.chatKind === 'private' ? { locale: ctx.locale } : {}) };
  await ctx.tracking.created?.(swapId, creatorChat, by);
  await ctx.drafts.markCreated(draft.id, { swapId, platform: ctx.incoming.platform, userId: ctx.incoming.userId });
  await ctx.drafts.delete(draft.platform, draft.userId);
  await ctx.history.add(ctx.incoming.platform, ctx.incoming.userId, {
    swapId,
    createdAt: ctx.now(),
    summary: routeSummary(draft.route, networks, ctx.locale),
    route: draft.route,
    refund: draft.refundAddress ?? null,
  });
  await ctx.history.addAddresses(ctx.incoming.platform, ctx.incoming.userId, [draft.destinationAddress, draft.refundAddress]);
  // Offered again at the next address step of this family (/addresses manages them).
  const family = networks.find((n) => n.name === draft.route.destinationNetwork)?.type;
  if (draft.destinationAddress && family)
    await ctx.addressBook.remember(ctx.incoming.platform, ctx.incoming.userId, family, draft.destinationAddress, ctx.now());

  const replies: Reply[] = [];
  const follow = await ctx.tracking.follow(swapId, creatorChat, by).catch((err: unknown) => {
    ctx.logger.warn({ err: asError(err), swapId }, 'could not follow a new swap');
    return undefined;
  });
  // Tracking's cards and moments then know what the service's answer does not say: was a refund address given.
  if (follow?.ok)
    await ctx.tracking.note?.(swapId, { refund: draft.refundAddress ?? null }).catch((err: unknown) => {
      ctx.logger.warn({ err: asError(err), swapId }, 'could not note the refund address for tracking');
    });
  replies.push(...(await depositCardOnce(ctx, swapId, details)));
  if (ctx.incoming.chatKind !== 'private') {
    // Only the short id here, and no claim about a private message that may not have arrived.
    replies.push(notice(ctx.t('create.created.title', { id: shortId(swapId) }), [line(ctx.t('create.created.text'))], 'success'));
  }
  if (!follow || !follow.ok) {
    replies.push({
      ...notice(
        ctx.t('create.notFollowing.title'),
        [
          follow
            ? line(ctx.t('create.notFollowing.limit', { count: follow.limit }))
            : line(ctx.t('create.notFollowing.failed'), ' ', code(swapId)),
        ],
        'warning',
      ),
      target: 'dm',
    });
  }
  return replies;
}

/**
 * The creator's deposit card, unless this swap's card already went to their private chat: then a
 * private note saying where it is (concurrent Confirm presses send one card, not one each).
 */
async function depositCardOnce(ctx: Ctx, swapId: string, details?: Parameters<typeof depositReplies>[2]): Promise<Reply[]> {
  if (await ctx.drafts.claimDepositCard(swapId, ctx.incoming.platform, ctx.incoming.userId)) {
    // The first card is the one tracking edits later (the adapter reports where it landed).
    return (await depositReplies(ctx, swapId, details)).map((r, i) => (i === 0 && r.target === 'dm' ? { ...r, depositCardOf: swapId } : r));
  }
  return [
    {
      ...notice(
        ctx.t('create.alreadySent.title', { id: shortId(swapId) }),
        [line(ctx.t('create.alreadySent.text')), line(code(`/status ${swapId}`))],
        'info',
      ),
      target: 'ephemeral',
    },
  ];
}

/**
 * Confirm of a draft that already created its swap: the creator is pointed to the deposit card
 * sent before (depositCardOnce); anyone else only a private "expired". Undefined while nothing
 * was created (yet).
 */
export async function repeatedConfirm(ctx: Ctx, draftId: string): Promise<Reply[] | undefined> {
  const created = await ctx.drafts.createdSwap(draftId);
  if (!created) return undefined;
  if (created.platform !== ctx.incoming.platform || created.userId !== ctx.incoming.userId) return [expired(ctx)];
  return depositCardOnce(ctx, created.swapId);
}

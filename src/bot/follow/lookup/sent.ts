import { bold, code, line, type Line, type Reply } from '../../../contracts/reply.js';
import type { SwapDetails, TransactionStatus } from '../../../layerswap/schemas.js';
import { asError } from '../../../log.js';
import { shortId } from '../../kernel/format.js';
import { confirmationBar } from '../../status/index.js';
import { isPublic, type Ctx } from '../../kernel/context.js';
import { parseSwapId } from '../../kernel/swap-id.js';
import { msg, problemReply } from '../../kernel/problem.js';
import { notice } from '../../kernel/replies.js';
import { followSwap, hasStatusCard } from '../follow.js';
import { parseLookup } from './shape.js';

/**
 * "I've sent it" (deposit card, waiting status card): asks for the deposit transaction hash
 * (optional), asks the service to match it sooner (deposit_speedup: failures are harmless and
 * never shown), looks the transaction up on the source network (transaction_status) to answer at
 * once "We see your transaction: 2/12 confirmations" before the swap itself moves, then hands over
 * to the swap's live status card in this chat, polled at once (TrackingService.pollNow).
 */
const sentPrompt = (ctx: Ctx): NonNullable<Reply['prompt']> => ({
  label: ctx.t('sent.prompt'),
  placeholder: ctx.t('sent.placeholder'),
  maxLength: 130,
});

/** sn <swap id>: the button. Private chats only: the answer is free text. */
export async function sentButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = parseSwapId(args[0]);
  if (!id.ok || args.length !== 1) return [problemReply(ctx.locale, { reason: msg('problem.brokenButton') })];
  if (isPublic(ctx))
    return [
      { ...notice(ctx.t('sent.private.title'), [line(ctx.t('sent.private.text'), ' ', code(`/status ${id.value}`))]), target: 'ephemeral' },
    ];
  await ctx.asks.set(ctx.incoming.platform, ctx.incoming.userId, { kind: 'sent', swapId: id.value, chatId: ctx.incoming.chatId });
  return [
    {
      title: ctx.t('sent.title', { id: shortId(id.value) }),
      tone: 'info',
      lines: [line(ctx.t('sent.paste')), line(ctx.t('sent.noHash'), ' ', bold('skip'), ' ', ctx.t('sent.noHashAfter'))],
      prompt: sentPrompt(ctx),
      target: 'here',
    },
  ];
}

/** The answer to the hash question: a transaction hash, or "skip". */
export async function answerSent(ctx: Ctx, swapId: string, text: string): Promise<Reply[]> {
  const skip = /^(skip|no|-)$/i.test(text.trim());
  let hash: string | undefined;
  if (!skip) {
    const parsed = parseLookup(text);
    if (!parsed.ok || parsed.value.kind !== 'transaction') {
      // Ask again: the question stays open.
      const reason = parsed.ok ? msg(parsed.value.kind === 'address' ? 'problem.sent.isAddress' : 'problem.sent.isSwapId') : parsed.reason;
      return [{ ...problemReply(ctx.locale, { reason, hint: msg('problem.sent.hint') }, ctx.t('sent.notHash')), prompt: sentPrompt(ctx) }];
    }
    hash = parsed.value.hash;
  }
  await ctx.asks.clear(ctx.incoming.platform, ctx.incoming.userId);
  const details = await ctx.api.getSwap(swapId, { exclude_deposit_actions: true });
  const lines: Line[] = [];
  if (hash) {
    const [, seen, card] = await Promise.all([
      speedUp(ctx, swapId, hash),
      transactionStatus(ctx, details, hash),
      hasStatusCard(ctx, swapId),
    ]);
    lines.push(...seenLines(ctx, seen, details, card));
  } else {
    lines.push(line(ctx.t('sent.thanks')));
  }
  const head = notice(ctx.t(hash ? 'sent.looking' : 'sent.waiting'), lines, 'pending');
  const followed = await followSwap(ctx, swapId, true);
  // The user's word is evidence of a deposit: from now on no card asks them for the money again.
  await ctx.tracking.note?.(swapId, { claim: { at: ctx.now(), ...(hash ? { hash } : {}) } }).catch((err: unknown) => {
    ctx.logger.warn({ err: asError(err), swapId }, 'could not record "I\'ve sent it"');
  });
  // No webhook says a deposit was seen: poll now rather than at the next waiting poll.
  await ctx.tracking.pollNow(swapId);
  return [head, ...followed];
}

/** Harmless when it fails: the service matches the deposit anyway, only later. */
async function speedUp(ctx: Ctx, swapId: string, hash: string): Promise<void> {
  await ctx.api.speedUpDeposit(swapId, { transaction_id: hash }).catch((err: unknown) => {
    ctx.logger.info({ err: asError(err), swapId }, 'deposit speed-up not accepted (harmless)');
  });
}

async function transactionStatus(ctx: Ctx, details: SwapDetails, hash: string): Promise<TransactionStatus | undefined> {
  const network = details.swap.source_network?.name;
  if (!network) return undefined;
  return ctx.api.getTransactionStatus({ network, transaction_id: hash }).catch((err: unknown) => {
    ctx.logger.info({ err: asError(err), swapId: details.swap.id }, 'transaction status not available');
    return undefined;
  });
}

/** `card`: the chat has the swap's live status card; without one the words say it is posted later. */
function seenLines(ctx: Ctx, seen: TransactionStatus | undefined, details: SwapDetails, card: boolean): Line[] {
  const where = details.swap.source_network?.display_name || details.swap.source_network?.name || ctx.t('sent.sourceNetwork');
  const updates = ctx.t(card ? 'sent.cardUpdates' : 'sent.cardComes');
  if (!seen) return [line(ctx.t('sent.couldNotCheck'), ' ', updates)];
  if (!seen.is_found) {
    return [line(ctx.t('sent.notVisible', { network: where })), line(updates)];
  }
  const max = seen.max_confirmations ?? 0;
  const done = seen.confirmations ?? 0;
  if (seen.is_completed)
    return [
      line(bold(ctx.t('sent.seenConfirmed')), max > 0 ? ` (${ctx.t('sent.confirmations', { done, max })}).` : '.'),
      line(ctx.t(card ? 'sent.picksUp' : 'sent.picksUpNoCard')),
    ];
  return [
    line(
      bold(max > 0 ? ctx.t('sent.seenCount', { done, max }) : ctx.t('sent.seenConfirming')),
      max > 0 ? ` ${confirmationBar(done, max).split(' ')[1] ?? ''}` : '',
    ),
    line(ctx.t(card ? 'sent.nothingMore' : 'sent.nothingMoreNoCard')),
  ];
}

import { bold, code, line, type Line, type Reply } from '../../contracts/reply.js';
import type { SwapDetails, TransactionStatus } from '../../layerswap/schemas.js';
import { asError } from '../../log.js';
import { shortId } from '../cards/format.js';
import { confirmationBar } from '../cards/status.js';
import { isPublic, type Ctx } from '../context.js';
import { parseSwapId } from '../parse/swap-id.js';
import { problemReply } from '../problem.js';
import { notice } from '../replies.js';
import { followSwap } from './follow.js';
import { parseLookup } from './shape.js';

/**
 * "I've sent it" (deposit card, waiting status card): asks for the deposit transaction hash
 * (optional), asks the service to match it sooner (deposit_speedup: failures are harmless and
 * never shown), looks the transaction up on the source network (transaction_status) to answer at
 * once "We see your transaction: 2/12 confirmations" before the swap itself moves, then hands over
 * to the swap's live status card in this chat.
 */
export const SENT_PROMPT = 'Deposit transaction hash';

/** sn <swap id>: the button. Private chats only: the answer is free text. */
export async function sentButton(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const id = parseSwapId(args[0]);
  if (!id.ok || args.length !== 1) return [problemReply({ reason: 'That button is broken.' })];
  if (isPublic(ctx)) return [{ ...notice('Open a private chat with me', [line('Tell me about your deposit in a private chat: send /status ', code(id.value), ' there.')]), target: 'ephemeral' }];
  await ctx.asks.set(ctx.incoming.platform, ctx.incoming.userId, { kind: 'sent', swapId: id.value, chatId: ctx.incoming.chatId });
  return [{
    title: `Swap ${shortId(id.value)}: you sent the deposit`,
    tone: 'info',
    lines: [
      line('Paste the hash of your deposit transaction (from your wallet or the explorer): I will look for it on the network now and ask Layerswap to match it sooner.'),
      line('No hash at hand? Send ', bold('skip'), ': the swap moves on by itself once the deposit is seen.'),
    ],
    prompt: { label: SENT_PROMPT, placeholder: '0x… or skip', maxLength: 130 },
    target: 'here',
  }];
}

/** The answer to the hash question: a transaction hash, or "skip". */
export async function answerSent(ctx: Ctx, swapId: string, text: string): Promise<Reply[]> {
  const skip = /^(skip|no|-)$/i.test(text.trim());
  let hash: string | undefined;
  if (!skip) {
    const parsed = parseLookup(text);
    if (!parsed.ok || parsed.value.kind !== 'transaction') {
      // Ask again: the question stays open.
      const reason = parsed.ok ? `That looks like ${parsed.value.kind === 'address' ? 'a wallet address' : 'a swap id'}, not a transaction hash.` : parsed.reason;
      return [{ ...problemReply({ reason, hint: 'Paste the hash of your deposit transaction, or send skip.' }, 'Not a transaction hash'), prompt: { label: SENT_PROMPT, placeholder: '0x… or skip', maxLength: 130 } }];
    }
    hash = parsed.value.hash;
  }
  await ctx.asks.clear(ctx.incoming.platform, ctx.incoming.userId);
  const details = await ctx.api.getSwap(swapId, { exclude_deposit_actions: true });
  const lines: Line[] = [];
  if (hash) {
    const [, seen] = await Promise.all([speedUp(ctx, swapId, hash), transactionStatus(ctx, details, hash)]);
    lines.push(...seenLines(seen, details));
  } else {
    lines.push(line('Thanks. Layerswap matches the deposit by itself once the source network confirms it.'));
  }
  const head = notice(hash ? 'Looking for your deposit' : 'Waiting for your deposit', lines, 'pending');
  return [head, ...(await followSwap(ctx, swapId, true))];
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

function seenLines(seen: TransactionStatus | undefined, details: SwapDetails): Line[] {
  const where = details.swap.source_network?.display_name || details.swap.source_network?.name || 'the source network';
  if (!seen) return [line('I could not check the network just now. The status card below updates once Layerswap sees the deposit.')];
  if (!seen.is_found) {
    return [line(`The transaction is not visible on ${where} yet. If you sent it moments ago it may still be on its way; check that it was sent on ${where}.`), line('The status card below updates once Layerswap sees the deposit.')];
  }
  const max = seen.max_confirmations ?? 0;
  const done = seen.confirmations ?? 0;
  if (seen.is_completed) return [line(bold('We see your transaction: confirmed'), max > 0 ? ` (${done}/${max} confirmations).` : '.'), line('Layerswap picks it up shortly; the status card below follows it.')];
  return [
    line(bold(max > 0 ? `We see your transaction: ${done}/${max} confirmations` : 'We see your transaction: confirming'), max > 0 ? ` ${confirmationBar(done, max).split(' ')[1] ?? ''}` : ''),
    line('Nothing more to do, and do not send it again: the swap continues once it is confirmed. The status card below follows it.'),
  ];
}

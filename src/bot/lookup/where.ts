import { line, type Reply } from '../../contracts/reply.js';
import { whereCard } from '../cards/where.js';
import { isPublic, type Ctx } from '../context.js';
import { isCreator } from '../deposit-details.js';
import { problemReply } from '../problem.js';
import { answerLookup } from './answer.js';
import { parseLookup } from './shape.js';

/**
 * "Where is my swap?" (/help, and the card of a swap whose deposit window expired): paste a hash or
 * an address, get the swap, its status in words and what to do next, with a support summary
 * where only Layerswap support can help.
 */
export const WHERE_PROMPT = 'Transaction hash or wallet address';
const prompt = { label: WHERE_PROMPT, placeholder: '0x…', maxLength: 130 };

/** wh: the button. Private chats only: the answer is free text. */
export async function whereButton(ctx: Ctx): Promise<Reply[]> {
  if (isPublic(ctx)) return [{ title: 'Where is my swap?', tone: 'info', lines: [line('Send /status with your deposit transaction hash or your wallet address, or ask me in a private chat.')], target: 'ephemeral' }];
  await ctx.asks.set(ctx.incoming.platform, ctx.incoming.userId, { kind: 'where', chatId: ctx.incoming.chatId });
  return [{
    title: 'Where is my swap?',
    tone: 'info',
    lines: [
      line('Paste the hash of your deposit transaction, or the wallet address you sent from or to (a swap id works too).'),
      line('I will find the swap, say where it stands and what to do next.'),
    ],
    prompt,
    target: 'here',
  }];
}

/** The answer to the question: the where-card of the swap it finds. */
export async function answerWhere(ctx: Ctx, text: string): Promise<Reply[]> {
  const parsed = parseLookup(text);
  if (!parsed.ok) return [{ ...problemReply(parsed, 'Which swap?'), prompt }];
  await ctx.asks.clear(ctx.incoming.platform, ctx.incoming.userId);
  return answerLookup(ctx, parsed.value, async (swapId, found) => {
    const details = found ?? (await ctx.api.getSwap(swapId, { exclude_deposit_actions: true }));
    const mine = !isPublic(ctx) && (await isCreator(ctx, swapId));
    return [whereCard(details, { audience: mine ? 'private' : 'public', now: ctx.now() })];
  });
}

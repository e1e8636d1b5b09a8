import { line, type Reply } from '../../../contracts/reply.js';
import { whereCard } from './where-card.js';
import { isPublic, type Ctx } from '../../kernel/context.js';
import { isCreator } from '../../deposit/index.js';
import { problemReply } from '../../kernel/problem.js';
import { answerLookup } from './answer.js';
import { parseLookup } from './shape.js';

/**
 * "Where is my swap?" (/help, and the card of a swap whose deposit window expired): paste a hash or
 * an address, get the swap, its status in words and what to do next, with a support summary
 * where only Layerswap support can help.
 */
const prompt = (ctx: Ctx): NonNullable<Reply['prompt']> => ({ label: ctx.t('where.prompt'), placeholder: '0x…', maxLength: 130 });

/** wh: the button. Private chats only: the answer is free text. */
export async function whereButton(ctx: Ctx): Promise<Reply[]> {
  if (isPublic(ctx)) return [{ title: ctx.t('where.title'), tone: 'info', lines: [line(ctx.t('where.public'))], target: 'ephemeral' }];
  await ctx.asks.set(ctx.incoming.platform, ctx.incoming.userId, { kind: 'where', chatId: ctx.incoming.chatId });
  return [
    {
      title: ctx.t('where.title'),
      tone: 'info',
      lines: [line(ctx.t('where.paste')), line(ctx.t('where.willFind'))],
      prompt: prompt(ctx),
      target: 'here',
    },
  ];
}

/** The answer to the question: the where-card of the swap it finds. */
export async function answerWhere(ctx: Ctx, text: string): Promise<Reply[]> {
  const parsed = parseLookup(text);
  if (!parsed.ok) return [{ ...problemReply(ctx.locale, parsed, ctx.t('lookup.whichSwap')), prompt: prompt(ctx) }];
  await ctx.asks.clear(ctx.incoming.platform, ctx.incoming.userId);
  return answerLookup(ctx, parsed.value, async (swapId, found) => {
    const details = found ?? (await ctx.api.getSwap(swapId, { exclude_deposit_actions: true }));
    const mine = !isPublic(ctx) && (await isCreator(ctx, swapId));
    return [whereCard(details, { audience: mine ? 'private' : 'public', now: ctx.now(), locale: ctx.locale })];
  });
}

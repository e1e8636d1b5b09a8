import { italic, line, type Line, type Reply } from '../../contracts/reply.js';
import type { Ctx } from '../kernel/context.js';
import type { Problem } from '../kernel/problem.js';
import { advance } from './advance.js';
import { noKeyReply } from '../kernel/errors-text.js';
import { newDraftId } from './drafts.js';
import type { Route } from '../kernel/route.js';
import type { Draft } from '../kernel/stores.js';

/**
 * Starts the wizard on a route (what a line or a quote card gave, with what was wrong with it):
 * a new draft that asks whatever is missing. One draft per user: an unfinished one is replaced,
 * and the user is told only when there was one that had got somewhere. `answers`: what Swap again
 * already knows (swap/again.ts).
 */
export async function startWizard(
  ctx: Ctx,
  kind: Draft['kind'],
  route: Route,
  problem?: Problem,
  answers: Pick<Draft, 'refundAddress' | 'refundSkipped' | 'refuel'> = {},
): Promise<Reply[]> {
  // Without a Layerswap API key the bot quotes real routes but cannot create one: said before any question.
  if (kind === 'swap' && ctx.api.keyless) return [noKeyReply(ctx.locale)];
  const i = ctx.incoming;
  const note: Line[] = [];
  const existing = await ctx.drafts.get(i.platform, i.userId);
  if (existing?.awaiting) note.push(line(italic(ctx.t(existing.kind === 'swap' ? 'wizard.droppedSwap' : 'wizard.droppedQuote'))));
  const draft: Draft = {
    id: newDraftId(),
    kind,
    platform: i.platform,
    userId: i.userId,
    chatId: i.chatId,
    chatKind: i.chatKind,
    route,
    createdAt: ctx.now(),
    ...answers,
  };
  return advance(ctx, draft, problem ? { note, problem } : { note });
}

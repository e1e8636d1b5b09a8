import type { Ctx } from '../context.js';
import { newDraftId, type Draft } from '../drafts.js';
import { splitRouteWords } from '../parse/quote-words.js';
import { italic, line, type Line, type Reply } from '../../contracts/reply.js';
import { problem } from '../replies.js';
import { applyRouteWords, type Route } from './route.js';
import { loadExchanges } from './route-check.js';
import type { ShownProblem } from './ui.js';
import { advance } from './wizard.js';

function newDraft(ctx: Ctx, kind: Draft['kind'], route: Route): Draft {
  const i = ctx.incoming;
  return { id: newDraftId(), kind, platform: i.platform, userId: i.userId, chatId: i.chatId, chatKind: i.chatKind, route, createdAt: ctx.now() };
}

/**
 * /quote and /swap: whatever the line holds is kept (a one-liner quotes at once), a wrong part
 * is explained and asked again, and anything missing is asked step by step.
 */
export async function startFromLine(ctx: Ctx, kind: Draft['kind'], args: string): Promise<Reply[]> {
  const words = splitRouteWords(args);
  if (!words.ok) return [problem(words.reason, words.hint, 'Could not read that route')];
  const networks = await ctx.catalog.networks();
  const u = applyRouteWords({}, words.value, networks, await loadExchanges(ctx));
  return startWithRoute(ctx, kind, u.route, u.problem);
}

/** Starts a draft from a known route (Swap this on a quote card), replacing any other draft. */
export async function startWithRoute(ctx: Ctx, kind: Draft['kind'], route: Route, shown?: ShownProblem): Promise<Reply[]> {
  const note: Line[] = [];
  if (kind === 'swap') {
    const existing = await ctx.drafts.get(ctx.incoming.platform, ctx.incoming.userId);
    if (existing) note.push(line(italic(`Your unfinished ${existing.kind} was dropped: one at a time.`)));
  }
  const draft = newDraft(ctx, kind, route);
  return advance(ctx, draft, shown ? { note, problem: shown } : { note });
}

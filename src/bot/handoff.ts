import { line, type Reply } from '../contracts/reply.js';
import type { Ctx } from './kernel/context.js';
import type { HandoffStore } from './kernel/handoffs.js';
import { notice } from './kernel/replies.js';
import { depositReplies } from './deposit/index.js';
import { routeSummary } from './quote/index.js';
import { advance } from './swap/advance.js';

/**
 * `/start ag_<token>`: a hand-off from an agent (src/mcp) to a person's private chat: a swap the
 * agent created (its deposit card, and the swap becomes the opener's: in their /history and
 * followed there), or a swap above the key's threshold to approve (the wizard's confirmation with
 * the draft filled in; the swap exists only once they press Confirm). The first person to open a
 * link owns it; anyone else gets "expired", so the link is safe to pass through an assistant's chat
 * but gives nothing to a second reader.
 */
export { HANDOFF_PREFIX } from './kernel/handoffs.js';

/** `/start ag_<token>` in a private chat: the hand-off's card, or "expired". */
export async function handoffReplies(ctx: Ctx, store: HandoffStore, token: string, expired: Reply): Promise<Reply[]> {
  const h = await store.get(token);
  const { platform, userId } = ctx.incoming;
  if (!h || !(await store.claim(token, `${platform}:${userId}`))) return [expired];
  if (h.kind === 'approve') {
    const existing = await ctx.drafts.createdSwap(h.draftId);
    if (existing) return depositReplies(ctx, existing.swapId);
    const draft = {
      id: h.draftId,
      kind: 'swap' as const,
      platform,
      userId,
      chatId: ctx.incoming.chatId,
      chatKind: ctx.incoming.chatKind,
      route: h.route,
      destinationAddress: h.destinationAddress,
      ...(h.refundAddress ? { refundAddress: h.refundAddress } : { refundSkipped: true }),
      refuel: h.refuel,
      createdAt: ctx.now(),
    };
    await ctx.drafts.save(draft);
    return advance(ctx, draft, { note: [line(ctx.t('handoff.approve'))] });
  }
  // The agent's swap becomes this person's: their history (so the card is theirs), followed here.
  if (!(await ctx.history.entry(platform, userId, h.swapId))) {
    const networks = ctx.catalog.peekNetworks() ?? [];
    await ctx.history.add(platform, userId, {
      swapId: h.swapId,
      createdAt: h.createdAt,
      summary: routeSummary(h.route, networks, ctx.locale),
      route: h.route,
      refund: h.refund,
    });
  }
  await ctx.tracking
    .follow(h.swapId, { platform, chatId: userId, chatKind: 'private' }, { userId, creator: true, locale: ctx.locale })
    .catch(() => undefined);
  const replies = await depositReplies(ctx, h.swapId);
  const first = replies[0];
  const intro = notice(ctx.t('handoff.fromAgent.title'), [line(ctx.t('handoff.fromAgent.text'))], 'info');
  return first && first.target === 'dm' ? [intro, { ...first, depositCardOf: h.swapId }, ...replies.slice(1)] : [intro, ...replies];
}

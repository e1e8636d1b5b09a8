import { isPublic, type Ctx } from './kernel/context.js';
import type { Command, CommandHandler } from './kernel/command.js';
import { depositReplies, isCreator } from './deposit/details.js';
import { line, type Reply } from '../contracts/reply.js';
import { notice } from './kernel/replies.js';
import { advance } from './swap/advance.js';
import { history, HISTORY_PAYLOAD } from './history/command.js';
import { SWAP_LINK_PREFIX } from './quote/inline.js';
import { VERBS } from './kernel/verbs.js';
import { swapThis } from './swap/quote-command.js';
import { statusCommand } from './follow/status-command.js';
import { STATUS_LINK_PREFIX } from './follow/lookup/glance.js';
import { HANDOFF_PREFIX, handoffReplies } from './handoff.js';

const dashed = (hex: string): string => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

const PAYLOAD = /^[A-Za-z0-9_-]{1,64}$/;
const expiredLink = (ctx: Ctx): Reply => notice(ctx.t('start.expired.title'), [line(ctx.t('start.expired.text'))], 'warning');

/**
 * /start [payload]: a welcome, or a deep link from a group: d_<draft id> resumes that draft here,
 * dep_<swap id> re-sends the deposit details of the user's own swap, `history` opens /history,
 * sw_<id> ("Swap this" on a card sent through inline mode) starts a swap of that card's route here,
 * ag_<token> opens an agent's hand-off (a swap's deposit card, or a swap to approve).
 */
async function start(ctx: Ctx, args: string, welcome: CommandHandler): Promise<Reply[]> {
  const payload = args.trim();
  if (!payload) return welcome(ctx, '');
  if (!PAYLOAD.test(payload)) return [expiredLink(ctx)];
  if (payload === HISTORY_PAYLOAD) return history(ctx);
  if (payload.startsWith('d_')) {
    const draft = await ctx.drafts.get(ctx.incoming.platform, ctx.incoming.userId);
    if (!draft || draft.id !== payload.slice(2)) return [expiredLink(ctx)];
    draft.chatId = ctx.incoming.chatId;
    draft.chatKind = ctx.incoming.chatKind;
    return advance(ctx, draft, { note: [line(ctx.t('start.continuing'))] });
  }
  if (payload.startsWith(SWAP_LINK_PREFIX)) {
    // Private only: the wizard asks for addresses next. The route is re-checked like any button's.
    if (isPublic(ctx)) return [expiredLink(ctx)];
    const decoded = await ctx.codec.decode(`~${payload.slice(SWAP_LINK_PREFIX.length)}`);
    if (!decoded.ok || decoded.action.verb !== VERBS.swapThis) return [expiredLink(ctx)];
    return swapThis(ctx, decoded.action.args);
  }
  // st_<hex>: "Open the full card" on a guest answer; the card is unmasked only for its creator.
  const st = new RegExp(`^${STATUS_LINK_PREFIX}([0-9a-f]{32})$`).exec(payload);
  if (st && !isPublic(ctx)) return statusCommand.run(ctx, dashed(st[1] as string));
  // ag_<token>: an agent's hand-off (bot/handoff.ts), private chats only.
  if (payload.startsWith(HANDOFF_PREFIX) && ctx.handoffs && !isPublic(ctx))
    return handoffReplies(ctx, ctx.handoffs, payload.slice(HANDOFF_PREFIX.length), expiredLink(ctx));
  const dep = /^dep_([0-9a-f]{32})$/.exec(payload);
  if (dep && !isPublic(ctx)) {
    const hex = dep[1] as string;
    const swapId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    // Deposit details only for the swap's creator.
    if (!(await isCreator(ctx, swapId))) return [expiredLink(ctx)];
    return depositReplies(ctx, swapId);
  }
  return [expiredLink(ctx)];
}

/** /start is not in the menus (platforms send it); with no payload it answers like `welcome` (/help). */
export function startCommand(welcome: CommandHandler): Command {
  return {
    name: 'start',
    description: 'Start the bot',
    inGroups: true,
    options: [],
    usage: '/start',
    run: (ctx, args) => start(ctx, args, welcome),
  };
}

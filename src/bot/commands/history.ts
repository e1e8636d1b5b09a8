import { formatTime } from '../cards/format.js';
import type { Ctx } from '../context.js';
import { pageArg, pageButtons } from '../paging.js';
import { code, line, type Line, type Reply } from '../reply.js';
import { notice } from '../replies.js';

const PAGE = 8;

/** /history: the swaps this user created through the bot, newest first, paged. */
export async function historyPage(ctx: Ctx, page: number): Promise<Reply[]> {
  const { entries, total } = await ctx.history.page(ctx.incoming.platform, ctx.incoming.userId, page, PAGE);
  if (total === 0) return [notice('No swaps yet', [line('Swaps you create with /swap show up here.')])];
  const pages = Math.max(1, Math.ceil(total / PAGE));
  const p = Math.min(Math.max(0, page), pages - 1);
  const lines: Line[] = entries.map((e) => line(`${formatTime(e.createdAt, ctx.now())} · ${e.summary} · `, code(e.swapId)));
  if (entries.length === 0) lines.push(line('Nothing on this page.'));
  lines.push(line('Check one with /status <swap id>.'));
  if (pages > 1) lines.push(line(`Page ${p + 1} of ${pages}`));
  const buttons = await pageButtons(ctx, 'hs', [], p, pages);
  return [{ title: `Your swaps (${total})`, tone: 'info', lines, buttons, target: 'ephemeral', mode: ctx.incoming.action ? 'edit' : 'new' }];
}

export const history = (ctx: Ctx): Promise<Reply[]> => historyPage(ctx, 0);
export const historyButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => historyPage(ctx, pageArg(args[0]));

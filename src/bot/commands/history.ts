import { formatTime } from '../cards/format.js';
import { isPublic, type Ctx } from '../context.js';
import { pageArg, pageButtons } from '../paging.js';
import { code, deeplinkButton, line, type Line, type Reply } from '../../contracts/reply.js';
import { notice } from '../replies.js';
import { VERBS } from '../verbs.js';
import type { Command } from '../command.js';

const PAGE = 8;
/** The /start payload that opens /history in the private chat (the group fallback's button). */
export const HISTORY_PAYLOAD = 'history';

/**
 * Outside a private chat the list goes privately; when that cannot be delivered the chat gets
 * only a button to the private chat, never the list (nothing private falls back to a group).
 */
function privately(ctx: Ctx, reply: Reply): Reply {
  if (!isPublic(ctx)) return { ...reply, target: 'here' };
  return {
    ...reply,
    target: 'dm',
    mode: 'new',
    dmFallback: {
      title: 'Open a private chat with me',
      tone: 'info',
      lines: [line('Your swap history is only shown privately, and I could not message you.')],
      buttons: [[deeplinkButton('Open my history', HISTORY_PAYLOAD)]],
      target: 'here',
    },
  };
}

/** /history: the swaps this user created through the bot, newest first, paged. */
async function historyPage(ctx: Ctx, page: number): Promise<Reply[]> {
  const { entries, total } = await ctx.history.page(ctx.incoming.platform, ctx.incoming.userId, page, PAGE);
  if (total === 0) return [privately(ctx, notice('No swaps yet', [line('Swaps you create with /swap show up here.')]))];
  const pages = Math.max(1, Math.ceil(total / PAGE));
  const p = Math.min(Math.max(0, page), pages - 1);
  const lines: Line[] = entries.map((e) => line(`${formatTime(e.createdAt, ctx.now())} · ${e.summary} · `, code(e.swapId)));
  if (entries.length === 0) lines.push(line('Nothing on this page.'));
  lines.push(line('Check one with /status <swap id>.'));
  if (pages > 1) lines.push(line(`Page ${p + 1} of ${pages}`));
  const buttons = await pageButtons(ctx, VERBS.historyPage, [], p, pages);
  return [privately(ctx, { title: `Your swaps (${total})`, tone: 'info', lines, buttons, target: 'here', mode: ctx.incoming.action ? 'edit' : 'new' })];
}

export const history = (ctx: Ctx): Promise<Reply[]> => historyPage(ctx, 0);
export const historyButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => historyPage(ctx, pageArg(args[0]));

export const historyCommand: Command = { name: 'history', description: 'Your swaps created through this bot', inGroups: false, options: [], usage: '/history', run: history };

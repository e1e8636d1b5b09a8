import { statusWords } from '../status/index.js';
import { formatTime } from '../kernel/format.js';
import { chatTarget, type Ctx } from '../kernel/context.js';
import { pageArg, pageButtons, pageLine, pageOf } from '../kernel/paging.js';
import { code, line, type Line, type Reply } from '../../contracts/reply.js';
import { notice } from '../kernel/replies.js';
import { VERBS } from '../kernel/verbs.js';
import type { Command } from '../kernel/command.js';

const PAGE = 10;

/** /tracking: the swaps this chat follows, newest first, paged. */
async function trackingList(ctx: Ctx, page = 0): Promise<Reply[]> {
  const followed = await ctx.tracking.listFollowed(chatTarget(ctx));
  if (followed.length === 0) return [notice(ctx.t('tracking.none.title'), [line(ctx.t('tracking.none.text'))])];
  const p = pageOf(followed, page, PAGE);
  const lines: Line[] = p.items.map((f) =>
    line(
      code(f.swapId),
      ` · ${f.status ? statusWords(f.status, ctx.locale).label : ctx.t('tracking.checking')} · ${ctx.t('tracking.since', { time: formatTime(f.since, ctx.now(), ctx.locale) })}`,
    ),
  );
  if (p.pages > 1) lines.push(pageLine(ctx, p.page, p.pages));
  const buttons = await pageButtons(ctx, VERBS.trackingPage, [], p.page, p.pages);
  return [
    {
      title: ctx.t('tracking.title', { n: followed.length }),
      tone: 'info',
      lines,
      buttons,
      target: 'here',
      mode: ctx.incoming.action ? 'edit' : 'new',
    },
  ];
}

const tracking = (ctx: Ctx): Promise<Reply[]> => trackingList(ctx, 0);
export const trackingPage = (ctx: Ctx, args: string[]): Promise<Reply[]> => trackingList(ctx, pageArg(args[0]));

export const trackingCommand: Command = {
  name: 'tracking',
  description: 'List the swaps this chat follows',
  inGroups: true,
  options: [],
  usage: '/tracking',
  run: tracking,
};

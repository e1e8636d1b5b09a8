import type { Ctx } from '../kernel/context.js';
import { networkLabel } from './parse-network.js';
import { pageArg, pageButtons, pageLine, pageOf } from '../kernel/paging.js';
import { line, type Line, type Reply } from '../../contracts/reply.js';
import { msg, problemReply } from '../kernel/problem.js';
import { VERBS } from '../kernel/verbs.js';
import type { Command } from '../kernel/command.js';

const PAGE = 15;

/** /networks [type]: supported networks, optionally of one family, paged. */
async function networksPage(ctx: Ctx, typeArg: string, page: number): Promise<Reply[]> {
  const all = await ctx.catalog.networks();
  const type = typeArg.trim().toLowerCase();
  const types = [...new Set(all.map((n) => (n.type ?? 'other').toLowerCase()))].sort();
  if (type && !types.includes(type)) {
    return [
      problemReply(
        ctx.locale,
        {
          reason: msg('networks.noType', { type: JSON.stringify(type.slice(0, 30)) }),
          hint: msg('networks.types', { types: types.join(', ') }),
        },
        ctx.t('networks.unknownType'),
      ),
    ];
  }
  const list = all
    .filter((n) => !type || (n.type ?? 'other').toLowerCase() === type)
    .slice()
    .sort((a, b) => networkLabel(a).localeCompare(networkLabel(b)));
  const p = pageOf(list, page, PAGE);
  // Names as people say them (what they type works too); the service's ids and families are not for them.
  const lines: Line[] = p.items.map((n) => line(`${networkLabel(n)} · ${ctx.t('networks.tokens', { count: n.tokens.length })}`));
  if (list.length === 0) lines.push(line(ctx.t('networks.none')));
  lines.push(line(ctx.t(type ? 'networks.allTypes' : 'networks.filter'), ' ', types.map((t) => `/networks ${t}`).join(', ')));
  if (p.pages > 1) lines.push(pageLine(ctx, p.page, p.pages));
  const buttons = await pageButtons(ctx, VERBS.networksPage, [type], p.page, p.pages);
  return [
    {
      title: type ? ctx.t('networks.titleType', { type, n: list.length }) : ctx.t('networks.title', { n: list.length }),
      tone: 'info',
      lines,
      buttons,
      target: 'here',
      mode: ctx.incoming.action ? 'edit' : 'new',
    },
  ];
}

const networks = (ctx: Ctx, args: string): Promise<Reply[]> => networksPage(ctx, args.split(/\s+/)[0] ?? '', 0);
export const networksButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => networksPage(ctx, args[0] ?? '', pageArg(args[1]));

export const networksCommand: Command = {
  name: 'networks',
  description: 'List supported networks',
  inGroups: true,
  options: [{ name: 'type', description: 'Network family, e.g. evm, solana, starknet', type: 'string', required: false }],
  usage: '/networks [type]',
  run: networks,
};

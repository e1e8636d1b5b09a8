import type { Ctx } from '../context.js';
import { networkLabel } from '../parse/network.js';
import { pageArg, pageButtons, pageOf } from '../paging.js';
import { code, line, type Line, type Reply } from '../../contracts/reply.js';
import { problemReply } from '../problem.js';
import { VERBS } from '../verbs.js';
import type { Command } from '../command.js';

const PAGE = 15;

/** /networks [type]: supported networks, optionally of one family, paged. */
async function networksPage(ctx: Ctx, typeArg: string, page: number): Promise<Reply[]> {
  const all = await ctx.catalog.networks();
  const type = typeArg.trim().toLowerCase();
  const types = [...new Set(all.map((n) => (n.type ?? 'other').toLowerCase()))].sort();
  if (type && !types.includes(type)) {
    return [problemReply({ reason: `There is no network type ${JSON.stringify(type.slice(0, 30))}.`, hint: `Types: ${types.join(', ')}.` }, 'Unknown network type')];
  }
  const list = all.filter((n) => !type || (n.type ?? 'other').toLowerCase() === type).slice().sort((a, b) => networkLabel(a).localeCompare(networkLabel(b)));
  const p = pageOf(list, page, PAGE);
  const lines: Line[] = p.items.map((n) => line(`${networkLabel(n)} · `, code(n.name), ` · ${n.type} · ${n.tokens.length} token${n.tokens.length === 1 ? '' : 's'}`));
  if (list.length === 0) lines.push(line('None right now.'));
  lines.push(line(type ? 'All types: ' : 'Filter by type: ', types.map((t) => `/networks ${t}`).join(', ')));
  if (p.pages > 1) lines.push(line(`Page ${p.page + 1} of ${p.pages}`));
  const buttons = await pageButtons(ctx, VERBS.networksPage, [type], p.page, p.pages);
  return [{ title: `${type ? `${type} networks` : 'Networks'} (${list.length})`, tone: 'info', lines, buttons, target: 'here', mode: ctx.incoming.action ? 'edit' : 'new' }];
}

const networks = (ctx: Ctx, args: string): Promise<Reply[]> => networksPage(ctx, args.split(/\s+/)[0] ?? '', 0);
export const networksButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => networksPage(ctx, args[0] ?? '', pageArg(args[1]));

export const networksCommand: Command = {
  name: 'networks', description: 'List supported networks', inGroups: true,
  options: [{ name: 'type', description: 'Network family, e.g. evm, solana, starknet', type: 'string', required: false }], usage: '/networks [type]', run: networks,
};

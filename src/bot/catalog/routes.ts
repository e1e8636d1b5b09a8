import type { Ctx } from '../kernel/context.js';
import { activeTokens } from './active-tokens.js';
import { typedNetwork } from './typed-network.js';
import { limitsRange, routeLimits } from './limits.js';
import { networkLabel, resolveNetwork } from './parse-network.js';
import { resolveToken, tokenList } from './parse-token.js';
import { pageArg, pageButtons, pageLine, pageOf } from '../kernel/paging.js';
import { bold, line, type Line, type Reply } from '../../contracts/reply.js';
import { msg, problemReply, say } from '../kernel/problem.js';
import { VERBS } from '../kernel/verbs.js';
import { FROM, TOKEN, type Command } from '../kernel/command.js';

const PAGE = 12;
const USAGE = msg('routes.usage');

/** /routes <network> [token]: where you can swap to from a network (and token), paged. */
async function routesPage(ctx: Ctx, networkArg: string, tokenArg: string, page: number): Promise<Reply[]> {
  if (!networkArg) return [problemReply(ctx.locale, { reason: msg('routes.whichNetwork'), hint: USAGE }, ctx.t('problem.network.missing'))];
  const networks = await ctx.catalog.networks();
  const n = resolveNetwork(networkArg, networks);
  if (!n.ok) return [problemReply(ctx.locale, { reason: n.reason, hint: n.hint ?? USAGE }, ctx.t('routes.unknownNetwork'))];
  let tokenSymbol: string | undefined;
  if (tokenArg) {
    const t = resolveToken(tokenArg, n.network.tokens, networkLabel(n.network));
    if (!t.ok) return [problemReply(ctx.locale, t, ctx.t('routes.unknownToken'))];
    tokenSymbol = t.token.symbol;
  }
  const destinations = (
    await ctx.catalog.destinations(
      tokenSymbol ? { source_network: n.network.name, source_token: tokenSymbol } : { source_network: n.network.name },
    )
  ).filter((d) => activeTokens(d).length > 0);
  const from = tokenSymbol ? ctx.t('routes.tokenOn', { token: tokenSymbol, network: networkLabel(n.network) }) : networkLabel(n.network);
  const p = pageOf(destinations, page, PAGE);
  // With a token, each page's same-token routes show their amount limits (cached briefly; left out when unknown).
  const limits = await Promise.all(
    p.items.map(async (d) => {
      if (!tokenSymbol || !activeTokens(d).some((t) => t.symbol === tokenSymbol)) return undefined;
      const route = { sourceNetwork: n.network.name, sourceToken: tokenSymbol, destinationNetwork: d.name, destinationToken: tokenSymbol };
      return routeLimits(ctx, route, networks);
    }),
  );
  const lines: Line[] = p.items.map((d, i) => {
    const l = limits[i];
    return line(
      bold(networkLabel(d)),
      `: ${say(ctx.locale, tokenList(activeTokens(d), 10))}`,
      ...(l ? [` · ${limitsRange(ctx.locale, l)}`] : []),
    );
  });
  if (destinations.length === 0) lines.push(line(ctx.t('routes.none')));
  // What a person would type (the parser reads it back as this network), not the API name.
  else
    lines.push(
      line(ctx.t('routes.quoteOne', { command: `/quote <amount> ${tokenSymbol ?? '<token>'} ${typedNetwork(n.network, networks)} <to>` })),
    );
  if (p.pages > 1) lines.push(pageLine(ctx, p.page, p.pages));
  const buttons = await pageButtons(ctx, VERBS.routesPage, [n.network.name, tokenSymbol ?? ''], p.page, p.pages);
  return [
    {
      title: ctx.t('routes.title', { from, n: destinations.length }),
      tone: 'info',
      lines,
      buttons,
      target: 'here',
      mode: ctx.incoming.action ? 'edit' : 'new',
    },
  ];
}

function routes(ctx: Ctx, args: string): Promise<Reply[]> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  // A multi-word network name ("arbitrum one usdc"): the last word is the token when the rest names a network.
  if (words.length > 2) return routesPage(ctx, words.slice(0, -1).join(' '), words[words.length - 1] ?? '', 0);
  return routesPage(ctx, words[0] ?? '', words[1] ?? '', 0);
}
export const routesButton = (ctx: Ctx, args: string[]): Promise<Reply[]> => routesPage(ctx, args[0] ?? '', args[1] ?? '', pageArg(args[2]));

export const routesCommand: Command = {
  name: 'routes',
  description: 'Where you can swap to from a network',
  inGroups: true,
  options: [
    { ...FROM, name: 'network', description: 'Source network' },
    { ...TOKEN, required: false, description: 'Source token' },
  ],
  usage: '/routes <network> [token]',
  run: routes,
};

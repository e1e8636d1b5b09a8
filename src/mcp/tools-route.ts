import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { activeTokens, amountProblem, networkLabel, resolveNetwork, resolveToken, routeLimits } from '../bot/catalog/index.js';
import type { Problem } from '../bot/kernel/problem.js';
import type { Route, RouteField } from '../bot/kernel/route.js';
import { quoteMoney } from '../bot/money/quote-money.js';
import { checkRoute, observedTimes, quoteParams, setRouteField } from '../bot/quote/index.js';
import type { Destination, Network } from '../layerswap/schemas.js';
import { guarded, result, type Agent } from './agent.js';
import { moneyView, problemView, routeTimesView } from './views.js';

/**
 * Finding networks and tokens (fuzzy, as /quote reads them, with did-you-mean), routes and
 * limits, and quotes: the same parsers and checks as the chat, answered as data.
 */
const name = z.string().trim().min(1, 'give a name, e.g. "arbitrum"').max(64, 'at most 64 characters');

export const routeShape = {
  amount: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, 'a positive decimal in token units, such as "100" or "0.5" (not base units)'))
    .describe('amount to send, in the source token (decimal text, e.g. "100")'),
  from_network: name.describe('source network, as a person would type it ("arbitrum", "base", "ethereum")'),
  from_token: name.describe('source token symbol ("USDC", "ETH")'),
  to_network: name.describe('destination network'),
  to_token: name.optional().describe('destination token; defaults to the source token when the route offers it'),
  refuel: z.boolean().optional().describe('also deliver a little native gas on the destination, when offered'),
};
type RouteArgs = { amount: string; from_network: string; from_token: string; to_network: string; to_token?: string | undefined };

/** The typed fields as the chat's route, each read as /quote reads it; the first problem stops. */
export async function routeOf(
  agent: Agent,
  a: RouteArgs,
  forSwap: boolean,
): Promise<{ route: Route; networks: Network[]; destination?: Destination } | { problem: Problem }> {
  const networks = await agent.ctx.catalog.networks();
  let route: Route = {};
  const fields: Array<[RouteField, string | undefined]> = [
    ['source_network', a.from_network],
    ['source_token', a.from_token],
    ['destination_network', a.to_network],
    ['destination_token', a.to_token],
    ['amount', a.amount],
  ];
  for (const [field, raw] of fields) {
    if (raw === undefined) continue;
    const u = setRouteField(route, field, raw, networks);
    if (u.problem) return { problem: u.problem };
    route = u.route;
  }
  const check = await checkRoute(agent.ctx, route, networks, forSwap);
  if (check.problem) return { problem: check.problem };
  if (!check.route.destinationToken)
    return {
      problem: {
        id: 'route.pick_destination_token',
        field: 'destination_token',
        reason: {
          key: 'problem.route.youCanReceive',
          vars: { list: (check.destination ? activeTokens(check.destination) : []).map((t) => t.symbol).join(', ') },
        },
        choices: (check.destination ? activeTokens(check.destination) : []).map((t) => t.symbol),
      },
    };
  return { route: check.route, networks, ...(check.destination ? { destination: check.destination } : {}) };
}

export function registerRouteTools(server: McpServer, agent: Agent): void {
  server.registerTool(
    'find_network',
    {
      description:
        'Find a network by what a person would type (fuzzy: "arb", "base", "eth"); answers its exact name, tokens, or did-you-mean choices.',
      inputSchema: z.object({ query: name }),
      annotations: { readOnlyHint: true },
    },
    ({ query }) =>
      guarded(agent, 'find_network', async () => {
        const networks = await agent.ctx.catalog.networks();
        const m = resolveNetwork(query, networks);
        if (!m.ok)
          return result(
            { ...problemView({ id: m.id, reason: m.reason, ...(m.hint ? { hint: m.hint } : {}), choices: m.choices.map((n) => n.name) }) },
            true,
          );
        const n = m.network;
        return result({
          name: n.name,
          display_name: networkLabel(n),
          type: n.type ?? null,
          chain_id: n.chain_id ?? null,
          tokens: n.tokens.map((t) => ({ symbol: t.symbol, decimals: t.decimals ?? null, contract: t.contract ?? null })),
        });
      }),
  );

  server.registerTool(
    'find_token',
    {
      description: 'Find a token on a network (fuzzy symbol); answers symbol, decimals and contract, or did-you-mean choices.',
      inputSchema: z.object({ network: name, query: name }),
      annotations: { readOnlyHint: true },
    },
    ({ network, query }) =>
      guarded(agent, 'find_token', async () => {
        const networks = await agent.ctx.catalog.networks();
        const m = resolveNetwork(network, networks);
        if (!m.ok)
          return result(
            problemView({
              id: m.id,
              reason: m.reason,
              ...(m.hint ? { hint: m.hint } : {}),
              choices: m.choices.map((n) => n.name),
              field: 'source_network',
            }),
            true,
          );
        const t = resolveToken(query, m.network.tokens, networkLabel(m.network));
        if (!t.ok)
          return result(
            problemView({
              id: t.id,
              reason: t.reason,
              ...(t.hint ? { hint: t.hint } : {}),
              choices: t.choices.map((x) => x.symbol),
              field: 'source_token',
            }),
            true,
          );
        return result({
          network: m.network.name,
          symbol: t.token.symbol,
          decimals: t.token.decimals ?? null,
          contract: t.token.contract ?? null,
        });
      }),
  );

  server.registerTool(
    'routes',
    {
      description:
        "Where a token can go from a network (destinations and the tokens received there); with to_network and to_token also the route's limits.",
      inputSchema: z.object({ from_network: name, from_token: name, to_network: name.optional(), to_token: name.optional() }),
      annotations: { readOnlyHint: true },
    },
    (a) =>
      guarded(agent, 'routes', async () => {
        const networks = await agent.ctx.catalog.networks();
        let route: Route = {};
        for (const [field, raw] of [
          ['source_network', a.from_network],
          ['source_token', a.from_token],
          ['destination_network', a.to_network],
          ['destination_token', a.to_token],
        ] as const) {
          if (raw === undefined) continue;
          const u = setRouteField(route, field, raw, networks);
          if (u.problem) return result(problemView(u.problem), true);
          route = u.route;
        }
        const check = await checkRoute(agent.ctx, route, networks, true);
        if (check.problem) return result(problemView(check.problem), true);
        const destinations = (check.destination ? [check.destination] : (check.destinations ?? [])).map((d) => ({
          network: d.name,
          tokens: activeTokens(d).map((t) => t.symbol),
        }));
        const limits = await routeLimits(agent.ctx, check.route, networks);
        return result({
          from: { network: check.route.sourceNetwork, token: check.route.sourceToken },
          destinations,
          ...(limits ? { limits: { min: limits.min ?? null, max: limits.max ?? null, symbol: limits.symbol } } : {}),
        });
      }),
  );

  server.registerTool(
    'quote',
    {
      description:
        "Quote a swap: what arrives, every deduction (amounts as decimals and base units), limits, and the route's observed arrival times when enough swaps went that way.",
      inputSchema: z.object(routeShape),
      annotations: { readOnlyHint: true },
    },
    (a) =>
      guarded(agent, 'quote', async () => {
        const r = await routeOf(agent, a, true);
        if ('problem' in r) return result(problemView(r.problem), true);
        const limits = await routeLimits(agent.ctx, r.route, r.networks, a.refuel);
        const outside = limits ? amountProblem(Number(r.route.amount), limits) : undefined;
        if (outside) return result({ ...problemView(outside), limits: { min: limits?.min ?? null, max: limits?.max ?? null } }, true);
        const q = await agent.ctx.api.getQuote(quoteParams(r.route, a.refuel));
        const m = quoteMoney(q, Number(r.route.amount), {
          sourceToken: r.route.sourceToken ?? '',
          destinationToken: r.route.destinationToken ?? '',
        });
        const observed = await observedTimes(agent.ctx, r.route);
        const avg = q.quote.avg_completion_time;
        return result({
          route: {
            from_network: r.route.sourceNetwork,
            from_token: r.route.sourceToken,
            to_network: r.route.destinationNetwork,
            to_token: r.route.destinationToken,
            amount: r.route.amount,
          },
          money: moneyView(m),
          ...(avg ? { service_estimate: avg } : {}),
          ...(observed ? { route_times: routeTimesView(observed) } : {}),
          ...(limits ? { limits: { min: limits.min ?? null, max: limits.max ?? null, symbol: limits.symbol } } : {}),
          next_step: 'create_swap with a destination_address and a refund_address (or no_refund_address: true)',
        });
      }),
  );
}

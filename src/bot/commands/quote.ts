import type { Ctx } from '../context.js';
import { routeFromArgs } from '../flow/quote-step.js';
import { quoteReply } from '../flow/quote-step.js';
import { startFromLine, startWithRoute } from '../flow/start.js';
import { setRouteField, type Route, type RouteField } from '../flow/route.js';
import type { Reply } from '../../contracts/reply.js';
import { EXPIRED } from '../replies.js';
import { modeOf } from '../flow/ui.js';

/** /quote <amount> <token> <from> <to> [<to-token>], in words, or step by step. */
export const quote = (ctx: Ctx, args: string): Promise<Reply[]> => startFromLine(ctx, 'quote', args);

/** Re-checks a route that came back in a button (it may be forged): every name through the catalogue. */
async function routeFromButton(ctx: Ctx, args: string[]): Promise<Route | undefined> {
  const raw = routeFromArgs(args);
  if (!raw) return undefined;
  const networks = await ctx.catalog.networks();
  let route: Route = {};
  const order: Array<[RouteField, string | undefined]> = [
    ['source_network', raw.sourceNetwork], ['source_token', raw.sourceToken], ['destination_network', raw.destinationNetwork],
    ['destination_token', raw.destinationToken], ['amount', raw.amount],
  ];
  for (const [field, value] of order) {
    const u = setRouteField(route, field, value ?? '', networks);
    if (u.problem) return undefined;
    route = u.route;
  }
  // Exchanges are checked against the route by the wizard (checkRoute) before anything is created.
  if (raw.sourceExchange) route.sourceExchange = raw.sourceExchange;
  if (raw.destinationExchange) route.destinationExchange = raw.destinationExchange;
  return route;
}

/** Refresh on a quote card: the same route quoted again, replacing the card. */
export async function refreshQuote(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const route = await routeFromButton(ctx, args);
  if (!route) return [EXPIRED];
  const networks = await ctx.catalog.networks();
  return [{ ...(await quoteReply(ctx, route, networks)), mode: modeOf(ctx) }];
}

/** Swap this on a quote card: a swap draft with the card's route, asking for the addresses next. */
export async function swapThis(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const route = await routeFromButton(ctx, args);
  if (!route) return [EXPIRED];
  return (await startWithRoute(ctx, 'swap', route)).map((r) => ({ ...r, mode: 'new' as const }));
}

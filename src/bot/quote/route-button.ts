import type { Network } from '../../layerswap/schemas.js';
import type { Ctx } from '../kernel/context.js';
import { setRouteField } from './route.js';
import type { Route, RouteField } from '../kernel/route.js';

/**
 * A complete route as button arguments (Swap this, Refresh on a quote card): names only, so the
 * card needs no saved state. Buttons come back untrusted: every name is checked again on use.
 */
export const routeArgs = (r: Route): string[] => {
  const args = [r.amount ?? '', r.sourceNetwork ?? '', r.sourceToken ?? '', r.destinationNetwork ?? '', r.destinationToken ?? ''];
  return r.sourceExchange || r.destinationExchange ? [...args, r.sourceExchange ?? '', r.destinationExchange ?? ''] : args;
};

function routeFromArgs(args: string[]): Route | undefined {
  if ((args.length !== 5 && args.length !== 7) || args.slice(0, 5).some((a) => a === '') || args.some((a) => a.length > 100))
    return undefined;
  const [amount, sourceNetwork, sourceToken, destinationNetwork, destinationToken, sourceExchange, destinationExchange] = args as [
    string,
    string,
    string,
    string,
    string,
    string?,
    string?,
  ];
  const route: Route = { amount, sourceNetwork, sourceToken, destinationNetwork, destinationToken };
  if (sourceExchange) route.sourceExchange = sourceExchange;
  if (destinationExchange) route.destinationExchange = destinationExchange;
  return route;
}

/**
 * The route a button carries, every name re-checked through the catalogue (`networks`: the list the
 * caller already holds); undefined when forged or stale.
 */
export async function routeFromButton(ctx: Ctx, args: string[], networks?: readonly Network[]): Promise<Route | undefined> {
  const raw = routeFromArgs(args);
  if (!raw) return undefined;
  const names = networks ?? (await ctx.catalog.networks());
  let route: Route = {};
  const order: Array<[RouteField, string | undefined]> = [
    ['source_network', raw.sourceNetwork],
    ['source_token', raw.sourceToken],
    ['destination_network', raw.destinationNetwork],
    ['destination_token', raw.destinationToken],
    ['amount', raw.amount],
  ];
  for (const [field, value] of order) {
    const u = setRouteField(route, field, value ?? '', names);
    if (u.problem) return undefined;
    route = u.route;
  }
  // Exchanges are checked against the route (checkRoute) before anything is quoted or created.
  if (raw.sourceExchange) route.sourceExchange = raw.sourceExchange;
  if (raw.destinationExchange) route.destinationExchange = raw.destinationExchange;
  return route;
}

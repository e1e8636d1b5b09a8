import type { Network, QuoteParams } from '../../layerswap/schemas.js';
import type { Ctx } from '../context.js';
import type { Draft } from '../drafts.js';
import { quoteCard, type RouteLabels } from '../cards/quote.js';
import type { Reply } from '../../contracts/reply.js';
import type { Route } from './route.js';
import { exchangeName, labelOf } from './summary.js';

/** The quote request for a complete route. The bot only swaps by deposit address, so quotes say so. */
export function quoteParams(route: Route, refuel?: boolean): QuoteParams {
  const params: QuoteParams = {
    source_network: route.sourceNetwork ?? '',
    source_token: route.sourceToken ?? '',
    destination_network: route.destinationNetwork ?? '',
    destination_token: route.destinationToken ?? '',
    amount: Number(route.amount),
    use_deposit_address: true,
  };
  if (refuel) params.refuel = true;
  return params;
}

/**
 * The exchanges of a route as create-swap fields. Quotes and limits are asked for the networks
 * the exchanges use (as the official app does); only the swap itself names the exchanges.
 */
export function exchangeParams(route: Route): { source_exchange?: string; destination_exchange?: string } {
  return {
    ...(route.sourceExchange ? { source_exchange: route.sourceExchange } : {}),
    ...(route.destinationExchange ? { destination_exchange: route.destinationExchange } : {}),
  };
}

/** A complete route as button arguments (Swap this, Refresh): names only, checked again on use. */
export const routeArgs = (r: Route): string[] => {
  const args = [r.amount ?? '', r.sourceNetwork ?? '', r.sourceToken ?? '', r.destinationNetwork ?? '', r.destinationToken ?? ''];
  return r.sourceExchange || r.destinationExchange ? [...args, r.sourceExchange ?? '', r.destinationExchange ?? ''] : args;
};

export function routeFromArgs(args: string[]): Route | undefined {
  if ((args.length !== 5 && args.length !== 7) || args.slice(0, 5).some((a) => a === '') || args.some((a) => a.length > 100)) return undefined;
  const [amount, sourceNetwork, sourceToken, destinationNetwork, destinationToken, sourceExchange, destinationExchange] = args as [string, string, string, string, string, string?, string?];
  const route: Route = { amount, sourceNetwork, sourceToken, destinationNetwork, destinationToken };
  if (sourceExchange) route.sourceExchange = sourceExchange;
  if (destinationExchange) route.destinationExchange = destinationExchange;
  return route;
}

export function routeLabels(route: Route, networks: readonly Network[]): RouteLabels {
  const via = (exchange: string | undefined, network: string | undefined): string =>
    (exchange ? `${exchangeName(undefined, exchange)} via ${labelOf(networks, network)}` : labelOf(networks, network));
  return {
    sourceNetwork: via(route.sourceExchange, route.sourceNetwork),
    sourceToken: route.sourceToken ?? '?',
    destinationNetwork: via(route.destinationExchange, route.destinationNetwork),
    destinationToken: route.destinationToken ?? '?',
  };
}

/** Fetches the quote for a complete route and builds its card with Swap this and Refresh. */
export async function quoteReply(ctx: Ctx, route: Route, networks: readonly Network[]): Promise<Reply> {
  const q = await ctx.api.getQuote(quoteParams(route));
  const args = routeArgs(route);
  const [swap, refresh] = await Promise.all([ctx.codec.encode({ verb: 'qs', args }), ctx.codec.encode({ verb: 'qr', args })]);
  return quoteCard(q, routeLabels(route, networks), Number(route.amount), { swap, refresh });
}

/** The last step of a /quote: the card; the draft (if one was saved) is done. */
export async function finishQuote(ctx: Ctx, draft: Draft, networks: readonly Network[]): Promise<Reply[]> {
  const card = await quoteReply(ctx, draft.route, networks);
  const current = await ctx.drafts.get(draft.platform, draft.userId);
  if (current?.id === draft.id) await ctx.drafts.delete(draft.platform, draft.userId);
  return [{ ...card, mode: ctx.incoming.action && ctx.incoming.messageRef ? 'edit' : 'new' }];
}

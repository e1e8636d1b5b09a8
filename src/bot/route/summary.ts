import type { Exchange, Network } from '../../layerswap/schemas.js';
import type { RouteLabels } from '../cards/quote.js';
import { exchangeLabel } from '../parse/exchange.js';
import { networkLabel } from '../parse/network.js';
import type { Route, RouteExchanges } from './route.js';

/** An exchange's display name from the catalogue, or its API name when the list is not at hand. */
export const exchangeName = (list: readonly Exchange[] | undefined, name: string): string => {
  const e = list?.find((x) => x.name === name);
  return e ? exchangeLabel(e) : name.charAt(0) + name.slice(1).toLowerCase();
};

export const labelOf = (networks: readonly Network[], name: string | undefined): string => {
  if (!name) return '?';
  const n = networks.find((x) => x.name === name);
  return n ? networkLabel(n) : name;
};

/** "100 USDC on Arbitrum One → USDC on Base", naming only what is known so far. */
export function routeSummary(route: Route, networks: readonly Network[], exchanges?: Partial<RouteExchanges>): string {
  const srcToken = route.sourceToken ?? route.pendingSourceToken;
  const dstToken = route.destinationToken ?? route.pendingDestinationToken;
  const send = [route.amount, srcToken].filter(Boolean).join(' ');
  // An exchange side reads "from Coinbase via Base": the exchange, then the network it uses.
  const srcEx = route.sourceExchange ? exchangeName(exchanges?.source, route.sourceExchange) : undefined;
  const srcWhere = route.sourceNetwork ? labelOf(networks, route.sourceNetwork) : undefined;
  const srcPlace = srcEx ? (srcWhere ? `${srcEx} via ${srcWhere}` : srcEx) : srcWhere;
  const from = srcPlace ? (send ? `${send} ${srcEx ? 'from' : 'on'} ${srcPlace}` : `From ${srcPlace}`) : send;
  const dstEx = route.destinationExchange ? exchangeName(exchanges?.destination, route.destinationExchange) : undefined;
  const dstWhere = route.destinationNetwork ? labelOf(networks, route.destinationNetwork) : undefined;
  const dstPlace = dstEx ? (dstWhere ? `${dstEx} via ${dstWhere}` : dstEx) : dstWhere;
  const to = dstPlace ? (dstToken ? `${dstToken} ${dstEx ? 'to' : 'on'} ${dstPlace}` : dstPlace) : '';
  return to ? `${from || '?'} → ${to}` : from;
}

/** The route's names for a card ("Coinbase via Base" for an exchange side). */
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

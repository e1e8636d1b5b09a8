import type { Exchange, Network } from '../../layerswap/schemas.js';
import type { RouteLabels } from './card.js';
import { t, type CatalogKey, type Locale, type Vars } from '../../i18n/index.js';
import { exchangeLabel, networkLabel } from '../catalog/index.js';
import type { RouteExchanges } from './route.js';
import type { Route } from '../kernel/route.js';

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

/**
 * "100 USDC on Arbitrum One → USDC on Base", naming only what is known so far, in the reader's
 * language (amounts, tokens, networks and exchanges stay as they are).
 */
export function routeSummary(route: Route, networks: readonly Network[], locale: Locale, exchanges?: Partial<RouteExchanges>): string {
  const tr = (key: CatalogKey, vars: Vars): string => t(locale, key, vars);
  // A token not yet found on a network is shown as a symbol is written ("100 USDC from Coinbase", not "usdc").
  const srcToken = route.sourceToken ?? route.pendingSourceToken?.toUpperCase();
  const dstToken = route.destinationToken ?? route.pendingDestinationToken?.toUpperCase();
  const send = [route.amount, srcToken].filter(Boolean).join(' ');
  // An exchange side reads "from Coinbase via Base": the exchange, then the network it uses.
  const srcEx = route.sourceExchange ? exchangeName(exchanges?.source, route.sourceExchange) : undefined;
  const srcWhere = route.sourceNetwork ? labelOf(networks, route.sourceNetwork) : undefined;
  const srcPlace = srcEx ? (srcWhere ? tr('route.via', { exchange: srcEx, network: srcWhere }) : srcEx) : srcWhere;
  const from = srcPlace
    ? send
      ? tr(srcEx ? 'route.fromExchange' : 'route.onNetwork', { what: send, where: srcPlace })
      : tr('route.fromOnly', { where: srcPlace })
    : send;
  const dstEx = route.destinationExchange ? exchangeName(exchanges?.destination, route.destinationExchange) : undefined;
  const dstWhere = route.destinationNetwork ? labelOf(networks, route.destinationNetwork) : undefined;
  const dstPlace = dstEx ? (dstWhere ? tr('route.via', { exchange: dstEx, network: dstWhere }) : dstEx) : dstWhere;
  const to = dstPlace
    ? dstToken
      ? tr(dstEx ? 'route.toExchange' : 'route.onNetwork', { what: dstToken, where: dstPlace })
      : dstPlace
    : '';
  return to ? `${from || '?'} → ${to}` : from;
}

/** The route's names for a card ("Coinbase via Base" for an exchange side). */
export function routeLabels(route: Route, networks: readonly Network[], locale: Locale): RouteLabels {
  const via = (exchange: string | undefined, network: string | undefined): string =>
    exchange
      ? t(locale, 'route.via', { exchange: exchangeName(undefined, exchange), network: labelOf(networks, network) })
      : labelOf(networks, network);
  return {
    sourceNetwork: via(route.sourceExchange, route.sourceNetwork),
    sourceToken: route.sourceToken ?? '?',
    destinationNetwork: via(route.destinationExchange, route.destinationNetwork),
    destinationToken: route.destinationToken ?? '?',
  };
}

import { NETWORKS, PAYOUT_GAS_USD } from './catalog.js';
import { EXCHANGES } from './catalog-exchanges.js';
import { Fields } from './fields.js';
import { validation } from './http-error.js';
import { clip, resolveNetwork, resolveToken } from './lookup.js';
import type { CatalogExchange, CatalogNetwork, CatalogToken } from './model.js';
import { roundTo } from './numbers.js';
import { findRoute, priceOf } from './routes.js';
import { exchangeListView, exchangeView, networkRefView, tokenView, type Json } from './views.js';

/**
 * Exchanges the way the official app reads them:
 * - GET /source_exchanges[?source_network=&source_token=]: exchanges that withdraw that token on
 *   that network (current app), as {name, display_name, logo, metadata};
 * - GET /exchange_withdrawal_networks?source_exchange=&destination_network=&destination_token=:
 *   where the exchange withdraws to reach that destination, as [{network, token, fee}];
 * - GET /destination_exchanges[?source_network=&source_token=] and
 *   GET /exchange_deposit_networks?destination_exchange=&source_network=&source_token= (2024 app):
 *   the same for exchanges as a destination, seen from the route's source.
 * GET /exchanges and the token-group-only forms (SDK, 2024) are kept for older callers.
 * The include_* flags the app sends are accepted; the sandbox's exchange lists do not depend on them.
 */

interface Endpoint {
  network: CatalogNetwork;
  token: CatalogToken;
}

/** What one exchange moves: per token group and network, the token it sends or takes there. */
function exchangeTokens(e: CatalogExchange, group?: string): Endpoint[] {
  return e.token_groups
    .filter((g) => group === undefined || g.symbol.toUpperCase() === group.toUpperCase())
    .flatMap((g) =>
      g.networks.flatMap((name) => {
        const network = NETWORKS.find((n) => n.name === name);
        const token =
          network?.tokens.find((t) => t.group === g.symbol && t.symbol === g.symbol) ?? network?.tokens.find((t) => t.group === g.symbol);
        return network && token ? [{ network, token }] : [];
      }),
    );
}

/** Whether the exchange sends (or takes) this token on this network. */
export const exchangeMoves = (e: CatalogExchange, network: CatalogNetwork, token: CatalogToken): boolean =>
  exchangeTokens(e).some((x) => x.network === network && x.token === token);

/** A known exchange by its API name (any case), or a VALIDATION_ERROR that lists the known ones. */
export function resolveExchange(param: string, raw: string): CatalogExchange {
  const exchange = EXCHANGES.find((e) => e.name === raw.toUpperCase());
  if (!exchange) throw validation(`${param}: unknown exchange '${clip(raw, 30)}'. Known: ${EXCHANGES.map((e) => e.name).join(', ')}.`);
  return exchange;
}

/** GET /api/v2/exchanges: the exchanges and the token groups they move (SPEC ExchangeWithTokenGroups). */
export function listExchanges(): Json[] {
  return EXCHANGES.map(exchangeListView);
}

/** GET /api/v2/source_exchanges: all, or those withdrawing source_token on source_network. */
export function listSourceExchanges(q: URLSearchParams): Json[] {
  const source = optionalEndpoint(q, 'source');
  return EXCHANGES.filter((e) => !source || exchangeMoves(e, source.network, source.token)).map(exchangeView);
}

/** GET /api/v2/destination_exchanges: all, or those a route from source_token on source_network reaches. */
export function listDestinationExchanges(q: URLSearchParams): Json[] {
  const source = optionalEndpoint(q, 'source');
  const swaps = Fields.fromQuery(q).bool('include_swaps') ?? false;
  return EXCHANGES.filter((e) => !source || exchangeTokens(e).some((to) => served(source, to, swaps))).map(exchangeView);
}

/**
 * GET /api/v2/exchange_withdrawal_networks and GET /api/v2/exchange_deposit_networks: the
 * networks an exchange withdraws on (or takes deposits on), each as {network, token, fee} (the
 * app's ExchangeNetwork). Given the route's other end, only those with an active route to (or
 * from) it; otherwise a token group is required and all its networks are listed. The fee is an
 * estimate in that token; the quote stays the authority.
 */
export function exchangeNetworks(q: URLSearchParams, side: 'withdrawal' | 'deposit'): Json[] {
  const f = Fields.fromQuery(q);
  const prefix = side === 'withdrawal' ? 'source' : 'destination';
  const exchange = resolveExchange(`${prefix}_exchange`, f.string(`${prefix}_exchange`, true));
  const other = optionalEndpoint(q, side === 'withdrawal' ? 'destination' : 'source');
  const group = other ? f.string(`${prefix}_token_group`) : f.string(`${prefix}_token_group`, true);
  return exchangeTokens(exchange, group)
    .filter((x) => !other || (side === 'withdrawal' ? served(x, other, true) : served(other, x, true)))
    .map(({ network, token }) => {
      const fee = roundTo(PAYOUT_GAS_USD[network.type] / priceOf(token), token.precision);
      return {
        network: networkRefView(network),
        token: tokenView(token),
        fee: { total_fee: fee, total_fee_in_usd: roundTo(fee * priceOf(token), 6) },
      };
    });
}

/** An active route from one end to the other (cross-asset ones only when asked for). */
function served(from: Endpoint, to: Endpoint, swaps: boolean): boolean {
  const route = findRoute(from, to);
  return !!route && route.status === 'active' && (swaps || !route.crossAsset);
}

/** {near}_network with {near}_token: both or neither, so a filter is never half applied. */
function optionalEndpoint(q: URLSearchParams, near: 'source' | 'destination'): Endpoint | undefined {
  const f = Fields.fromQuery(q);
  const networkId = f.string(`${near}_network`);
  const tokenId = f.string(`${near}_token`);
  if (networkId === undefined && tokenId === undefined) return undefined;
  if (networkId === undefined || tokenId === undefined)
    throw validation(`${near}_network and ${near}_token go together: send both or neither.`);
  const network = resolveNetwork(`${near}_network`, networkId);
  return { network, token: resolveToken(`${near}_token`, network, tokenId) };
}

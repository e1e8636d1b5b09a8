import { KNOWN_NETWORK_TYPES, NETWORKS } from './catalog.js';
import { Fields } from './fields.js';
import { SandboxHttpError, validation } from './http-error.js';
import { clip, findToken, resolveNetwork, resolveToken } from './lookup.js';
import type { CatalogNetwork, CatalogToken, Route } from './model.js';
import { findRoute, limitsOf, refuelOffer, ROUTES } from './routes.js';
import { networkView, routeNetworkView, routeTokenView, type Json } from './views.js';

/** GET /api/v2/networks: every network, or those of the given network_types. */
export function listNetworks(q: URLSearchParams): Json[] {
  const types = Fields.networkTypes(q, KNOWN_NETWORK_TYPES);
  return NETWORKS.filter((n) => !types || types.includes(n.type))
    .sort((a, b) => a.source_rank - b.source_rank)
    .map(networkView);
}

/**
 * GET /api/v2/destinations (where a source can go) and GET /api/v2/sources (what can reach a
 * destination): one listing seen from either end.
 * - include_unavailable adds routes listed but not served now (token status 'inactive');
 * - include_swaps adds cross-asset routes (SOL to ETH), which need a swap;
 * - include_unmatched adds, when the other end is given, tokens without a route to it ('not_found').
 * /sources also takes has_deposit_address (only networks offering deposit addresses).
 */
export function listDestinations(q: URLSearchParams): Json[] {
  return listRoutes(q, 'destinations');
}

export function listSources(q: URLSearchParams): Json[] {
  return listRoutes(q, 'sources');
}

function listRoutes(q: URLSearchParams, direction: 'sources' | 'destinations'): Json[] {
  const f = Fields.fromQuery(q);
  const near = direction === 'destinations' ? 'source' : 'destination';
  const endNetwork = f.string(`${near}_network`);
  const endToken = f.string(`${near}_token`);
  const includeSwaps = f.bool('include_swaps') ?? false;
  const includeUnavailable = f.bool('include_unavailable') ?? false;
  const includeUnmatched = f.bool('include_unmatched') ?? false;
  const hasDepositAddress = direction === 'sources' ? (f.bool('has_deposit_address') ?? false) : false;
  const types = Fields.networkTypes(q, KNOWN_NETWORK_TYPES);

  const ends = endpointsOf(near, endNetwork, endToken);
  const given = (r: Route) => (direction === 'destinations' ? r.from : r.to);
  const listed = (r: Route) => (direction === 'destinations' ? r.to : r.from);
  const routes = ROUTES.filter(
    (r) =>
      (!ends || ends.some((s) => s.network === given(r).network && s.token === given(r).token)) &&
      (includeUnavailable || r.status === 'active') &&
      (includeSwaps || !r.crossAsset),
  );

  const byNetwork = new Map<CatalogNetwork, Map<CatalogToken, Route | undefined>>();
  for (const r of routes) {
    const side = listed(r);
    const tokens = byNetwork.get(side.network) ?? new Map<CatalogToken, Route | undefined>();
    const seen = tokens.get(side.token);
    if (!seen || (seen.status !== 'active' && r.status === 'active')) tokens.set(side.token, r);
    byNetwork.set(side.network, tokens);
  }
  if (includeUnmatched && ends) {
    const endNetworks = new Set(ends.map((s) => s.network));
    for (const n of NETWORKS) {
      if (endNetworks.has(n)) continue; // same-network transfers are not routes
      const tokens = byNetwork.get(n) ?? new Map<CatalogToken, Route | undefined>();
      for (const t of n.tokens) if (!tokens.has(t)) tokens.set(t, undefined);
      byNetwork.set(n, tokens);
    }
  }

  const rank = (x: { source_rank: number; destination_rank: number }) =>
    direction === 'destinations' ? x.destination_rank : x.source_rank;
  return [...byNetwork.entries()]
    .filter(([n]) => (!types || types.includes(n.type)) && (!hasDepositAddress || n.deposit_methods.includes('deposit_address')))
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([n, tokens]) =>
      routeNetworkView(
        n,
        [...tokens.entries()]
          .sort(([a], [b]) => rank(a) - rank(b))
          .map(([t, route]) => routeTokenView(route, n, t, direction === 'destinations')),
      ),
    );
}

/** GET /api/v2/limits: min and max of a route in source-token units, and in USD. */
export function routeLimits(q: URLSearchParams): Json {
  const f = Fields.fromQuery(q);
  const srcNetwork = resolveNetwork('source_network', f.string('source_network', true));
  const srcToken = resolveToken('source_token', srcNetwork, f.string('source_token', true));
  const dstNetwork = resolveNetwork('destination_network', f.string('destination_network', true));
  const dstToken = resolveToken('destination_token', dstNetwork, f.string('destination_token', true));
  const refuel = (f.bool('refuel') ?? false) && refuelOffer(dstNetwork, dstToken) !== null;
  f.bool('use_deposit_address');
  f.bool('use_gasless');
  const pair = `${srcToken.symbol} on ${srcNetwork.name} to ${dstToken.symbol} on ${dstNetwork.name}`;
  const route = findRoute({ network: srcNetwork, token: srcToken }, { network: dstNetwork, token: dstToken });
  if (!route) throw new SandboxHttpError('ROUTE_NOT_FOUND_ERROR', `No route from ${pair}.`);
  if (route.status !== 'active')
    throw new SandboxHttpError('ROUTE_NOT_FOUND_ERROR', `The route from ${pair} is not available at the moment.`);
  const l = limitsOf(route, refuel);
  return { min_amount: l.min, min_amount_in_usd: l.minUsd, max_amount: l.max, max_amount_in_usd: l.maxUsd };
}

/** The tokens one end of a route query is about, or undefined for "any". */
function endpointsOf(
  near: 'source' | 'destination',
  networkId: string | undefined,
  tokenId: string | undefined,
): { network: CatalogNetwork; token: CatalogToken }[] | undefined {
  if (networkId !== undefined) {
    const network = resolveNetwork(`${near}_network`, networkId);
    if (tokenId !== undefined) return [{ network, token: resolveToken(`${near}_token`, network, tokenId) }];
    return network.tokens.map((token) => ({ network, token }));
  }
  if (tokenId === undefined) return undefined;
  // A token without a network: that symbol (or contract) wherever it exists.
  const matches = NETWORKS.flatMap((network) => {
    const token = findToken(network, tokenId);
    return token ? [{ network, token }] : [];
  });
  if (matches.length === 0) throw validation(`${near}_token: '${clip(tokenId)}' is not a token on any network.`);
  return matches;
}

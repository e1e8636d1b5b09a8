import { KNOWN_NETWORK_TYPES, NETWORKS } from './catalog.js';
import { Fields } from './fields.js';
import { validation } from './http-error.js';
import { clip, findToken, resolveNetwork, resolveToken } from './lookup.js';
import type { CatalogNetwork, CatalogToken, Route } from './model.js';
import { ROUTES } from './routes.js';
import { networkRefView, networkView, routeTokenView, type Json } from './views.js';

/** GET /api/v2/networks: every network, or those of the given network_types. */
export function listNetworks(q: URLSearchParams): Json[] {
  const types = Fields.networkTypes(q, KNOWN_NETWORK_TYPES);
  return NETWORKS.filter((n) => !types || types.includes(n.type))
    .sort((a, b) => a.source_rank - b.source_rank)
    .map(networkView);
}

/**
 * GET /api/v2/destinations: where a source (network, token, both or neither) can go.
 * - include_unavailable adds routes listed but not served now (token status 'inactive');
 * - include_swaps adds cross-asset routes (SOL to ETH), which need a swap;
 * - include_unmatched adds, when a source is given, tokens it has no route to (status 'not_found').
 */
export function listDestinations(q: URLSearchParams): Json[] {
  const f = Fields.fromQuery(q);
  const sourceNetwork = f.string('source_network');
  const sourceToken = f.string('source_token');
  const includeSwaps = f.bool('include_swaps') ?? false;
  const includeUnavailable = f.bool('include_unavailable') ?? false;
  const includeUnmatched = f.bool('include_unmatched') ?? false;
  const types = Fields.networkTypes(q, KNOWN_NETWORK_TYPES);

  const sources = sourcesOf(sourceNetwork, sourceToken);
  const routes = ROUTES.filter(
    (r) =>
      (!sources || sources.some((s) => s.network === r.from.network && s.token === r.from.token)) &&
      (includeUnavailable || r.status === 'active') &&
      (includeSwaps || !r.crossAsset),
  );

  const byNetwork = new Map<CatalogNetwork, Map<CatalogToken, Route | undefined>>();
  for (const r of routes) {
    const tokens = byNetwork.get(r.to.network) ?? new Map<CatalogToken, Route | undefined>();
    const seen = tokens.get(r.to.token);
    if (!seen || (seen.status !== 'active' && r.status === 'active')) tokens.set(r.to.token, r);
    byNetwork.set(r.to.network, tokens);
  }
  if (includeUnmatched && sources) {
    const sourceNetworks = new Set(sources.map((s) => s.network));
    for (const n of NETWORKS) {
      if (sourceNetworks.has(n)) continue; // same-network transfers are not routes
      const tokens = byNetwork.get(n) ?? new Map<CatalogToken, Route | undefined>();
      for (const t of n.tokens) if (!tokens.has(t)) tokens.set(t, undefined);
      byNetwork.set(n, tokens);
    }
  }

  return [...byNetwork.entries()]
    .filter(([n]) => !types || types.includes(n.type))
    .sort(([a], [b]) => a.destination_rank - b.destination_rank)
    .map(([n, tokens]) => ({
      ...networkRefView(n),
      tokens: [...tokens.entries()]
        .sort(([a], [b]) => a.destination_rank - b.destination_rank)
        .map(([t, route]) => routeTokenView(route, n, t)),
    }));
}

/** The source tokens a destinations query is about, or undefined for "any". */
function sourcesOf(networkId: string | undefined, tokenId: string | undefined): { network: CatalogNetwork; token: CatalogToken }[] | undefined {
  if (networkId !== undefined) {
    const network = resolveNetwork('source_network', networkId);
    if (tokenId !== undefined) return [{ network, token: resolveToken('source_token', network, tokenId) }];
    return network.tokens.map((token) => ({ network, token }));
  }
  if (tokenId === undefined) return undefined;
  // A token without a network: that symbol (or contract) wherever it exists.
  const matches = NETWORKS.flatMap((network) => {
    const token = findToken(network, tokenId);
    return token ? [{ network, token }] : [];
  });
  if (matches.length === 0) throw validation(`source_token: '${clip(tokenId)}' is not a token on any network.`);
  return matches;
}

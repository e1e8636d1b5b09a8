import { exchangeLogo, networkLogo, tokenLogo } from './catalog.js';
import type { CatalogExchange, CatalogNetwork, CatalogToken, Route } from './model.js';
import { priceOf, refuelOffer } from './routes.js';

/**
 * The JSON the service returns for networks and tokens. It is not one shape: each endpoint has its
 * own, and the sandbox copies them key for key from the real data (test/fixtures/layerswap):
 * - /networks (live): nodes, ranks, token, metadata, tokens; no deposit_methods key;
 * - quotes (live): the same network without tokens;
 * - /sources and /destinations (prod-pasted): deposit_methods, no nodes; route tokens carry status
 *   (and refuel only when offered) but no group;
 * - swaps, transactions and deposit actions (SPEC): no nodes, no ranks, slim tokens.
 * Metadata keys without a value are left out, never null.
 */

export type Json = Record<string, unknown>;

/** A token as /networks and quotes show it. supports_gasless_deposit only where it is true. */
export function tokenView(t: CatalogToken): Json {
  return {
    symbol: t.symbol,
    display_asset: t.display_asset,
    logo: tokenLogo(t.symbol),
    contract: t.contract,
    decimals: t.decimals,
    price_in_usd: priceOf(t),
    precision: t.precision,
    listing_date: t.listing_date,
    source_rank: t.source_rank,
    destination_rank: t.destination_rank,
    group: t.group,
    ...(t.supports_gasless_deposit ? { supports_gasless_deposit: true } : {}),
  };
}

/** A token inside a swap, a transaction or a deposit action. */
export function slimTokenView(t: CatalogToken): Json {
  return {
    symbol: t.symbol,
    logo: tokenLogo(t.symbol),
    contract: t.contract,
    decimals: t.decimals,
    price_in_usd: priceOf(t),
    precision: t.precision,
    listing_date: t.listing_date,
  };
}

function metadataView(n: CatalogNetwork): Json {
  const out: Json = { listing_date: n.listing_date };
  if (n.evm_oracle_contract) out.evm_oracle_contract = n.evm_oracle_contract;
  if (n.evm_multicall_contract) out.evm_multicall_contract = n.evm_multicall_contract;
  return out;
}

function networkHead(n: CatalogNetwork): Json {
  return { name: n.name, display_name: n.display_name, logo: networkLogo(n.name), chain_id: n.chain_id, node_url: n.node_url };
}

const templates = (n: CatalogNetwork): Json => ({
  transaction_explorer_template: n.transaction_explorer_template,
  account_explorer_template: n.account_explorer_template,
});

/** A network in a quote (and in refuel/reward blocks): as /networks, without the token list. */
export function networkRefView(n: CatalogNetwork): Json {
  return {
    ...networkHead(n),
    nodes: [n.node_url],
    type: n.type,
    ...templates(n),
    source_rank: n.source_rank,
    destination_rank: n.destination_rank,
    token: tokenView(n.native),
    metadata: metadataView(n),
  };
}

/** GET /networks item. */
export function networkView(n: CatalogNetwork): Json {
  return { ...networkRefView(n), tokens: n.tokens.map(tokenView) };
}

/** A network inside a swap, a transaction or a deposit action. */
export function swapNetworkView(n: CatalogNetwork): Json {
  return {
    ...networkHead(n),
    type: n.type,
    ...templates(n),
    token: slimTokenView(n.native),
    metadata: metadataView(n),
    deposit_methods: [...n.deposit_methods],
  };
}

/** A /sources or /destinations item (its route tokens are added by the caller). */
export function routeNetworkView(n: CatalogNetwork, tokens: Json[]): Json {
  return {
    tokens,
    ...networkHead(n),
    type: n.type,
    ...templates(n),
    source_rank: n.source_rank,
    destination_rank: n.destination_rank,
    token: tokenView(n.native),
    metadata: metadataView(n),
    deposit_methods: [...n.deposit_methods],
  };
}

function refuelView(network: CatalogNetwork, token: CatalogToken): Json | null {
  const offer = refuelOffer(network, token);
  if (!offer) return null;
  return { token: tokenView(offer.token), network: networkRefView(network), amount: offer.amount, amount_in_usd: offer.amountInUsd };
}

/** A route token in /sources or /destinations: status first, no group, refuel only when offered. */
export function routeTokenView(route: Route | undefined, network: CatalogNetwork, token: CatalogToken, refuelSide: boolean): Json {
  const { group: _group, ...rest } = tokenView(token);
  const refuel = refuelSide ? refuelView(network, token) : null;
  return { status: route ? route.status : 'not_found', ...rest, ...(refuel ? { refuel } : {}) };
}

/** An exchange as GET /exchanges lists it (ExchangeWithTokenGroups in the SPEC). */
export function exchangeListView(e: CatalogExchange): Json {
  return {
    ...exchangeView(e),
    token_groups: e.token_groups.map((g) => ({ symbol: g.symbol, logo: tokenLogo(g.symbol) })),
  };
}

/** An exchange inside a swap (source_exchange / destination_exchange). */
export function exchangeView(e: CatalogExchange): Json {
  return {
    name: e.name,
    display_name: e.display_name,
    logo: exchangeLogo(e.name),
    metadata: { listing_date: '2023-01-10T12:00:00+00:00', oauth: null },
  };
}

import { networkLogo, tokenLogo } from './catalog.js';
import type { CatalogNetwork, CatalogToken, Route } from './model.js';
import { priceOf, refuelOffer } from './routes.js';

/**
 * The JSON the service returns for networks and tokens. Networks nested in quotes, swaps and
 * transactions carry everything but the token list, as in real captures.
 */

export type Json = Record<string, unknown>;

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
    group: t.group,
    source_rank: t.source_rank,
    destination_rank: t.destination_rank,
    supports_gasless_deposit: t.supports_gasless_deposit,
  };
}

/** A network without its token list: what quotes, swaps, transactions and deposit actions nest. */
export function networkRefView(n: CatalogNetwork): Json {
  return {
    name: n.name,
    display_name: n.display_name,
    logo: networkLogo(n.name),
    chain_id: n.chain_id,
    type: n.type,
    node_url: n.node_url,
    nodes: [n.node_url],
    transaction_explorer_template: n.transaction_explorer_template,
    account_explorer_template: n.account_explorer_template,
    metadata: {
      listing_date: n.listing_date,
      evm_oracle_contract: n.evm_oracle_contract,
      evm_multicall_contract: n.evm_multicall_contract,
      zks_paymaster_contract: null,
      watchdog_contract: null,
    },
    deposit_methods: [...n.deposit_methods],
    source_rank: n.source_rank,
    destination_rank: n.destination_rank,
    token: tokenView(n.native),
  };
}

export function networkView(n: CatalogNetwork): Json {
  return { ...networkRefView(n), tokens: n.tokens.map(tokenView) };
}

export function refuelView(network: CatalogNetwork, token: CatalogToken): Json | null {
  const offer = refuelOffer(network, token);
  if (!offer) return null;
  return { token: tokenView(offer.token), network: networkRefView(network), amount: offer.amount, amount_in_usd: offer.amountInUsd };
}

/** A destination token in /destinations: the token plus its route status and refuel offer. */
export function routeTokenView(route: Route | undefined, network: CatalogNetwork, token: CatalogToken): Json {
  return { ...tokenView(token), status: route ? route.status : 'not_found', refuel: refuelView(network, token) };
}

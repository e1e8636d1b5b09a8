import { NETWORKS, PAYOUT_SECONDS, PRICES_USD } from './catalog.js';
import type { CatalogNetwork, CatalogToken, Route } from './model.js';
import { ceilTo, floorTo, roundTo } from './numbers.js';

/**
 * Which token goes where, and for how much. Same-asset routes connect every pair of networks that
 * hold a token of one group (USDC, USDT, ETH, BTC); a couple of cross-asset routes (SOL to ETH)
 * need a swap. One destination is listed but inactive, as the real service shows them.
 */

/** Limits in USD, converted to source-token units per route (the real example: 10 to 500000). */
const MIN_AMOUNT_USD = 5;
const MAX_AMOUNT_USD = 500_000;
/** Service fee: a small rate of the amount (live: 0.002382 on 10 USDC, about 0.024 %). */
export const SERVICE_FEE_RATE = 0.000238;
/** What a refuel delivers, in USD of the destination's native token. */
const REFUEL_USD = 1;
/** Default slippage the quote reports (a fraction, as in real responses). */
export const DEFAULT_SLIPPAGE = 0.0025;

/** Destinations the service lists but does not serve right now. */
const INACTIVE_DESTINATIONS = new Set(['ARBITRUM_MAINNET/USDC.e']);
/** Cross-asset routes: [network, token] to [network, token]. */
const CROSS_ASSET: readonly [string, string, string, string][] = [
  ['SOLANA_MAINNET', 'SOL', 'ARBITRUM_MAINNET', 'ETH'],
  ['SOLANA_MAINNET', 'SOL', 'BASE_MAINNET', 'ETH'],
  // TON's own coin is on TON only: a swap from it is a cross-asset one.
  ['TON_MAINNET', 'TON', 'BASE_MAINNET', 'ETH'],
];

const key = (n: CatalogNetwork, t: CatalogToken) => `${n.name}/${t.symbol}`;

function buildRoutes(): Route[] {
  const entries = NETWORKS.flatMap((network) => network.tokens.map((token) => ({ network, token })));
  const routes: Route[] = [];
  for (const from of entries) {
    for (const to of entries) {
      if (from.network === to.network || from.token.group !== to.token.group) continue;
      routes.push({ from, to, crossAsset: false, status: INACTIVE_DESTINATIONS.has(key(to.network, to.token)) ? 'inactive' : 'active' });
    }
  }
  for (const [sn, st, dn, dt] of CROSS_ASSET) {
    const from = entries.find((e) => e.network.name === sn && e.token.symbol === st);
    const to = entries.find((e) => e.network.name === dn && e.token.symbol === dt);
    if (!from || !to) throw new Error(`routes: unknown cross-asset route ${sn}/${st} -> ${dn}/${dt}`);
    routes.push({ from, to, crossAsset: true, status: 'active' });
  }
  return routes;
}

export const ROUTES: readonly Route[] = buildRoutes();

export function findRoute(
  from: { network: CatalogNetwork; token: CatalogToken },
  to: { network: CatalogNetwork; token: CatalogToken },
): Route | undefined {
  return ROUTES.find(
    (r) => r.from.network === from.network && r.from.token === from.token && r.to.network === to.network && r.to.token === to.token,
  );
}

export function priceOf(token: CatalogToken): number {
  const p = PRICES_USD[token.symbol];
  if (p === undefined) throw new Error(`catalog: no price for ${token.symbol}`);
  return p;
}

/** What a refuel adds on this destination, or null when none is offered (native tokens, non-EVM). */
export function refuelOffer(
  network: CatalogNetwork,
  token: CatalogToken,
): { token: CatalogToken; amount: number; amountInUsd: number } | null {
  if (network.type !== 'evm' || token === network.native) return null;
  return {
    token: network.native,
    amount: roundTo(REFUEL_USD / priceOf(network.native), network.native.precision),
    amountInUsd: REFUEL_USD,
  };
}

export interface Limits {
  min: number;
  max: number;
  minUsd: number;
  maxUsd: number;
}

/** Min and max in source-token units; a refuel raises the minimum by its cost in the source token. */
export function limitsOf(route: Route, refuel: boolean): Limits {
  const token = route.from.token;
  const price = priceOf(token);
  const refuelUsd = refuel && refuelOffer(route.to.network, route.to.token) ? REFUEL_USD : 0;
  const min = ceilTo((MIN_AMOUNT_USD + refuelUsd) / price, token.precision);
  const max = floorTo(MAX_AMOUNT_USD / price, token.precision);
  return { min, max, minUsd: roundTo(min * price, 2), maxUsd: roundTo(max * price, 2) };
}

/** Typical completion time of a route in seconds: the deposit network's wait plus the payout. */
export function completionSeconds(route: Route): number {
  return route.from.network.deposit_seconds + PAYOUT_SECONDS[route.to.network.type] + (route.crossAsset ? 20 : 0);
}

/** One example campaign: swaps into Starknet earn a small reward. */
export function rewardFor(route: Route): { token: CatalogToken; network: CatalogNetwork; amount: number; amountInUsd: number } | null {
  if (route.to.network.name !== 'STARKNET_MAINNET') return null;
  const token = route.to.network.native;
  return { token, network: route.to.network, amount: roundTo(0.5 / priceOf(token), token.precision), amountInUsd: 0.5 };
}

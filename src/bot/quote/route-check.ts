import type { Destination, Network } from '../../layerswap/schemas.js';
import type { Ctx } from '../kernel/context.js';
import { activeTokens, exchangeLabel, networkLabel, tokenList } from '../catalog/index.js';
import { msg, type Problem } from '../kernel/problem.js';
import { applyRouteWords, type RouteExchanges, type RouteUpdate } from './route.js';
import { splitRouteWords } from './line.js';
import type { Route } from '../kernel/route.js';
import { payFamily } from '../../contracts/pay-families.js';

/** The exchanges a route may name, both sides (cached; empty when the service lists none). */
export async function loadExchanges(ctx: Ctx): Promise<RouteExchanges> {
  const [source, destination] = await Promise.all([ctx.catalog.exchanges('source'), ctx.catalog.exchanges('destination')]);
  return { source, destination };
}

/**
 * A route from one typed line (/quote, /swap): every part that checks out is kept, the first wrong
 * one is the problem. A line that cannot be read at all is a problem without a route.
 */
export async function routeFromLine(
  ctx: Ctx,
  args: string,
  networks: readonly Network[],
): Promise<RouteUpdate | { route?: undefined; problem: Problem }> {
  const words = splitRouteWords(args);
  if (!words.ok) return { problem: words };
  return applyRouteWords({}, words.value, networks, await loadExchanges(ctx));
}

/**
 * Whether the route's exchanges work with the network and token chosen on their side (the
 * exchange withdraws that token on that network, or takes deposits of it there). A mismatch
 * clears that side's network so the wizard asks it again.
 */
async function checkExchanges(ctx: Ctx, r: Route, networks: readonly Network[]): Promise<Problem | undefined> {
  for (const side of ['source', 'destination'] as const) {
    const name = side === 'source' ? r.sourceExchange : r.destinationExchange;
    const network = side === 'source' ? r.sourceNetwork : r.destinationNetwork;
    const token = side === 'source' ? r.sourceToken : r.destinationToken;
    if (!name || !network || !token) continue;
    const all = await ctx.catalog.exchanges(side);
    const exchange = all.find((e) => e.name === name);
    const label = exchange ? exchangeLabel(exchange) : name;
    const where = networkLabel(networks.find((n) => n.name === network) ?? { name: network, display_name: '' });
    if (side === 'source') {
      const fits = await ctx.catalog.exchanges(side, { network, token });
      if (fits.some((e) => e.name === name)) continue;
      delete r.sourceNetwork;
      r.pendingSourceToken = token;
      delete r.sourceToken;
      return {
        id: 'exchange.no_withdrawal',
        field: 'source_network',
        reason: msg('problem.exchange.noWithdrawal', { exchange: label, token, network: where }),
        hint: msg('problem.exchange.noWithdrawalHint', { exchange: label }),
      };
    }
    // Deposits are checked against the networks the exchange takes them on from this source: a
    // payout on a network the exchange does not credit could be lost, so "unknown" is not "yes".
    const accepted =
      r.sourceNetwork && r.sourceToken
        ? await ctx.catalog.exchangeNetworks(side, name, { network: r.sourceNetwork, token: r.sourceToken })
        : undefined;
    if (accepted?.some((x) => x.network.name === network && x.token.symbol === token)) continue;
    delete r.destinationNetwork;
    r.pendingDestinationToken = token;
    delete r.destinationToken;
    if (!accepted) {
      return {
        id: 'exchange.deposit_unknown',
        field: 'destination_network',
        reason: msg('problem.exchange.depositUnknown', { exchange: label, token }),
        hint: msg('problem.exchange.depositUnknownHint', { exchange: label }),
      };
    }
    return {
      id: 'exchange.no_deposit',
      field: 'destination_network',
      reason: msg('problem.exchange.noDeposit', { exchange: label, token, network: where }),
      hint: msg('problem.exchange.noDepositHint', { exchange: label }),
    };
  }
  return undefined;
}

/**
 * The networks an exchange on one side of the route works with, from the service: where it
 * withdraws the token to reach the destination (source side, once the destination is known) or
 * where it takes deposits from the source (destination side). Undefined when that cannot be
 * known now; the wizard then offers its wider list and the route check catches a mismatch.
 */
export async function exchangeNetworkChoices(ctx: Ctx, r: Route, side: 'source' | 'destination'): Promise<string[] | undefined> {
  if (side === 'source') {
    const token = r.pendingSourceToken ?? r.sourceToken;
    const destinationToken = r.destinationToken ?? r.pendingDestinationToken ?? token;
    if (!r.sourceExchange || !r.destinationNetwork || !destinationToken) return undefined;
    const list = await ctx.catalog.exchangeNetworks('source', r.sourceExchange, { network: r.destinationNetwork, token: destinationToken });
    return list?.filter((x) => !token || x.token.symbol.toLowerCase() === token.toLowerCase()).map((x) => x.network.name);
  }
  if (!r.destinationExchange || !r.sourceNetwork || !r.sourceToken) return undefined;
  const list = await ctx.catalog.exchangeNetworks('destination', r.destinationExchange, { network: r.sourceNetwork, token: r.sourceToken });
  const token = r.pendingDestinationToken ?? r.destinationToken;
  return list?.filter((x) => !token || x.token.symbol.toLowerCase() === token.toLowerCase()).map((x) => x.network.name);
}

/**
 * The pay page is set up and the confirm step makes a swap from this network a wallet transfer
 * ("Pay from my wallet", or the only way from a wallet-only source): Solana, TON
 * (contracts/pay-families.ts; EVM's is the one-tap Pay from wallet, payNowOffered).
 */
export function paysFromWallet(ctx: Pick<Ctx, 'payLinks'>, n: Pick<Network, 'type'>): boolean {
  return !!ctx.payLinks && payFamily(n.type)?.atConfirm === 'walletChoice';
}

/** Whether a network takes deposits to a generated address (else only a wallet transfer: TON, Starknet). */
export function takesDepositAddress(n: Pick<Network, 'deposit_methods'>): boolean {
  const methods = n.deposit_methods;
  if (!methods || methods.length === 0) return true;
  return methods.some((m) => m.toLowerCase().replace(/_/g, '') === 'depositaddress');
}

export interface RouteCheck {
  route: Route;
  problem?: Problem;
  /** The destination entry of the route, once the destination network is valid. */
  destination?: Destination;
  /** The route's destinations from the source (for choices). */
  destinations?: Destination[];
}

/**
 * Checks a route against the service's route list (cached): the source takes deposit addresses
 * (for swaps), the destination is reachable from the source token, the destination token is
 * active there. Fields that fail are cleared for the wizard to ask again; the rest is kept. The
 * destination token defaults to the same symbol when offered.
 */
export async function checkRoute(ctx: Ctx, route: Route, networks: readonly Network[], forSwap: boolean): Promise<RouteCheck> {
  const r: Route = { ...route };
  const source = networks.find((n) => n.name === r.sourceNetwork);
  // A wallet-only source is swapped only when the pay page can pay it (TON; Starknet is not built).
  if (source && forSwap && !takesDepositAddress(source) && !paysFromWallet(ctx, source)) {
    delete r.sourceNetwork;
    if (r.sourceToken) r.pendingSourceToken = r.sourceToken;
    delete r.sourceToken;
    return {
      route: r,
      problem: {
        id: 'route.wallet_only',
        field: 'source_network',
        reason: msg('problem.route.walletOnly', { network: networkLabel(source) }),
        hint: msg('problem.route.walletOnlyHint'),
      },
    };
  }
  if (!r.sourceNetwork || !r.sourceToken) return { route: r };
  const exchangeProblem = await checkExchanges(ctx, r, networks);
  if (exchangeProblem) return { route: r, problem: exchangeProblem };

  const destinations = await ctx.catalog.destinations({ source_network: r.sourceNetwork, source_token: r.sourceToken });
  let reachable = destinations.filter((d) => activeTokens(d).length > 0);
  if (!r.destinationNetwork) return { route: r, destinations: reachable };
  let destination = reachable.find((d) => d.name === r.destinationNetwork);
  if (!destination) {
    // The cached list holds same-asset routes; routes that need a swap (SOL to ETH) are listed
    // only on request, so look once more before saying there is no route.
    const withSwaps = await ctx.api.getDestinations({ source_network: r.sourceNetwork, source_token: r.sourceToken, include_swaps: true });
    destination = withSwaps.find((d) => d.name === r.destinationNetwork && activeTokens(d).length > 0);
    reachable = withSwaps.filter((d) => activeTokens(d).length > 0);
  }
  if (!destination) {
    const wanted = networks.find((n) => n.name === r.destinationNetwork);
    delete r.destinationNetwork;
    if (r.destinationToken) r.pendingDestinationToken = r.destinationToken;
    delete r.destinationToken;
    return {
      route: r,
      destinations: reachable,
      problem: {
        id: 'route.not_found',
        field: 'destination_network',
        reason: wanted
          ? msg('problem.route.notFound', {
              token: r.sourceToken,
              from: source ? networkLabel(source) : r.sourceNetwork,
              to: networkLabel(wanted),
            })
          : msg('problem.route.notFoundThere', { token: r.sourceToken, from: source ? networkLabel(source) : r.sourceNetwork }),
        hint: msg(reachable.length > 0 ? 'problem.route.pickReachable' : 'problem.route.nothingReachable'),
        choices: reachable.map((d) => d.name),
      },
    };
  }
  const active = activeTokens(destination);
  if (r.destinationToken && !active.some((t) => t.symbol === r.destinationToken)) {
    const asked = r.destinationToken;
    delete r.destinationToken;
    return {
      route: r,
      destination,
      destinations: reachable,
      problem: {
        id: 'route.token_not_received',
        field: 'destination_token',
        reason: msg('problem.route.tokenNotReceived', { asked, network: networkLabel(destination), token: r.sourceToken }),
        hint: msg('problem.route.youCanReceive', { list: tokenList(active) }),
        choices: active.map((t) => t.symbol),
      },
    };
  }
  if (!r.destinationToken && !r.pendingDestinationToken) {
    // Same token by default; a different one (a swap between assets) is always asked.
    const same = active.find((t) => t.symbol === r.sourceToken);
    if (same) r.destinationToken = same.symbol;
  }
  const lateProblem = await checkExchanges(ctx, r, networks);
  if (lateProblem) return { route: r, destinations: reachable, problem: lateProblem };
  return { route: r, destination, destinations: reachable };
}

/** Whether the route's destination token offers refuel (a little native gas on arrival). */
export const offersRefuel = (
  destination: Destination | undefined,
  route: Pick<Route, 'destinationToken' | 'destinationExchange'>,
): boolean =>
  // Never into an exchange: gas delivered to an exchange deposit address is not the user's to spend.
  !route.destinationExchange && !!destination?.tokens.find((t) => t.symbol === route.destinationToken)?.refuel;

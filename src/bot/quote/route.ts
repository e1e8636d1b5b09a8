import type { Exchange, Network } from '../../layerswap/schemas.js';
import { parseAmount } from './amount.js';
import { normalizeName } from '../kernel/edit-distance.js';
import {
  exchangeLabel,
  findExchange,
  networkKeys,
  networkLabel,
  resolveNetwork,
  resolveToken,
  suggestExchanges,
} from '../catalog/index.js';
import { msg, problemOf, type Problem } from '../kernel/problem.js';
import type { RouteWords } from './line.js';
import type { Route, RouteField } from '../kernel/route.js';

/** The exchanges a route may name on each side (from the catalogue; empty when none are offered). */
export interface RouteExchanges {
  source: readonly Exchange[];
  destination: readonly Exchange[];
}
const NO_EXCHANGES: RouteExchanges = { source: [], destination: [] };

export interface RouteUpdate {
  route: Route;
  problem?: Problem;
}

const byName = (networks: readonly Network[], name: string | undefined): Network | undefined =>
  name ? networks.find((n) => n.name === name) : undefined;

const problem = (field: RouteField, r: Pick<Problem, 'id' | 'reason' | 'hint'>, choices?: string[]): Problem =>
  problemOf(r.id, r.reason, { hint: r.hint, choices, field });

/** Re-checks the fields that depend on others (pending tokens, amount decimals) after a change. */
function settle(route: Route, networks: readonly Network[]): RouteUpdate {
  const r: Route = { ...route };
  let first: Problem | undefined;
  for (const side of ['source', 'destination'] as const) {
    const pendingKey = side === 'source' ? 'pendingSourceToken' : 'pendingDestinationToken';
    const pending = r[pendingKey];
    const network = byName(networks, side === 'source' ? r.sourceNetwork : r.destinationNetwork);
    if (pending === undefined || !network) continue;
    delete r[pendingKey];
    const m = resolveToken(pending, network.tokens, networkLabel(network));
    if (m.ok) {
      if (side === 'source') r.sourceToken = m.token.symbol;
      else r.destinationToken = m.token.symbol;
    } else {
      first ??= problem(
        side === 'source' ? 'source_token' : 'destination_token',
        m,
        m.choices.map((t) => t.symbol),
      );
    }
  }
  const source = byName(networks, r.sourceNetwork);
  const found = source?.tokens.find((t) => t.symbol === r.sourceToken);
  // Without decimals the amount's precision cannot be checked here; the service still checks it.
  const token = found?.decimals != null ? { symbol: found.symbol, decimals: found.decimals } : undefined;
  if (r.amount !== undefined && token) {
    const a = parseAmount(r.amount, typeof token.decimals === 'number' ? { symbol: token.symbol, decimals: token.decimals } : undefined);
    if (!a.ok) {
      delete r.amount;
      first ??= problem('amount', a);
    }
  }
  return first ? { route: r, problem: first } : { route: r };
}

/** Sets one field from what the user typed or picked; keeps everything else. Pure; never throws. */
export function setRouteField(
  route: Route,
  field: RouteField,
  raw: string,
  networks: readonly Network[],
  exchanges: RouteExchanges = NO_EXCHANGES,
): RouteUpdate {
  const r: Route = { ...route };
  switch (field) {
    case 'amount': {
      const a = parseAmount(raw);
      if (!a.ok) return { route: r, problem: problem('amount', a) };
      r.amount = a.value.text;
      break;
    }
    case 'source_network':
    case 'destination_network': {
      const side = field === 'source_network' ? 'source' : 'destination';
      const exchange = findExchange(raw, exchanges[side]);
      // An exchange's own name wins over a network alias ("binance" is also BSC's nickname).
      if (exchange && !networks.some((n) => networkKeys(n).includes(normalizeName(raw.trim())))) {
        setExchange(r, side, exchange.name);
        break;
      }
      const m = resolveNetwork(raw, networks);
      if (!m.ok) {
        const near = m.choices.length === 0 ? suggestExchanges(raw, exchanges[side]) : [];
        if (near.length > 0)
          return {
            route: r,
            problem: problemOf('exchange.near', m.reason, {
              hint: msg('problem.didYouMean', { names: { or: near.map(exchangeLabel) } }),
              choices: near.map((e) => e.name),
              field,
            }),
          };
        return {
          route: r,
          problem: problem(
            field,
            m,
            m.choices.map((n) => n.name),
          ),
        };
      }
      if (field === 'source_network') {
        if (r.sourceNetwork !== m.network.name && r.sourceToken) {
          r.pendingSourceToken = r.sourceToken;
          delete r.sourceToken;
        }
        r.sourceNetwork = m.network.name;
      } else {
        if (r.destinationNetwork !== m.network.name && r.destinationToken) {
          r.pendingDestinationToken = r.destinationToken;
          delete r.destinationToken;
        }
        r.destinationNetwork = m.network.name;
      }
      break;
    }
    case 'source_token':
    case 'destination_token': {
      const key = field === 'source_token' ? 'pendingSourceToken' : 'pendingDestinationToken';
      const tokenKey = field === 'source_token' ? 'sourceToken' : 'destinationToken';
      delete r[tokenKey];
      r[key] = raw.trim();
      break;
    }
  }
  return settle(r, networks);
}

/** Puts an exchange on one side; that side's network is asked again (the one the exchange uses). */
function setExchange(r: Route, side: 'source' | 'destination', name: string): void {
  if (side === 'source') {
    r.sourceExchange = name;
    delete r.sourceNetwork;
    if (r.sourceToken) r.pendingSourceToken = r.sourceToken;
    delete r.sourceToken;
  } else {
    r.destinationExchange = name;
    delete r.destinationNetwork;
    if (r.destinationToken) r.pendingDestinationToken = r.destinationToken;
    delete r.destinationToken;
  }
}

const sameAddress = (a: string, b: string): boolean => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b);

/**
 * Fills a route from one typed line (split by splitRouteWords): every slot that checks out is
 * kept, and the first problem is returned for the wizard to ask again.
 */
export function applyRouteWords(
  base: Route,
  words: RouteWords,
  networks: readonly Network[],
  exchanges: RouteExchanges = NO_EXCHANGES,
): RouteUpdate {
  let route: Route = { ...base };
  let first: Problem | undefined;
  const apply = (field: RouteField, value: string | undefined) => {
    if (value === undefined) return;
    const u = setRouteField(route, field, value, networks, exchanges);
    route = u.route;
    if (u.problem) first ??= u.problem;
  };
  apply('source_network', words.from);
  apply('source_token', words.token);
  if (words.to && words.to.length > 0) {
    const whole = words.to.join(' ');
    const m = resolveNetwork(whole, networks);
    if (m.ok || findExchange(whole, exchanges.destination) || words.to.length === 1 || words.toToken !== undefined) {
      apply('destination_network', whole);
      apply('destination_token', words.toToken);
    } else {
      apply('destination_network', words.to.slice(0, -1).join(' '));
      apply('destination_token', words.to[words.to.length - 1]);
    }
  } else {
    apply('destination_token', words.toToken);
  }
  apply('amount', words.amount);
  if (words.address !== undefined) {
    // A token contract of the destination is the token to receive, not where to send it.
    const dest = networks.find((n) => n.name === route.destinationNetwork);
    const isToken =
      !route.destinationToken &&
      !route.pendingDestinationToken &&
      dest?.tokens.some((t) => t.contract && sameAddress(t.contract, words.address ?? ''));
    if (isToken) apply('destination_token', words.address);
    else route.pendingDestinationAddress = words.address;
  }
  return first ? { route, problem: first } : { route };
}

/** The next field the wizard must ask, in the order people think of a swap. */
export function missingField(route: Route): RouteField | undefined {
  if (!route.sourceNetwork) return 'source_network';
  if (!route.sourceToken) return 'source_token';
  if (!route.destinationNetwork) return 'destination_network';
  if (!route.destinationToken) return 'destination_token';
  if (!route.amount) return 'amount';
  return undefined;
}

/** Enough to quote: the token to receive defaults to the same one (checkRoute). */
export const isQuotable = (r: Route): boolean => Boolean(r.amount && r.sourceNetwork && r.sourceToken && r.destinationNetwork);

export const isComplete = (
  route: Route,
): route is Required<Pick<Route, 'amount' | 'sourceNetwork' | 'sourceToken' | 'destinationNetwork' | 'destinationToken'>> & Route =>
  missingField(route) === undefined;

/** The route with a field cleared (and what depends on it), so the wizard asks it again. */
export function clearField(route: Route, field: RouteField): Route {
  const r: Route = { ...route };
  if (field === 'amount') delete r.amount;
  if (field === 'destination_network' || field === 'destination_token') {
    if (field === 'destination_network') delete r.destinationNetwork;
    delete r.destinationToken;
  }
  if (field === 'source_network' || field === 'source_token') {
    if (field === 'source_network') delete r.sourceNetwork;
    delete r.sourceToken;
  }
  return r;
}

export const isRouteField = (s: string | undefined): s is RouteField =>
  s === 'source_network' || s === 'source_token' || s === 'destination_network' || s === 'destination_token' || s === 'amount';

/**
 * A stable key of what a quote depends on (the checked route and refuel): a quote fetched for one
 * key is still the quote of that key, and a changed route or refuel answer must be quoted again.
 */
export const routeKey = (r: Route, refuel?: boolean): string =>
  [
    r.amount,
    r.sourceNetwork,
    r.sourceToken,
    r.destinationNetwork,
    r.destinationToken,
    r.sourceExchange ?? '',
    r.destinationExchange ?? '',
    refuel ? 'refuel' : '',
  ].join('|');

import type { Network } from '../../layerswap/schemas.js';
import { parseAmount } from '../parse/amount.js';
import { networkLabel, resolveNetwork } from '../parse/network.js';
import type { RouteWords } from '../parse/quote-words.js';
import { resolveToken } from '../parse/token.js';

/** A route as far as it is known: what a draft and the quote buttons carry. Names, not objects. */
export interface Route {
  /** Canonical decimal text ("100", "0.5"). */
  amount?: string;
  sourceNetwork?: string;
  sourceToken?: string;
  destinationNetwork?: string;
  destinationToken?: string;
  /** A token typed before its network was known; checked once the network is set. */
  pendingSourceToken?: string;
  pendingDestinationToken?: string;
}

export type RouteField = 'source_network' | 'source_token' | 'destination_network' | 'destination_token' | 'amount';

/** What is wrong with one field, for the wizard to ask it again (with choices when it has some). */
export interface FieldProblem {
  field: RouteField;
  reason: string;
  hint?: string;
  /** Network names or token symbols to offer as buttons. */
  choices?: string[];
}

export interface RouteUpdate {
  route: Route;
  problem?: FieldProblem;
}

const byName = (networks: readonly Network[], name: string | undefined): Network | undefined => (name ? networks.find((n) => n.name === name) : undefined);

const problem = (field: RouteField, r: { reason: string; hint?: string }, choices?: string[]): FieldProblem => {
  const p: FieldProblem = { field, reason: r.reason };
  if (r.hint !== undefined) p.hint = r.hint;
  if (choices && choices.length > 0) p.choices = choices;
  return p;
};

/** Re-checks the fields that depend on others (pending tokens, amount decimals) after a change. */
function settle(route: Route, networks: readonly Network[]): RouteUpdate {
  const r: Route = { ...route };
  let first: FieldProblem | undefined;
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
      first ??= problem(side === 'source' ? 'source_token' : 'destination_token', m, m.choices.map((t) => t.symbol));
    }
  }
  const source = byName(networks, r.sourceNetwork);
  const token = source?.tokens.find((t) => t.symbol === r.sourceToken);
  if (r.amount !== undefined && token) {
    const a = parseAmount(r.amount, token);
    if (!a.ok) {
      delete r.amount;
      first ??= problem('amount', a);
    }
  }
  return first ? { route: r, problem: first } : { route: r };
}

/** Sets one field from what the user typed or picked; keeps everything else. Pure; never throws. */
export function setRouteField(route: Route, field: RouteField, raw: string, networks: readonly Network[]): RouteUpdate {
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
      const m = resolveNetwork(raw, networks);
      if (!m.ok) return { route: r, problem: problem(field, m, m.choices.map((n) => n.name)) };
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

/**
 * Fills a route from one typed line (split by splitRouteWords): every slot that checks out is
 * kept, and the first problem is returned for the wizard to ask again.
 */
export function applyRouteWords(base: Route, words: RouteWords, networks: readonly Network[]): RouteUpdate {
  let route: Route = { ...base };
  let first: FieldProblem | undefined;
  const apply = (field: RouteField, value: string | undefined) => {
    if (value === undefined) return;
    const u = setRouteField(route, field, value, networks);
    route = u.route;
    if (u.problem) first ??= u.problem;
  };
  apply('source_network', words.from);
  apply('source_token', words.token);
  if (words.to && words.to.length > 0) {
    const whole = words.to.join(' ');
    const m = resolveNetwork(whole, networks);
    if (m.ok || words.to.length === 1 || words.toToken !== undefined) {
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

export const isComplete = (route: Route): route is Required<Pick<Route, 'amount' | 'sourceNetwork' | 'sourceToken' | 'destinationNetwork' | 'destinationToken'>> & Route =>
  missingField(route) === undefined;

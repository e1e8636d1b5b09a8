import { resolveLocale, t, type Locale } from '../../i18n/index.js';
import type { Exchange, Network } from '../../layerswap/schemas.js';
import type { Catalog } from '../kernel/context.js';
import type { SuggestField, Suggestion } from '../core.js';
import { NETWORK_ALIASES, networkStem } from './aliases.js';
import { editDistance, normalizeName } from '../kernel/edit-distance.js';
import { exchangeLabel } from './parse-exchange.js';
import { networkKeys, networkLabel, resolveNetwork } from './parse-network.js';

const MAX = 25;
const cap = (s: string): string => (s.length > 100 ? `${s.slice(0, 99)}…` : s);

/** Rank of a partial against a candidate's keys: 0 exact, 1 prefix, 2 substring, 3 fuzzy, undefined no match. */
function rank(partial: string, keys: string[]): number | undefined {
  if (partial === '') return 1;
  let best: number | undefined;
  for (const k of keys) {
    const r =
      k === partial
        ? 0
        : k.startsWith(partial)
          ? 1
          : k.includes(partial)
            ? 2
            : partial.length >= 4 && editDistance(partial, k.slice(0, partial.length + 1), 2) <= 2
              ? 3
              : undefined;
    if (r !== undefined && (best === undefined || r < best)) best = r;
  }
  return best;
}

function sortRanked<T>(items: Array<{ item: T; rank: number; order: number }>): T[] {
  return items
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, MAX)
    .map((x) => x.item);
}

function networkSuggestions(
  locale: Locale,
  partial: string,
  networks: readonly Network[],
  exchanges: readonly Exchange[] = [],
): Suggestion[] {
  const ranked = networks.flatMap((n, i) => {
    const aliases = Object.entries(NETWORK_ALIASES)
      .filter(([, stem]) => stem === networkStem(n.name))
      .map(([a]) => a);
    const r = rank(partial, [...networkKeys(n), ...aliases]);
    return r === undefined
      ? []
      : [{ item: { label: cap(`${networkLabel(n)} (${n.name})`), value: cap(n.name) }, rank: r, order: n.source_rank ?? 100 + i }];
  });
  return sortRanked([...ranked, ...exchangeSuggestions(locale, partial, exchanges)]);
}

/** Exchanges after the networks of the same rank, marked so nobody mistakes one for a chain. */
function exchangeSuggestions(
  locale: Locale,
  partial: string,
  exchanges: readonly Exchange[],
): Array<{ item: Suggestion; rank: number; order: number }> {
  return exchanges.flatMap((e, i) => {
    const r = rank(partial, [normalizeName(e.name), ...(e.display_name ? [normalizeName(e.display_name)] : [])]);
    return r === undefined
      ? []
      : [
          {
            item: { label: cap(t(locale, 'suggest.exchange', { name: exchangeLabel(e) })), value: cap(e.name) },
            rank: r,
            order: 10_000 + i,
          },
        ];
  });
}

function tokenSuggestions(locale: Locale, partial: string, networks: readonly Network[], network: string | undefined): Suggestion[] {
  const scoped = network ? resolveNetwork(network, networks) : undefined;
  const source = scoped?.ok ? [scoped.network] : networks;
  const seen = new Map<string, { item: Suggestion; rank: number; order: number }>();
  for (const n of source) {
    n.tokens.forEach((token, i) => {
      const r = rank(partial, [token.symbol.toLowerCase(), ...(token.contract ? [token.contract.toLowerCase()] : [])]);
      if (r === undefined) return;
      const prev = seen.get(token.symbol);
      const label = !scoped?.ok
        ? token.symbol
        : token.contract
          ? `${token.symbol} (${token.contract.slice(0, 6)}…${token.contract.slice(-4)})`
          : t(locale, 'suggest.native', { symbol: token.symbol });
      if (!prev || r < prev.rank)
        seen.set(token.symbol, {
          item: { label: cap(label), value: cap(token.symbol) },
          rank: r,
          order: (token.source_rank ?? 50) * 100 + i,
        });
    });
  }
  return sortRanked([...seen.values()]);
}

/**
 * Autocomplete from the cached catalogue only: never an API request per keystroke. Before the
 * first load it warms the cache in the background and answers with nothing.
 */
export function suggest(
  catalog: Catalog,
  field: SuggestField,
  partialRaw: string,
  context?: { network?: string; sourceNetwork?: string; locale?: string },
): Suggestion[] {
  const networks = catalog.peekNetworks();
  if (!networks) {
    catalog.networks().catch(() => undefined);
    return [];
  }
  const locale = resolveLocale(context?.locale);
  const partial = normalizeName(partialRaw.slice(0, 100));
  if (field === 'token')
    return tokenSuggestions(locale, partialRaw.trim().toLowerCase().slice(0, 100), networks, context?.network ?? context?.sourceNetwork);
  // Where a swap can start or end, an exchange is an answer too (the same cached lists the wizard uses).
  const side = field === 'source_network' ? 'source' : field === 'destination_network' ? 'destination' : undefined;
  if (!side) return networkSuggestions(locale, partial, networks);
  const exchanges = catalog.peekExchanges(side);
  if (!exchanges) catalog.exchanges(side).catch(() => undefined);
  return networkSuggestions(locale, partial, networks, exchanges);
}

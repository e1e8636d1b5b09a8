import type { Exchange } from '../../layerswap/schemas.js';
import { editDistance, normalizeName, typoAllowance } from '../kernel/edit-distance.js';

/** The part of an exchange that lookups read. */
export type ExchangeLike = Pick<Exchange, 'name' | 'display_name'>;

export const exchangeLabel = (e: ExchangeLike): string => e.display_name || e.name;

/** Every spelling that names this exchange exactly (normalised): COINBASE, "Coinbase". */
function exchangeKeys(e: ExchangeLike): string[] {
  return [normalizeName(e.name), ...(e.display_name ? [normalizeName(e.display_name)] : [])].filter((k) => k !== '');
}

/** The exchange this word names exactly (case, spaces and underscores aside), if any. */
export function findExchange<E extends ExchangeLike>(raw: string, exchanges: readonly E[]): E | undefined {
  const key = normalizeName(raw.trim());
  return key === '' ? undefined : exchanges.find((e) => exchangeKeys(e).includes(key));
}

/** Exchanges within typo distance of a word, closest first (at most 3), for "did you mean". */
export function suggestExchanges<E extends ExchangeLike>(raw: string, exchanges: readonly E[]): E[] {
  const key = normalizeName(raw.trim());
  const allowance = typoAllowance(key.length);
  if (allowance === 0) return [];
  return exchanges
    .map((e) => ({ e, d: Math.min(...exchangeKeys(e).map((k) => editDistance(key, k, allowance))) }))
    .filter((x) => x.d <= allowance)
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((x) => x.e);
}

import type { Network } from '../../layerswap/schemas.js';
import { msg, type Msg } from '../kernel/problem.js';
import { NETWORK_ALIASES, networkStem } from './aliases.js';
import { editDistance, normalizeName, typoAllowance } from '../kernel/edit-distance.js';

/** The part of a network that lookups read (catalogue networks, route destinations). */
export type NetworkLike = Pick<Network, 'name' | 'display_name' | 'chain_id' | 'type'> & { tokens?: Network['tokens'] };

export type NetworkMatch<N extends NetworkLike> =
  { ok: true; network: N } | { ok: false; id: string; reason: Msg; hint?: Msg; choices: N[] };

export const networkLabel = (n: Pick<NetworkLike, 'name' | 'display_name'>): string => n.display_name || n.name;
const isMainnet = (n: NetworkLike): boolean => /_MAINNET$/i.test(n.name);

/** Every spelling that names this network exactly (normalised). */
export function networkKeys(n: NetworkLike): string[] {
  const keys = [normalizeName(n.name), normalizeName(networkStem(n.name))];
  if (n.display_name) keys.push(normalizeName(n.display_name));
  if (n.chain_id) keys.push(n.chain_id.toLowerCase());
  return keys.filter((k) => k !== '');
}

function aliasMatches<N extends NetworkLike>(key: string, networks: readonly N[]): N[] {
  const stem = NETWORK_ALIASES[key];
  if (!stem) return [];
  return networks.filter((n) => networkStem(n.name) === stem);
}

/** Mainnet first when one spelling names several (ETHEREUM_MAINNET over ETHEREUM_SEPOLIA). */
function pick<N extends NetworkLike>(found: N[]): N[] {
  const main = found.filter(isMainnet);
  return main.length === 1 ? main : found;
}

/**
 * Finds a network by name (ARBITRUM_MAINNET), display name ("Arbitrum One"), chain id (42161) or
 * alias (arb), without regard to case, spaces or underscores. A near miss gets "did you mean".
 */
export function resolveNetwork<N extends NetworkLike>(raw: string, networks: readonly N[]): NetworkMatch<N> {
  const input = raw.trim();
  const key = normalizeName(input);
  if (key === '') return { ok: false, id: 'network.missing', reason: msg('problem.network.missing'), choices: [] };
  const exactName = networks.filter((n) => n.name.toLowerCase() === input.toLowerCase());
  if (exactName.length === 1) return { ok: true, network: exactName[0] as N };

  let found = networks.filter((n) => networkKeys(n).includes(key));
  if (found.length === 0) found = aliasMatches(key, networks);
  found = pick(found);
  if (found.length === 1) return { ok: true, network: found[0] as N };
  const shown = JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input);
  if (found.length > 1) {
    return {
      ok: false,
      id: 'network.ambiguous',
      reason: msg('problem.network.ambiguous', { shown, names: found.slice(0, 5).map(networkLabel).join(', ') }),
      hint: msg('problem.network.whichOne'),
      choices: found,
    };
  }
  const near = suggestNetworks(key, networks);
  if (near.length > 0) {
    return {
      ok: false,
      id: 'network.unknown',
      reason: msg('problem.network.unknown', { shown }),
      hint: msg('problem.didYouMean', { names: { or: near.map(networkLabel) } }),
      choices: near,
    };
  }
  return {
    ok: false,
    id: 'network.unknown',
    reason: msg('problem.network.unknown', { shown }),
    hint: msg('problem.network.seeAll'),
    choices: [],
  };
}

/** Networks within typo distance of a normalised key, closest first (at most 3). */
function suggestNetworks<N extends NetworkLike>(key: string, networks: readonly N[]): N[] {
  const allowance = typoAllowance(key.length);
  if (allowance === 0) return [];
  const scored: Array<{ n: N; d: number }> = [];
  for (const n of networks) {
    const keys = [
      ...networkKeys(n),
      ...Object.entries(NETWORK_ALIASES)
        .filter(([, stem]) => stem === networkStem(n.name))
        .map(([a]) => a),
    ];
    const d = Math.min(...keys.map((k) => editDistance(key, k, allowance)));
    if (d <= allowance) scored.push({ n, d });
  }
  scored.sort((a, b) => a.d - b.d || Number(isMainnet(b.n)) - Number(isMainnet(a.n)));
  return scored.slice(0, 3).map((s) => s.n);
}

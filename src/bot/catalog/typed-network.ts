import type { Network } from '../../layerswap/schemas.js';
import { NETWORK_ALIASES, networkStem } from './aliases.js';
import { networkLabel, resolveNetwork } from './parse-network.js';

/**
 * One word a person would type for a network in a command ("arbitrum", "base", "zksync"): its
 * display name when that is one word, else its name's stem, else an alias, else the display name
 * run together; only a word the network parser reads back as this very network (else its API name).
 */
export function typedNetwork(n: Network, networks: readonly Network[]): string {
  const stem = networkStem(n.name);
  const candidates = [
    ...(/^\S+$/.test(networkLabel(n)) ? [networkLabel(n)] : []),
    stem,
    ...Object.entries(NETWORK_ALIASES)
      .filter(([, s]) => s === stem)
      .map(([alias]) => alias),
    networkLabel(n).replace(/\s+/g, ''),
  ].map((w) => w.toLowerCase());
  return (
    candidates.find((w) => {
      const found = resolveNetwork(w, networks);
      return found.ok && found.network.name === n.name;
    }) ?? n.name
  );
}

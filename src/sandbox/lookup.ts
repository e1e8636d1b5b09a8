import { NATIVE_ZERO_ADDRESS, NETWORKS } from './catalog.js';
import { validation } from './http-error.js';
import type { CatalogNetwork, CatalogToken } from './model.js';

/**
 * Identifiers as the service accepts them: a network by name or, for EVM, by chain id; a token by
 * symbol or contract address (EVM contracts in any case), the native one also by the family's zero
 * address. An unknown network or token is a VALIDATION_ERROR naming the parameter: the sandbox
 * keeps ROUTE_NOT_FOUND_ERROR for known tokens that are simply not connected.
 */

function findNetwork(id: string): CatalogNetwork | undefined {
  const upper = id.trim().toUpperCase();
  return NETWORKS.find((n) => n.name === upper) ?? NETWORKS.find((n) => n.type === 'evm' && n.chain_id === id.trim());
}

export function findToken(network: CatalogNetwork, id: string): CatalogToken | undefined {
  const raw = id.trim();
  const evmLike = network.type === 'evm' || network.type === 'starknet';
  const sameContract = (c: string | null) => {
    if (c === null) return false;
    if (network.type === 'starknet') return sameFelt(c, raw); // 0x049d... and 0x49d... are one address
    return evmLike ? c.toLowerCase() === raw.toLowerCase() : c === raw;
  };
  const zero = NATIVE_ZERO_ADDRESS[network.type];
  if (zero && (evmLike ? zero === raw.toLowerCase() : zero === raw)) return network.native;
  return network.tokens.find((t) => t.symbol.toLowerCase() === raw.toLowerCase()) ?? network.tokens.find((t) => sameContract(t.contract));
}

export function resolveNetwork(param: string, id: string): CatalogNetwork {
  const network = findNetwork(id);
  if (!network) throw validation(`${param}: unknown network '${clip(id)}'. Use a name such as ETHEREUM_MAINNET or an EVM chain id.`);
  return network;
}

export function resolveToken(param: string, network: CatalogNetwork, id: string): CatalogToken {
  const token = findToken(network, id);
  if (!token) throw validation(`${param}: '${clip(id)}' is not a token on ${network.name}. Use a symbol or a contract address.`);
  return token;
}

/** Echo user input in messages, but never at length. */
export function clip(s: string, max = 80): string {
  return s.length > max ? `${s.slice(0, max)}...` : s;
}

function sameFelt(a: string, b: string): boolean {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(b)) return false;
  return BigInt(a) === BigInt(b);
}

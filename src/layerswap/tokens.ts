import type { Token } from './schemas.js';

/**
 * Token lookups inside one network, the way the service reads token parameters: a symbol
 * (any case) or a contract address, where the family's zero address names the native token.
 */

/** The address that stands for the native token, per network family; other families have none. */
export const NATIVE_ZERO_ADDRESS: Readonly<Record<string, string>> = Object.freeze({
  evm: `0x${'0'.repeat(40)}`,
  solana: '1'.repeat(32),
});

/** What findToken needs of a Network or a Destination. */
export interface TokenHolder<T extends Token = Token> {
  /** The network family; absent when the service did not say (then no zero address applies). */
  type?: string | null | undefined;
  token?: Token | null | undefined;
  tokens: readonly T[];
}

/** EVM addresses are hex (checksummed or not); other families' addresses are case-sensitive. */
function sameAddress(family: string, a: string, b: string): boolean {
  return family === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

export function isZeroAddress(family: string, s: string): boolean {
  const zero = NATIVE_ZERO_ADDRESS[family];
  return zero !== undefined && sameAddress(family, zero, s.trim());
}

/**
 * The native token: preferably its entry in tokens[] (which in /destinations carries status and
 * refuel), else network.token.
 */
export function nativeToken<T extends Token>(network: TokenHolder<T>): T | Token | undefined {
  const byContract = network.tokens.find((t) => !t.contract || isZeroAddress(network.type ?? '', t.contract));
  if (byContract) return byContract;
  const native = network.token ?? undefined;
  return (native && network.tokens.find((t) => t.symbol === native.symbol)) ?? native;
}

/** A token by symbol (exact case first, then any case) or by contract address. */
export function findToken<T extends Token>(network: TokenHolder<T>, symbolOrContract: string): T | Token | undefined {
  const q = symbolOrContract.trim();
  if (!q) return undefined;
  if (isZeroAddress(network.type ?? '', q)) return nativeToken(network);
  const exact = network.tokens.find((t) => t.symbol === q);
  if (exact) return exact;
  const lower = q.toLowerCase();
  const bySymbol = network.tokens.find((t) => t.symbol.toLowerCase() === lower);
  if (bySymbol) return bySymbol;
  const byContract = tokenByContract(network, q);
  if (byContract) return byContract;
  // The native token may be listed only as network.token.
  return network.token && network.token.symbol.toLowerCase() === lower ? network.token : undefined;
}

function tokenByContract<T extends Token>(network: TokenHolder<T>, contract: string): T | Token | undefined {
  if (isZeroAddress(network.type ?? '', contract)) return nativeToken(network);
  return network.tokens.find((t) => t.contract && sameAddress(network.type ?? '', t.contract, contract));
}

/**
 * The contract address of the token with this symbol: null for the native token (it has none),
 * undefined when the network has no such token.
 */
export function contractOf(network: TokenHolder, symbol: string): string | null | undefined {
  const lower = symbol.trim().toLowerCase();
  const token =
    network.tokens.find((t) => t.symbol === symbol.trim()) ??
    network.tokens.find((t) => t.symbol.toLowerCase() === lower) ??
    (network.token?.symbol.toLowerCase() === lower ? network.token : undefined);
  if (!token) return undefined;
  return token.contract ?? null;
}

/** The symbol of the token at this contract address (the zero address: the native token's). */
export function symbolOf(network: TokenHolder, contract: string): string | undefined {
  const q = contract.trim();
  return q ? tokenByContract(network, q)?.symbol : undefined;
}

import type { Token } from '../../layerswap/schemas.js';
import { msg, type Msg } from '../kernel/problem.js';
import { editDistance, typoAllowance } from '../kernel/edit-distance.js';

export type TokenMatch<T extends Token> = { ok: true; token: T } | { ok: false; id: string; reason: Msg; hint?: Msg; choices: T[] };

/** Addresses that stand for a network's native token when given as a contract. */
const NATIVE_ADDRESSES = new Set(['0x0000000000000000000000000000000000000000', '0x0', '11111111111111111111111111111111']);

export const isNative = (t: Pick<Token, 'contract'>): boolean => !t.contract || NATIVE_ADDRESSES.has(t.contract.toLowerCase());

const sameContract = (a: string, b: string): boolean => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b);

/** Symbols listed in a reply, capped so the message stays short. */
export function tokenList(tokens: readonly Pick<Token, 'symbol'>[], max = 15): Msg {
  const symbols = [...new Set(tokens.map((t) => t.symbol))];
  return symbols.length > max
    ? msg('problem.token.listMore', { list: symbols.slice(0, max).join(', '), n: symbols.length - max })
    : msg('problem.token.list', { list: symbols.join(', ') });
}

/**
 * Finds a token of one network by symbol (case-insensitive), display asset, or contract address;
 * the family's zero address means the native token. Unknown tokens get the list the network has.
 */
export function resolveToken<T extends Token>(raw: string, tokens: readonly T[], networkLabel: string): TokenMatch<T> {
  const input = raw.trim();
  if (input === '') return { ok: false, id: 'token.missing', reason: msg('problem.token.missing'), choices: [...tokens] };
  const lower = input.toLowerCase();
  const bySymbol = tokens.filter((t) => t.symbol.toLowerCase() === lower);
  if (bySymbol.length >= 1) return { ok: true, token: bySymbol[0] as T };
  const byAsset = tokens.filter((t) => t.display_asset?.toLowerCase() === lower);
  if (byAsset.length === 1) return { ok: true, token: byAsset[0] as T };
  if (NATIVE_ADDRESSES.has(lower)) {
    const native = tokens.find((t) => isNative(t));
    if (native) return { ok: true, token: native };
  }
  const byContract = tokens.find((t) => t.contract && sameContract(t.contract, input));
  if (byContract) return { ok: true, token: byContract };

  const shown = JSON.stringify(input.length > 44 ? `${input.slice(0, 44)}…` : input);
  if (tokens.length === 0)
    return { ok: false, id: 'token.none', reason: msg('problem.token.none', { network: networkLabel }), choices: [] };
  const allowance = typoAllowance(lower.length);
  const near = allowance === 0 ? [] : tokens.filter((t) => editDistance(lower, t.symbol.toLowerCase(), allowance) <= allowance);
  const hint =
    near.length > 0
      ? msg('problem.didYouMean', { names: { or: near.slice(0, 3).map((t) => t.symbol) } })
      : msg('problem.token.itHas', { list: tokenList(tokens) });
  return {
    ok: false,
    id: 'token.unknown',
    reason: msg('problem.token.unknown', { network: networkLabel, shown }),
    hint,
    choices: near.length > 0 ? near : [...tokens],
  };
}

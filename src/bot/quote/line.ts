import { fail, msg, ok, type Result } from '../kernel/problem.js';

/** The slots of a route as typed, before any lookup. */
export interface RouteWords {
  amount?: string;
  token?: string;
  from?: string;
  /** Words after "to": a network, possibly followed by the token to receive. */
  to?: string[];
  toToken?: string;
  /** An address typed as the last word: where the swap should deliver (checked once the network is known). */
  address?: string;
}

const USE = msg('problem.route.usage');

const ARROWS = /\s*(?:->|→|=>|⇒|➡️?|⟶)\s*/gu;
const looksLikeAmount = (w: string): boolean => /^[+\-.,]?\d/.test(w) || /^[+-]?(nan|inf|infinity)$/i.test(w);
const isKeyword = (w: string | undefined, k: string): boolean => w !== undefined && w.toLowerCase() === k;

/**
 * Words shaped like an account address of a common family (EVM, Starknet, Solana, TON, Tron,
 * Bitcoin, Cosmos). The zero address is a token (the native one), never a destination.
 */
function looksLikeAddress(w: string): boolean {
  if (/^0x0+$/i.test(w) || /^1+$/.test(w)) return false;
  return (
    /^0x[0-9a-f]{40}$/i.test(w) ||
    /^0x[0-9a-f]{50,64}$/i.test(w) ||
    /^(EQ|UQ|kQ|0Q)[A-Za-z0-9_-]{46}$/.test(w) ||
    /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(w) ||
    /^(bc1|tb1)[02-9ac-hj-np-z]{20,90}$/i.test(w) ||
    /^[a-z]{2,20}1[02-9ac-hj-np-z]{38,90}$/.test(w) ||
    /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(w)
  );
}

/**
 * Splits "/quote" arguments into slots. Two forms: positional ("100 USDC arbitrum base [USDC]")
 * and words ("100 USDC from arbitrum to base", "0.5 eth ethereum -> optimism"; arrows count as
 * "to"). Missing slots stay empty for the wizard to ask. Never throws.
 */
export function splitRouteWords(raw: string): Result<RouteWords> {
  const text = raw.replace(ARROWS, ' to ').trim();
  if (text === '') return ok({});
  if (text.length > 300) return fail('route.too_long', msg('problem.route.tooLong'), USE);
  const words = text.split(/\s+/);
  // "/swap 100 USDC arbitrum base 0x8ba1…": an address at the end is where to deliver, not a token.
  const last = words[words.length - 1];
  const address = words.length >= 3 && last !== undefined && looksLikeAddress(last) ? words.pop() : undefined;
  const toAt = words.findIndex((w, i) => i > 0 && isKeyword(w, 'to'));
  const out: RouteWords = address === undefined ? {} : { address };

  const head = toAt >= 0 ? words.slice(0, toAt) : words;
  let i = 0;
  const positional = toAt < 0 && !head.some((w) => isKeyword(w, 'from'));
  if (head[0] !== undefined && (looksLikeAmount(head[0]) || (positional && head.length >= 4))) out.amount = head[i++];
  if (head[i] !== undefined && !isKeyword(head[i], 'from')) out.token = head[i++];

  if (toAt >= 0 || !positional) {
    if (isKeyword(head[i], 'from')) i++;
    const from = head.slice(i);
    if (from.length > 0) out.from = from.join(' ');
    if (toAt >= 0) {
      const rest = words.slice(toAt + 1);
      if (rest.length === 0) return fail('route.nothing_after_to', msg('problem.route.nothingAfterTo'), USE);
      if (rest.length > 4) return fail('route.too_many_after_to', msg('problem.route.tooManyAfterTo'), USE);
      out.to = rest;
    }
    return ok(out);
  }
  const rest = head.slice(i);
  if (rest.length > 3) return fail('route.too_many_words', msg('problem.route.tooManyWords'), USE);
  if (rest[0] !== undefined) out.from = rest[0];
  if (rest[1] !== undefined) out.to = [rest[1]];
  if (rest[2] !== undefined) out.toToken = rest[2];
  return ok(out);
}

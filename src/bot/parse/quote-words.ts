import { fail, ok, type Result } from '../result.js';

/** The slots of a route as typed, before any lookup. */
export interface RouteWords {
  amount?: string;
  token?: string;
  from?: string;
  /** Words after "to": a network, possibly followed by the token to receive. */
  to?: string[];
  toToken?: string;
}

export const QUOTE_USAGE = '/quote <amount> <token> <from> <to> [<to-token>], e.g. /quote 100 USDC arbitrum base or /quote 0.5 eth from ethereum to optimism';

const ARROWS = /\s*(?:->|→|=>|⇒|➡️?|⟶)\s*/gu;
const looksLikeAmount = (w: string): boolean => /^[+\-.,]?\d/.test(w) || /^[+-]?(nan|inf|infinity)$/i.test(w);
const isKeyword = (w: string | undefined, k: string): boolean => w !== undefined && w.toLowerCase() === k;

/**
 * Splits "/quote" arguments into slots. Two forms: positional ("100 USDC arbitrum base [USDC]")
 * and words ("100 USDC from arbitrum to base", "0.5 eth ethereum -> optimism"; arrows count as
 * "to"). Missing slots stay empty for the wizard to ask. Never throws.
 */
export function splitRouteWords(raw: string): Result<RouteWords> {
  const text = raw.replace(ARROWS, ' to ').trim();
  if (text === '') return ok({});
  if (text.length > 300) return fail('That is too long for a route.', `Use ${QUOTE_USAGE}.`);
  const words = text.split(/\s+/);
  const toAt = words.findIndex((w, i) => i > 0 && isKeyword(w, 'to'));
  const out: RouteWords = {};

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
      if (rest.length === 0) return fail('Where to? Nothing follows "to".', `Use ${QUOTE_USAGE}.`);
      if (rest.length > 4) return fail('There are too many words after "to".', `Use ${QUOTE_USAGE}.`);
      out.to = rest;
    }
    return ok(out);
  }
  const rest = head.slice(i);
  if (rest.length > 3) return fail('There are too many words in that route.', `Use ${QUOTE_USAGE}.`);
  if (rest[0] !== undefined) out.from = rest[0];
  if (rest[1] !== undefined) out.to = [rest[1]];
  if (rest[2] !== undefined) out.toToken = rest[2];
  return ok(out);
}

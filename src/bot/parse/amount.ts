import { fail, ok, type Result } from '../problem.js';

export interface Amount {
  /** The number sent to the API (source-token units). */
  value: number;
  /** The canonical decimal text, as the user will see it again ("100", "0.5"). */
  text: string;
}

const EXAMPLE = 'Send it in plain digits with a dot for decimals, like 100 or 0.5.';

/**
 * Parses an amount the user typed. Rejects anything that is not a plain positive decimal, each
 * with its own reason: words, signs, zero, exponents, NaN/Infinity, commas, and more decimals than
 * the token has (or than a number can carry exactly).
 */
export function parseAmount(raw: string, token?: { symbol: string; decimals: number }): Result<Amount> {
  const input = raw.trim();
  if (input === '') return fail('amount.missing', 'The amount is missing.', EXAMPLE);
  if (input.length > 60) return fail('amount.too_long', 'That amount is far too long.', EXAMPLE);
  const shown = JSON.stringify(input);
  if (/^[+-]?(nan|inf|infinity)$/i.test(input)) return fail('amount.not_a_number', `${shown} is not an amount.`, EXAMPLE);
  if (/^-/.test(input)) return fail('amount.negative', 'The amount must be more than 0, not negative.', EXAMPLE);
  if (/^\+/.test(input)) return fail('amount.plus_sign', 'Leave out the + sign.', EXAMPLE);
  if (/^\d+,\d+$/.test(input)) {
    return /^\d{1,3}(,\d{3})+$/.test(input)
      ? fail('amount.comma_ambiguous', `Is ${shown} a thousands separator or a decimal comma? Write amounts without commas.`, `Use a dot for decimals: ${input.replace(/,/g, '')} or ${input.replace(',', '.')}.`)
      : fail('amount.decimal_comma', `Use a dot for decimals, not a comma: ${input.replace(',', '.')}.`);
  }
  if (/,/.test(input)) return fail('amount.commas', 'Write amounts without commas.', EXAMPLE);
  if (/^\d*\.?\d+e[+-]?\d+$/i.test(input) || /^\d+\.e[+-]?\d+$/i.test(input)) return fail('amount.exponent', `${shown} uses exponent notation.`, EXAMPLE);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(input)) return fail('amount.not_a_number', `${shown} is not a number.`, EXAMPLE);

  const [intRaw = '', fracRaw = ''] = input.split('.');
  const intPart = intRaw.replace(/^0+(?=\d)/, '') || '0';
  const frac = fracRaw.replace(/0+$/, '');
  if (/^0*$/.test(intPart) && frac === '') return fail('amount.zero', 'The amount must be more than 0.', EXAMPLE);
  if (intPart.length > 15) return fail('amount.too_large', 'That amount is too large.', 'Check the number of digits.');
  if (token && frac.length > token.decimals) {
    return token.decimals === 0
      ? fail('amount.no_decimals', `${token.symbol} has no decimals: send a whole number.`)
      : fail('amount.too_many_decimals', `${token.symbol} has ${token.decimals} decimals, and ${shown} has ${frac.length} digits after the dot.`, `Use at most ${token.decimals}.`);
  }
  const significant = (intPart === '0' ? '' : intPart) + frac;
  if (significant.replace(/^0+/, '').length > 15) return fail('amount.too_precise', 'That amount has more digits than can be sent exactly.', 'Use at most 15 significant digits.');
  const text = frac ? `${intPart}.${frac}` : intPart;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) return fail('amount.not_a_number', `${shown} is not an amount.`, EXAMPLE);
  return ok({ value, text });
}

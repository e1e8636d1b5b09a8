import { fail, msg, ok, type Result } from '../kernel/problem.js';

export interface Amount {
  /** The number sent to the API (source-token units). */
  value: number;
  /** The canonical decimal text, as the user will see it again ("100", "0.5"). */
  text: string;
}

const EXAMPLE = msg('problem.amount.example');

/**
 * Parses an amount the user typed. Rejects anything that is not a plain positive decimal, each
 * with its own reason: words, signs, zero, exponents, NaN/Infinity, commas, and more decimals than
 * the token has (or than a number can carry exactly).
 */
export function parseAmount(raw: string, token?: { symbol: string; decimals: number }): Result<Amount> {
  const input = raw.trim();
  if (input === '') return fail('amount.missing', msg('problem.amount.missing'), EXAMPLE);
  if (input.length > 60) return fail('amount.too_long', msg('problem.amount.tooLong'), EXAMPLE);
  const shown = JSON.stringify(input);
  if (/^[+-]?(nan|inf|infinity)$/i.test(input)) return fail('amount.not_a_number', msg('problem.amount.notAnAmount', { shown }), EXAMPLE);
  if (/^-/.test(input)) return fail('amount.negative', msg('problem.amount.negative'), EXAMPLE);
  if (/^\+/.test(input)) return fail('amount.plus_sign', msg('problem.amount.plusSign'), EXAMPLE);
  if (/^\d+,\d+$/.test(input)) {
    return /^\d{1,3}(,\d{3})+$/.test(input)
      ? fail(
          'amount.comma_ambiguous',
          msg('problem.amount.commaAmbiguous', { shown }),
          msg('problem.amount.commaAmbiguousHint', { whole: input.replace(/,/g, ''), decimal: input.replace(',', '.') }),
        )
      : fail('amount.decimal_comma', msg('problem.amount.decimalComma', { decimal: input.replace(',', '.') }));
  }
  if (/,/.test(input)) return fail('amount.commas', msg('problem.amount.commas'), EXAMPLE);
  if (/^\d*\.?\d+e[+-]?\d+$/i.test(input) || /^\d+\.e[+-]?\d+$/i.test(input))
    return fail('amount.exponent', msg('problem.amount.exponent', { shown }), EXAMPLE);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(input)) return fail('amount.not_a_number', msg('problem.amount.notANumber', { shown }), EXAMPLE);

  const [intRaw = '', fracRaw = ''] = input.split('.');
  const intPart = intRaw.replace(/^0+(?=\d)/, '') || '0';
  const frac = fracRaw.replace(/0+$/, '');
  if (/^0*$/.test(intPart) && frac === '') return fail('amount.zero', msg('problem.amount.zero'), EXAMPLE);
  if (intPart.length > 15) return fail('amount.too_large', msg('problem.amount.tooLarge'), msg('problem.amount.tooLargeHint'));
  if (token && frac.length > token.decimals) {
    return token.decimals === 0
      ? fail('amount.no_decimals', msg('problem.amount.noDecimals', { symbol: token.symbol }))
      : fail(
          'amount.too_many_decimals',
          msg('problem.amount.tooManyDecimals', { symbol: token.symbol, decimals: token.decimals, shown, digits: frac.length }),
          msg('problem.amount.tooManyDecimalsHint', { decimals: token.decimals }),
        );
  }
  const significant = (intPart === '0' ? '' : intPart) + frac;
  if (significant.replace(/^0+/, '').length > 15)
    return fail('amount.too_precise', msg('problem.amount.tooPrecise'), msg('problem.amount.tooPreciseHint'));
  const text = frac ? `${intPart}.${frac}` : intPart;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) return fail('amount.not_a_number', msg('problem.amount.notAnAmount', { shown }), EXAMPLE);
  return ok({ value, text });
}

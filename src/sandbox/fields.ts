import { validation } from './http-error.js';
import { clip } from './lookup.js';
import { fractionDigits, toDecimalString, trimDecimal } from './numbers.js';
import type { CatalogToken } from './model.js';

/**
 * Typed reading of request fields, from a query string or a JSON body alike, with the clear
 * VALIDATION_ERROR messages a bot can show: which field, what was wrong, what would be right.
 */

export interface Amount {
  value: number;
  /** Plain decimal text, exactly as sent (base units are computed from it, not from the float). */
  text: string;
}

type Raw = string | number | boolean | null | undefined | object;

export class Fields {
  private constructor(private readonly get: (name: string) => Raw) {}

  static fromQuery(q: URLSearchParams): Fields {
    return new Fields((name) => q.get(name) ?? undefined);
  }

  static fromBody(body: Record<string, unknown>): Fields {
    return new Fields((name) => body[name] as Raw);
  }

  string(name: string, required: true): string;
  string(name: string, required?: false): string | undefined;
  string(name: string, required = false): string | undefined {
    const v = this.get(name);
    if (v === undefined || v === null || v === '') {
      if (required) throw validation(`${name} is required.`);
      return undefined;
    }
    if (typeof v !== 'string') throw validation(`${name} must be a string.`);
    const s = v.trim();
    if (!s && required) throw validation(`${name} is required.`);
    return s || undefined;
  }

  bool(name: string): boolean | undefined {
    const v = this.get(name);
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v === 'boolean') return v;
    if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
    throw validation(`${name} must be true or false.`);
  }

  amount(name: string): Amount {
    const v = this.get(name);
    if (v === undefined || v === null || v === '') throw validation(`${name} is required.`);
    let text: string;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw validation(`${name} must be a number.`);
      text = toDecimalString(v);
    } else if (typeof v === 'string') {
      text = v.trim();
    } else {
      throw validation(`${name} must be a number.`);
    }
    if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) {
      throw validation(`${name} must be a positive decimal number such as 0.5 (got '${clip(String(v), 40)}').`);
    }
    const value = Number(text);
    if (!(value > 0)) throw validation(`${name} must be greater than 0.`);
    return { value, text: trimDecimal(text.startsWith('.') ? `0${text}` : text) };
  }

  /** network_types: repeated (?network_types=evm&network_types=ton) or comma-joined. */
  static networkTypes(q: URLSearchParams, known: readonly string[]): string[] | undefined {
    const values = q
      .getAll('network_types')
      .flatMap((v) => v.split(','))
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);
    if (values.length === 0) return undefined;
    const unknown = values.find((v) => !known.includes(v));
    if (unknown) throw validation(`network_types: unknown network type '${clip(unknown, 30)}'. Known: ${known.join(', ')}.`);
    return values;
  }
}

/** More places than the token has cannot be sent on chain. */
export function checkDecimals(name: string, amount: Amount, token: CatalogToken): void {
  if (fractionDigits(amount.text) > token.decimals) {
    throw validation(`${name}: ${token.symbol} has ${token.decimals} decimals; ${amount.text} has more.`);
  }
}

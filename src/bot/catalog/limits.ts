import type { RouteLimits } from '../../layerswap/catalog-cache.js';
import type { Network } from '../../layerswap/schemas.js';
import { exactAmount } from '../kernel/format.js';
import type { Ctx } from '../kernel/context.js';
import { line, type Line } from '../../contracts/reply.js';
import { formatNumber, t, type Locale } from '../../i18n/index.js';
import { msg, type Problem } from '../kernel/problem.js';
import type { Route } from '../kernel/route.js';

/**
 * The route's min and max amount (GET /limits, cached briefly), shown before the user types a
 * number and checked before any quote. Limits are a help, not a gate: when they cannot be loaded
 * the amount step works without them and the quote still says what is allowed.
 */
export interface KnownLimits {
  min?: number;
  max?: number;
  symbol: string;
  decimals: number;
}

const usable = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/** Limits for a route whose networks and tokens are known; undefined when none can be loaded. */
export async function routeLimits(
  ctx: Ctx,
  route: Route,
  networks: readonly Network[],
  refuel?: boolean,
  destinationAddress?: string,
): Promise<KnownLimits | undefined> {
  const { sourceNetwork, sourceToken, destinationNetwork, destinationToken } = route;
  if (!sourceNetwork || !sourceToken || !destinationNetwork || !destinationToken) return undefined;
  const raw: RouteLimits | undefined = await ctx.catalog.limits({
    source_network: sourceNetwork,
    source_token: sourceToken,
    destination_network: destinationNetwork,
    destination_token: destinationToken,
    use_deposit_address: true,
    ...(refuel ? { refuel: true } : {}),
    ...(destinationAddress ? { destination_address: destinationAddress } : {}),
  });
  if (!raw) return undefined;
  const min = usable(raw.min_amount) ? raw.min_amount : undefined;
  const max = usable(raw.max_amount) ? raw.max_amount : undefined;
  // A max below the min is not a range anyone can use: show nothing rather than something wrong.
  if ((min === undefined && max === undefined) || (min !== undefined && max !== undefined && max < min)) return undefined;
  const token = networks.find((n) => n.name === sourceNetwork)?.tokens.find((t) => t.symbol === sourceToken);
  const decimals = typeof token?.decimals === 'number' ? token.decimals : 18;
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }), symbol: sourceToken, decimals };
}

const amountText = (n: number, l: KnownLimits): string => `${exactAmount(n, l.decimals)} ${l.symbol}`;

/**
 * A limit for reading ("5.01", "500,117" in the reader's way): about three significant figures,
 * the minimum rounded up and the maximum down so the rounded range is still allowed. Problems
 * about an amount keep the exact limit (amountText), which is what gets copied.
 */
export function readableLimit(locale: Locale, n: number, side: 'min' | 'max', decimals: number): string {
  const digits = Math.min(decimals, n >= 100 ? 0 : n >= 1 ? 2 : Math.max(2, Math.ceil(-Math.log10(n)) + 2));
  const f = 10 ** digits;
  const scaled = n * f;
  // A hair of tolerance, so 5.01 stored as 5.0099999 is not pushed to 5.02.
  const v = (side === 'min' ? Math.ceil(scaled - 1e-9) : Math.floor(scaled + 1e-9)) / f;
  return formatNumber(locale, v, { maximumFractionDigits: digits });
}

const readable = (locale: Locale, l: KnownLimits, side: 'min' | 'max'): string =>
  readableLimit(locale, side === 'min' ? (l.min ?? 0) : (l.max ?? 0), side, l.decimals);

/** "You can send between 5.01 USDC and 500,117 USDC." for the amount question. */
export function limitsLine(locale: Locale, l: KnownLimits): Line {
  const min = `${readable(locale, l, 'min')} ${l.symbol}`;
  const max = `${readable(locale, l, 'max')} ${l.symbol}`;
  if (l.min !== undefined && l.max !== undefined) return line(t(locale, 'limits.between', { min, max }));
  if (l.min !== undefined) return line(t(locale, 'limits.atLeast', { min }));
  return line(t(locale, 'limits.atMost', { max }));
}

/** "5.01–500,117 USDC" (or "min 5.01 USDC", "max 500,117 USDC") for a list line. */
export function limitsRange(locale: Locale, l: KnownLimits): string {
  if (l.min !== undefined && l.max !== undefined) return `${readable(locale, l, 'min')}–${readable(locale, l, 'max')} ${l.symbol}`;
  return l.min !== undefined
    ? t(locale, 'limits.min', { min: `${readable(locale, l, 'min')} ${l.symbol}` })
    : t(locale, 'limits.max', { max: `${readable(locale, l, 'max')} ${l.symbol}` });
}

/** An amount outside the limits, as a problem naming the limit; undefined when it fits. */
export function amountProblem(amount: number, l: KnownLimits): Problem | undefined {
  if (l.min !== undefined && amount < l.min) {
    return {
      id: 'amount.below_min',
      field: 'amount',
      reason: msg('problem.amount.belowMin', { amount: amountText(amount, l), min: amountText(l.min, l) }),
      hint: msg('problem.amount.belowMinHint'),
    };
  }
  if (l.max !== undefined && amount > l.max) {
    return {
      id: 'amount.above_max',
      field: 'amount',
      reason: msg('problem.amount.aboveMax', { amount: amountText(amount, l), max: amountText(l.max, l) }),
      hint: msg('problem.amount.aboveMaxHint'),
    };
  }
  return undefined;
}

import type { RouteLimits } from '../../layerswap/catalog-cache.js';
import type { Network } from '../../layerswap/schemas.js';
import { exactAmount } from '../cards/format.js';
import type { Ctx } from '../context.js';
import { line, type Line } from '../../contracts/reply.js';
import { t, type Locale } from '../../i18n/index.js';
import { msg, type Problem } from '../problem.js';
import type { Route } from './route.js';

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
export async function routeLimits(ctx: Ctx, route: Route, networks: readonly Network[], refuel?: boolean): Promise<KnownLimits | undefined> {
  const { sourceNetwork, sourceToken, destinationNetwork, destinationToken } = route;
  if (!sourceNetwork || !sourceToken || !destinationNetwork || !destinationToken) return undefined;
  const raw: RouteLimits | undefined = await ctx.catalog.limits({
    source_network: sourceNetwork, source_token: sourceToken, destination_network: destinationNetwork, destination_token: destinationToken,
    use_deposit_address: true, ...(refuel ? { refuel: true } : {}),
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

/** "You can send between 10 USDC and 500000 USDC." for the amount question. */
export function limitsLine(locale: Locale, l: KnownLimits): Line {
  if (l.min !== undefined && l.max !== undefined) return line(t(locale, 'limits.between', { min: amountText(l.min, l), max: amountText(l.max, l) }));
  if (l.min !== undefined) return line(t(locale, 'limits.atLeast', { min: amountText(l.min, l) }));
  return line(t(locale, 'limits.atMost', { max: amountText(l.max ?? 0, l) }));
}

/** "10–500000 USDC" (or "min 10 USDC", "max 500000 USDC") for a list line. */
export function limitsRange(locale: Locale, l: KnownLimits): string {
  if (l.min !== undefined && l.max !== undefined) return `${exactAmount(l.min, l.decimals)}–${amountText(l.max, l)}`;
  return l.min !== undefined ? t(locale, 'limits.min', { min: amountText(l.min, l) }) : t(locale, 'limits.max', { max: amountText(l.max ?? 0, l) });
}

/** An amount outside the limits, as a problem naming the limit; undefined when it fits. */
export function amountProblem(amount: number, l: KnownLimits): Problem | undefined {
  if (l.min !== undefined && amount < l.min) {
    return { id: 'amount.below_min', field: 'amount', reason: msg('problem.amount.belowMin', { amount: amountText(amount, l), min: amountText(l.min, l) }), hint: msg('problem.amount.belowMinHint') };
  }
  if (l.max !== undefined && amount > l.max) {
    return { id: 'amount.above_max', field: 'amount', reason: msg('problem.amount.aboveMax', { amount: amountText(amount, l), max: amountText(l.max, l) }), hint: msg('problem.amount.aboveMaxHint') };
  }
  return undefined;
}

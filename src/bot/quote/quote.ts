import { ApiError } from '../../layerswap/errors.js';
import type { Network, QuoteResponse } from '../../layerswap/schemas.js';
import type { QuoteParams } from '../../layerswap/params.js';
import { actionButton, lineText, shareButton, type Reply } from '../../contracts/reply.js';
import { quoteCard } from './card.js';
import type { Ctx } from '../kernel/context.js';
import { apiErrorLines, errorReply, isServiceError } from '../kernel/errors-text.js';
import { msg, problemOf, type Problem } from '../kernel/problem.js';
import type { Locale } from '../../i18n/index.js';
import { VERBS } from '../kernel/verbs.js';
import { checkRoute, paysFromWallet, takesDepositAddress } from './route-check.js';
import { routeArgs } from './route-button.js';
import { amountProblem, routeLimits } from '../catalog/index.js';
import { clearField, isComplete } from './route.js';
import { routeLabels } from './summary.js';
import { routeTimesId, shownDistribution, type Distribution, type RouteTimes } from '../../contracts/route-times.js';
import type { Route, RouteField } from '../kernel/route.js';

/**
 * The quote request for a complete route. The bot swaps by deposit address, so quotes say so,
 * except from a wallet-only source the pay page pays (`walletOnly`, TON), which has none to quote.
 */
export function quoteParams(route: Route, refuel?: boolean, destinationAddress?: string, walletOnly = false): QuoteParams {
  const params: QuoteParams = {
    source_network: route.sourceNetwork ?? '',
    source_token: route.sourceToken ?? '',
    destination_network: route.destinationNetwork ?? '',
    destination_token: route.destinationToken ?? '',
    amount: Number(route.amount),
    use_deposit_address: !walletOnly,
  };
  if (refuel && !route.destinationExchange) params.refuel = true;
  // Quotes may depend on the destination: once it is known it goes with the quote, as in Layerswap's app.
  if (destinationAddress) params.destination_address = destinationAddress;
  return params;
}

/**
 * A gasless swap's quote and create fields, in place of the deposit address: the paymaster's gas is
 * folded into blockchain_fee, so the quote must say so too (docs gasless-swaps.mdx); the create adds
 * use_depository as Layerswap's app does (context/swap.tsx).
 */
export const GASLESS_QUOTE = { use_deposit_address: false, use_gasless: true } as const;
export const GASLESS_CREATE = { ...GASLESS_QUOTE, use_depository: true } as const;

/**
 * A wallet transfer, in place of the deposit address: the swap's `transfer` action is a transaction
 * the person's wallet signs and sends on the pay page (Solana: a base64 transaction, docs overview).
 */
export const WALLET_QUOTE = { use_deposit_address: false } as const;

/** "Pay from my wallet" can be offered: the pay page is set up and pays this family's wallet transfers (Solana, TON). */
export function walletOffered(ctx: Pick<Ctx, 'payLinks'>, networks: readonly Network[], route: Route): boolean {
  if (route.sourceExchange) return false;
  const source = networks.find((n) => n.name === route.sourceNetwork);
  return !!source && paysFromWallet(ctx, source);
}

/**
 * The source has no deposit address to offer, and the pay page pays it from a wallet: the swap is
 * quoted and created as a wallet transfer, with no way back to an address. The network list may not
 * say (GET /networks has no deposit_methods): then TON and Starknet are, as Layerswap documents.
 */
export function walletOnlySource(ctx: Pick<Ctx, 'payLinks'>, networks: readonly Network[], route: Route): boolean {
  const source = networks.find((n) => n.name === route.sourceNetwork);
  if (!source || !walletOffered(ctx, networks, route)) return false;
  return source.deposit_methods?.length ? !takesDepositAddress(source) : WALLET_ONLY_FAMILIES.has(source.type ?? '');
}

const WALLET_ONLY_FAMILIES = new Set(['ton', 'starknet']);

/** "Pay without gas" can be offered: the pay page is set up, and the source token on its EVM network supports it. */
export function gaslessOffered(ctx: Pick<Ctx, 'payLinks'>, networks: readonly Network[], route: Route): boolean {
  if (!ctx.payLinks || route.sourceExchange) return false;
  const network = networks.find((n) => n.name === route.sourceNetwork);
  return network?.type === 'evm' && network.tokens.some((t) => t.symbol === route.sourceToken && t.supports_gasless_deposit === true);
}

/** The route's observed arrival times worth showing (at least 5 swaps behind them), else undefined. */
export async function observedTimes(ctx: Ctx, route: Route): Promise<Distribution | undefined> {
  if (!ctx.routeTimes) return undefined;
  const p = quoteParams(route);
  const id = routeTimesId({
    sourceNetwork: p.source_network,
    sourceToken: p.source_token,
    destinationNetwork: p.destination_network,
    destinationToken: p.destination_token,
  });
  // A figure, not a step of the swap: a failed read shows the service's estimate.
  return shownDistribution((await ctx.routeTimes(id).catch(() => ({}) as RouteTimes)).seen);
}

/** The field a quote (or create) refusal can be fixed on; undefined when answering again cannot fix it. */
function refusedField(err: ApiError): RouteField | undefined {
  switch (err.code) {
    case 'LESS_THAN_MIN_ERROR':
    case 'GREATER_THAN_MAX_ERROR':
    case 'PRICE_IMPACT_TOO_HIGH':
    case 'NETWORK_CURRENCY_DAILY_LIMIT_REACHED':
      return 'amount';
    case 'ROUTE_NOT_FOUND_ERROR':
      return /rate not available/i.test(err.serviceMessage) ? 'amount' : 'destination_network';
    case 'QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS':
      return 'source_network';
    default:
      return undefined;
  }
}

/**
 * The one place quote refusals are recovered: a refusal that one field can fix (amount limits,
 * no route, no deposit-address support) clears that field and becomes the problem shown when it
 * is asked again. Undefined for failures the user cannot fix by answering (the caller reports them).
 */
export function recoverQuote(err: unknown, route: Route, locale: Locale): { route: Route; problem: Problem } | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const field = refusedField(err);
  if (!field) return undefined;
  // The service's refusal is already in words (errors-text.ts), in the chat's language.
  const words = apiErrorLines(err, locale);
  const problem = problemOf(
    `quote.${err.code}`,
    msg('problem.serviceSaid', { title: words.title, text: words.lines.map(lineText).join(' ') }),
    { field },
  );
  return { route: clearField(route, field), problem };
}

/**
 * A complete route as the line that quotes it ("100 USDC ARBITRUM_MAINNET BASE_MAINNET"): what
 * Share puts after the bot's name in another chat. An exchange side is named by its exchange.
 */
export function routeLine(route: Route): string {
  const dst = route.destinationToken && route.destinationToken !== route.sourceToken ? [route.destinationToken] : [];
  return [
    route.amount,
    route.sourceToken,
    route.sourceExchange ?? route.sourceNetwork,
    route.destinationExchange ?? route.destinationNetwork,
    ...dst,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The quote card of a complete route, with Swap this and Refresh (the route travels in the
 * buttons) and Share (the same quote into another chat; Telegram refuses it on channel posts).
 */
export async function quoteReply(ctx: Ctx, route: Route, networks: readonly Network[], fetched?: QuoteResponse): Promise<Reply> {
  const q = fetched ?? (await ctx.api.getQuote(quoteParams(route, undefined, undefined, walletOnlySource(ctx, networks, route))));
  const args = routeArgs(route);
  const [swap, refresh] = await Promise.all([
    ctx.codec.encode({ verb: VERBS.swapThis, args }),
    ctx.codec.encode({ verb: VERBS.refreshQuote, args }),
  ]);
  const card = quoteCard(
    q,
    routeLabels(route, networks, ctx.locale),
    Number(route.amount),
    { swap, refresh },
    ctx.locale,
    await observedTimes(ctx, route),
  );
  if (ctx.incoming.chatKind === 'channel') return card;
  return { ...card, buttons: [...(card.buttons ?? []), [shareButton(ctx.t('quote.share'), routeLine(route))]] };
}

/** What a route quoted without a draft came to: the card, or what the wizard must ask. */
export type QuoteOutcome = { done: true; replies: Reply[] } | { done: false; route: Route; problem?: Problem };

/**
 * A route quoted straight away (a complete /quote line, Refresh): checked against the route list
 * and the limits, then quoted. Anything missing or refused comes back for the wizard to ask; a
 * service failure is a reply with Try again (the route is in the button, so nothing is saved).
 * `networks` is the list the caller read the route with: the network list is read once per /quote.
 */
export async function quoteNow(ctx: Ctx, route: Route, mode: 'edit' | 'new', networks: readonly Network[]): Promise<QuoteOutcome> {
  const check = await checkRoute(ctx, route, networks, false);
  // The wizard checks the route again (cached) and asks what this check cleared.
  if (check.problem || !isComplete(check.route)) return { done: false, route };
  const limits = await routeLimits(ctx, check.route, networks);
  const outside = limits ? amountProblem(Number(check.route.amount), limits) : undefined;
  if (outside) return { done: false, route: clearField(check.route, 'amount'), problem: outside };
  try {
    return { done: true, replies: [{ ...(await quoteReply(ctx, check.route, networks)), mode }] };
  } catch (err) {
    const recovered = recoverQuote(err, check.route, ctx.locale);
    if (recovered) return { done: false, ...recovered };
    if (!isServiceError(err)) throw err;
    const again = await ctx.codec.encode({ verb: VERBS.refreshQuote, args: routeArgs(check.route) });
    return { done: true, replies: [{ ...errorReply(err, ctx.locale), buttons: [[actionButton(ctx.t('quote.tryAgain'), again)]] }] };
  }
}

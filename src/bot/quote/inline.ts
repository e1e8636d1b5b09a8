import { createHash } from 'node:crypto';
import type { Network, QuoteResponse } from '../../layerswap/schemas.js';
import { actionButton, deeplinkButton, line, lineText, shareButton, type Reply } from '../../contracts/reply.js';
import { quoteFields, type QuoteFieldId } from './card.js';
import type { Ctx } from '../kernel/context.js';
import type { InlineAnswer, InlineResult } from '../core.js';
import { errorReply, isServiceError } from '../kernel/errors-text.js';
import { amountProblem, resolveNetwork, routeLimits } from '../catalog/index.js';
import { msg, problemOf, problemReply, say, type Problem } from '../kernel/problem.js';
import { t, type Locale } from '../../i18n/index.js';
import { asError } from '../../log.js';
import { expired, notice } from '../kernel/replies.js';
import { checkRoute, loadExchanges } from './route-check.js';
import { routeArgs, routeFromButton } from './route-button.js';
import { applyRouteWords, isComplete, isQuotable } from './route.js';
import { routeLabels, routeSummary } from './summary.js';
import { splitRouteWords, type RouteWords } from './line.js';
import { VERBS } from '../kernel/verbs.js';
import { quoteParams, recoverQuote, routeLine, walletOnlySource } from './quote.js';
import type { Route } from '../kernel/route.js';

/**
 * Quoting in chats the bot is not in (Telegram inline mode). The card it sends is public and
 * compact: the figures that matter, "Swap this" (a deep link that opens the private chat with the
 * route filled in: `sw_<id>`, read by /start), Refresh (edits the card in place) and Share. Deposit
 * details never travel this way: a swap is only ever made in the private chat.
 */

/** The /start payload prefix of "Swap this" on an inline card; the rest is a stashed swapThis action. */
export const SWAP_LINK_PREFIX = 'sw_';
/** Prices move: Telegram may reuse an answer with quotes only briefly. */
const QUOTE_CACHE_SECONDS = 10;
const HELP_CACHE_SECONDS = 60;
const MAX_QUERY = 256;
const EXAMPLE = '100 usdc arbitrum base';

/** The routes most people ask about, offered (quoted) for an empty or partial query when they exist. */
const COMMON_ROUTES: ReadonlyArray<{ token: string; from: string; to: string; amount: string }> = [
  { token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET', amount: '100' },
  { token: 'ETH', from: 'ETHEREUM_MAINNET', to: 'ARBITRUM_MAINNET', amount: '0.1' },
  { token: 'USDC', from: 'ETHEREUM_MAINNET', to: 'OPTIMISM_MAINNET', amount: '100' },
  { token: 'ETH', from: 'BASE_MAINNET', to: 'OPTIMISM_MAINNET', amount: '0.1' },
];
const MAX_COMMON = 3;

/** The card's figures kept on a compact card (the rest is one tap away on Refresh in private). */
const COMPACT_FIELDS: ReadonlySet<string> = new Set<QuoteFieldId>(['send', 'receive', 'fees', 'time', 'highFees']);
/** The figures a result's description shows. */
const DESCRIPTION_FIELDS: ReadonlySet<string> = new Set<QuoteFieldId>(['receive', 'fees']);

const resultId = (kind: InlineResult['kind'], key: string): string =>
  `${kind}:${createHash('sha256').update(key).digest('base64url').slice(0, 16)}`;

/** The how-to: what to type, and a Share button that opens the example in another chat. */
function howTo(locale: Locale): InlineResult {
  return {
    id: 'help',
    kind: 'help',
    title: t(locale, 'inline.howTo.title'),
    description: t(locale, 'inline.howTo.description', { example: EXAMPLE }),
    reply: {
      title: t(locale, 'inline.howTo.cardTitle'),
      tone: 'info',
      lines: [
        line(t(locale, 'inline.howTo.type'), ' ', { kind: 'code', text: EXAMPLE }),
        line(t(locale, 'inline.howTo.pick', { swapThis: t(locale, 'quote.swapThis') })),
      ],
      buttons: [[shareButton(t(locale, 'inline.howTo.tryIt'), EXAMPLE)]],
      target: 'here',
    },
  };
}

/** What was wrong with the query, as a result that explains it (never an error). */
function problemResult(locale: Locale, p: Problem, query: string): InlineResult {
  const reply = problemReply(locale, p, t(locale, 'inline.couldNotQuote'));
  return {
    id: resultId('problem', `${p.id}|${query}`),
    kind: 'problem',
    title: say(locale, p.reason).slice(0, 100),
    description: (p.hint ? say(locale, p.hint) : t(locale, 'inline.tryExample', { example: EXAMPLE })).slice(0, 200),
    reply: {
      ...reply,
      lines: [...reply.lines, line(t(locale, 'inline.example'), ' ', { kind: 'code', text: EXAMPLE })],
      buttons: [[shareButton(t(locale, 'quote.tryAgain'), query.slice(0, MAX_QUERY))]],
    },
  };
}

/** The compact public card of a quote. */
async function inlineCard(ctx: Ctx, route: Route, networks: readonly Network[], q: QuoteResponse): Promise<Reply> {
  const args = routeArgs(route);
  const [link, refresh] = await Promise.all([
    ctx.codec.link({ verb: VERBS.swapThis, args }),
    ctx.codec.encode({ verb: VERBS.refreshInline, args }),
  ]);
  const labels = routeLabels(route, networks, ctx.locale);
  return {
    title: ctx.t('quote.title', { route: routeSummary(route, networks, ctx.locale) }),
    tone: 'info',
    lines: [line(ctx.t('quote.pricesMove'))],
    fields: quoteFields(q, labels, Number(route.amount), ctx.locale).filter((f) => f.id !== undefined && COMPACT_FIELDS.has(f.id)),
    buttons: [
      [deeplinkButton(ctx.t('quote.swapThis'), `${SWAP_LINK_PREFIX}${link}`), actionButton(ctx.t('quote.refresh'), refresh)],
      [shareButton(ctx.t('quote.share'), routeLine(route))],
    ],
    target: 'here',
  };
}

/** A complete route quoted as a result: the card, or the reason it cannot be quoted. */
async function quoteResult(
  ctx: Ctx,
  route: Route,
  networks: readonly Network[],
  kind: 'quote' | 'fix' | 'route',
  query: string,
): Promise<InlineResult> {
  const check = await checkRoute(ctx, route, networks, false);
  const problem =
    check.problem ??
    (isComplete(check.route)
      ? undefined
      : problemOf('inline.incomplete', msg('problem.inline.incomplete'), { hint: msg('inline.tryExample', { example: EXAMPLE }) }));
  if (problem) return problemResult(ctx.locale, problem, query);
  const limits = await routeLimits(ctx, check.route, networks);
  const outside = limits ? amountProblem(Number(check.route.amount), limits) : undefined;
  if (outside) return problemResult(ctx.locale, outside, query);
  let q: QuoteResponse;
  try {
    q = await ctx.api.getQuote(quoteParams(check.route, undefined, undefined, walletOnlySource(ctx, networks, check.route)));
  } catch (err) {
    const recovered = recoverQuote(err, check.route, ctx.locale);
    if (recovered) return problemResult(ctx.locale, recovered.problem, query);
    if (!isServiceError(err)) throw err;
    return problemResult(
      ctx.locale,
      problemOf('inline.service', msg('problem.text', { text: errorReply(err, ctx.locale).title ?? ctx.t('error.notAnswering') }), {
        hint: msg('problem.inline.tryMinute'),
      }),
      query,
    );
  }
  const reply = await inlineCard(ctx, check.route, networks, q);
  const summary = routeSummary(check.route, networks, ctx.locale);
  const figures = (reply.fields ?? [])
    .filter((f) => f.id !== undefined && DESCRIPTION_FIELDS.has(f.id))
    .map((f) => `${f.name}: ${lineText(f.value)}`);
  return {
    id: resultId(kind, routeLine(check.route)),
    kind,
    title: kind === 'fix' ? ctx.t('inline.didYouMean', { route: summary }) : summary,
    description: figures.join(' · ') || ctx.t('inline.tapToSend'),
    reply,
  };
}

/**
 * The query with each misspelled network replaced by its nearest name; undefined when nothing was
 * corrected. Only networks: a token or amount guessed wrong would quote something else entirely.
 */
function correctedWords(words: RouteWords, networks: readonly Network[]): RouteWords | undefined {
  const fix = (raw: string | undefined): string | undefined => {
    if (raw === undefined) return undefined;
    const m = resolveNetwork(raw, networks);
    return !m.ok && m.choices.length > 0 ? m.choices[0]?.name : undefined;
  };
  const from = fix(words.from);
  const to = words.to?.length === 1 ? fix(words.to[0]) : undefined;
  if (from === undefined && to === undefined) return undefined;
  return { ...words, ...(from ? { from } : {}), ...(to ? { to: [to] } : {}) };
}

/** Common routes quoted with what the partial query gives (its amount, its token). */
async function commonRoutes(ctx: Ctx, partial: Route, networks: readonly Network[], query: string): Promise<InlineResult[]> {
  const token = (partial.sourceToken ?? partial.pendingSourceToken)?.toUpperCase();
  const known = (name: string) => networks.some((n) => n.name === name);
  const picked = COMMON_ROUTES.filter((c) => (!token || c.token === token) && known(c.from) && known(c.to)).slice(0, MAX_COMMON);
  const results = await Promise.all(
    picked.map(async (c) => {
      const route: Route = {
        amount: partial.amount ?? c.amount,
        sourceNetwork: c.from,
        sourceToken: c.token,
        destinationNetwork: c.to,
        destinationToken: c.token,
      };
      try {
        return await quoteResult(ctx, route, networks, 'route', query);
      } catch (err) {
        ctx.logger.debug({ err: asError(err) }, 'inline: a common route could not be quoted');
        return undefined;
      }
    }),
  );
  // A common route that cannot be quoted now is simply not offered.
  return results.filter((r): r is InlineResult => r !== undefined && r.kind === 'route');
}

/**
 * An inline query: the quote of what was typed, plus a corrected reading when a network was
 * misspelled; a how-to and common routes for an empty or partial query; a result that explains a
 * query that cannot be read. Answers are in the asker's language, so platforms may cache them for the asker only (personal).
 */
export async function inlineQuote(ctx: Ctx, raw: string): Promise<InlineAnswer> {
  const query = raw
    .trim()
    .replace(/^\/quote(?:@\w+)?\s*/i, '')
    .slice(0, MAX_QUERY);
  const [networks, exchanges] = await Promise.all([ctx.catalog.networks(), loadExchanges(ctx)]);
  const words = splitRouteWords(query);
  if (!words.ok)
    return { results: [problemResult(ctx.locale, words, query), howTo(ctx.locale)], personal: true, cacheSeconds: HELP_CACHE_SECONDS };
  const read = applyRouteWords({}, words.value, networks, exchanges);
  const results: InlineResult[] = [];
  if (!read.problem && isQuotable(read.route)) results.push(await quoteResult(ctx, read.route, networks, 'quote', query));
  const fixed = correctedWords(words.value, networks);
  if (fixed) {
    const again = applyRouteWords({}, fixed, networks, exchanges);
    if (!again.problem && isQuotable(again.route)) results.push(await quoteResult(ctx, again.route, networks, 'fix', query));
  }
  if (results.some((r) => r.kind === 'quote' || r.kind === 'fix')) return { results, personal: true, cacheSeconds: QUOTE_CACHE_SECONDS };
  if (read.problem && query !== '' && (isQuotable(read.route) || words.value.to !== undefined || words.value.from !== undefined)) {
    return {
      results: [...results, problemResult(ctx.locale, read.problem, query), howTo(ctx.locale)],
      personal: true,
      cacheSeconds: HELP_CACHE_SECONDS,
    };
  }
  const common = await commonRoutes(ctx, read.route, networks, query);
  return {
    results: [...results, howTo(ctx.locale), ...common],
    personal: true,
    cacheSeconds: common.length > 0 ? QUOTE_CACHE_SECONDS : HELP_CACHE_SECONDS,
  };
}

/** qi: Refresh on an inline card: the same route quoted again in place; never the wizard (no chat to ask in). */
export async function refreshInline(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const networks = await ctx.catalog.networks();
  const route = await routeFromButton(ctx, args, networks);
  if (!route) return [expired(ctx)];
  const result = await quoteResult(ctx, route, networks, 'quote', routeLine(route));
  if (result.kind === 'problem')
    return [{ ...notice(ctx.t('inline.cannotRefresh'), [line(result.title), line(result.description)], 'warning'), target: 'ephemeral' }];
  return [{ ...result.reply, mode: 'edit' }];
}

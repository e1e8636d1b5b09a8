import type { Network, QuoteResponse } from '../../layerswap/schemas.js';
import { actionButton, line, type Reply } from '../../contracts/reply.js';
import { checkAddress } from './address/index.js';
import type { Ctx } from '../kernel/context.js';
import type { Translate } from '../../i18n/index.js';
import { errorReply } from '../kernel/errors-text.js';
import { activeTokens, amountProblem, exchangeLabel, limitsLine, networkLabel, routeLimits } from '../catalog/index.js';
import { problemFrom } from '../kernel/problem.js';
import {
  checkRoute,
  exchangeName,
  exchangeNetworkChoices,
  labelOf,
  loadExchanges,
  missingField,
  offersRefuel,
  quoteParams,
  quoteReply,
  recoverQuote,
  routeKey,
  setRouteField,
  takesDepositAddress,
  type RouteCheck,
  walletOnlySource,
  type RouteExchanges,
} from '../quote/index.js';
import { askConfirm } from './confirm.js';
import { VERBS } from '../kernel/verbs.js';
import { askAddress, askRefuel, cancelButton, draftTitle, headLines, privateButton, type AskOptions } from './ask.js';
import { modeOf } from '../kernel/mode.js';
import { choiceRows, type Choice, type ChoiceField } from './choices.js';
import type { RouteField } from '../kernel/route.js';
import type { Draft } from '../kernel/stores.js';

/** Exchanges offered after the networks, marked so nobody mistakes one for a chain. */
const exchangeChoices = (list: RouteExchanges['source']): Choice[] =>
  list.map((e) => ({ label: `${exchangeLabel(e)} (exchange)`, value: e.name }));

/** The networks an exchange works with on this route (from the service), as choices in catalogue order. */
const exchangeNetworkButtons = (names: readonly string[], networks: readonly Network[]): Choice[] =>
  networks.filter((n) => names.includes(n.name)).map((n) => ({ label: networkLabel(n), value: n.name }));

/** `exchangeNets`: for a side with an exchange, the networks it works with when the service said so. */
function routeChoices(
  field: ChoiceField,
  draft: Draft,
  networks: readonly Network[],
  check: RouteCheck,
  exchanges: RouteExchanges,
  exchangeNets?: readonly string[],
): Choice[] {
  const r = draft.route;
  switch (field) {
    case 'source_network': {
      // A button never names a network the exchange refuses to withdraw on.
      if (r.sourceExchange && exchangeNets) return exchangeNetworkButtons(exchangeNets, networks);
      // With an exchange picked, the networks it could withdraw the token on (when the token is known).
      const wanted = r.sourceExchange ? r.pendingSourceToken?.toLowerCase() : undefined;
      const list = networks
        .filter((n) => n.tokens.length > 0 && (draft.kind === 'quote' || takesDepositAddress(n)))
        .filter((n) => wanted === undefined || n.tokens.some((t) => t.symbol.toLowerCase() === wanted))
        .slice()
        .sort((a, b) => (a.source_rank ?? 999) - (b.source_rank ?? 999) || a.name.localeCompare(b.name))
        .map((n) => ({ label: networkLabel(n), value: n.name }));
      return r.sourceExchange ? list : [...list, ...exchangeChoices(exchanges.source)];
    }
    case 'source_token':
      return (networks.find((n) => n.name === r.sourceNetwork)?.tokens ?? []).map((t) => ({ label: t.symbol, value: t.symbol }));
    case 'destination_network': {
      if (r.destinationExchange && exchangeNets) return exchangeNetworkButtons(exchangeNets, networks);
      const list = (check.destinations ?? []).map((d) => ({ label: networkLabel(d), value: d.name }));
      return r.destinationExchange || list.length === 0 ? list : [...list, ...exchangeChoices(exchanges.destination)];
    }
    case 'destination_token':
      return (check.destination ? activeTokens(check.destination) : []).map((t) => ({ label: t.symbol, value: t.symbol }));
  }
}

const QUESTIONS: Record<RouteField, (t: Translate, d: Draft, networks: readonly Network[], ex: RouteExchanges) => string> = {
  source_network: (t, d, _n, ex) =>
    d.route.sourceExchange
      ? t('wizard.ask.withdrawNetwork', {
          token: d.route.pendingSourceToken?.toUpperCase() ?? t('wizard.theTokens'),
          exchange: exchangeName(ex.source, d.route.sourceExchange),
        })
      : t('wizard.ask.sourceNetwork'),
  source_token: (t, d, n) => t('wizard.ask.sourceToken', { network: labelOf(n, d.route.sourceNetwork) }),
  destination_network: (t, d, _n, ex) =>
    d.route.destinationExchange
      ? t('wizard.ask.depositNetwork', {
          exchange: exchangeName(ex.destination, d.route.destinationExchange),
          token: d.route.sourceToken ?? t('wizard.tokens'),
        })
      : t('wizard.ask.destinationNetwork', { token: d.route.sourceToken ?? t('wizard.tokens') }),
  destination_token: (t, d, n) => t('wizard.ask.destinationToken', { network: labelOf(n, d.route.destinationNetwork) }),
  amount: (t, d) => t('wizard.ask.amount', { token: d.route.sourceToken ?? '' }),
};

async function askRouteField(
  ctx: Ctx,
  draft: Draft,
  field: RouteField,
  networks: readonly Network[],
  check: RouteCheck,
  opts: AskOptions,
): Promise<Reply[]> {
  draft.awaiting = field;
  await ctx.drafts.save(draft);
  const exchanges = await loadExchanges(ctx);
  const lines = [...headLines(ctx, draft, networks, opts, exchanges), line(QUESTIONS[field](ctx.t, draft, networks, exchanges))];
  const cancel = await cancelButton(ctx, draft);
  const reply: Reply = { title: draftTitle(ctx, draft), tone: opts.problem ? 'warning' : 'info', lines, target: 'here', mode: modeOf(ctx) };
  if (field === 'amount') {
    const limits = await routeLimits(
      ctx,
      draft.route,
      networks,
      draft.refuel,
      draft.kind === 'swap' ? draft.destinationAddress : undefined,
    );
    if (limits) lines.push(limitsLine(ctx.locale, limits));
    reply.prompt = {
      label: ctx.t('wizard.amountOf', { token: draft.route.sourceToken ?? ctx.t('wizard.tokens') }),
      placeholder: ctx.t('wizard.amountPlaceholder'),
      maxLength: 40,
    };
    reply.buttons = [[cancel, ...privateButton(ctx, draft)]];
    return [reply];
  }
  const side = field === 'source_network' ? 'source' : field === 'destination_network' ? 'destination' : undefined;
  const exchangeNets = side ? await exchangeNetworkChoices(ctx, draft.route, side) : undefined;
  let choices = routeChoices(field, draft, networks, check, exchanges, exchangeNets);
  const suggested = opts.problem?.field === field ? (opts.problem.choices ?? []) : [];
  if (suggested.length > 0) {
    // "Did you mean" choices first, then the rest.
    choices = [...choices.filter((c) => suggested.includes(c.value)), ...choices.filter((c) => !suggested.includes(c.value))];
  }
  if (choices.length === 1 && choices[0] && (field === 'source_token' || field === 'destination_token') && opts.problem?.field !== field)
    return takeOnlyToken(ctx, draft, field, choices[0].value, networks, exchanges, opts);
  if (choices.length === 0) lines.push(line(ctx.t('wizard.nothingToChoose')));
  else if (choices.length > 12) lines.push(line(ctx.t('wizard.orTypeName')));
  reply.buttons = await choiceRows(ctx, draft.id, field, choices, opts.page ?? 0, [cancel]);
  return [reply];
}

/**
 * A token step with one possible answer is not asked: the token is taken, and the next message
 * (the next question, the quote or the confirmation) says so first.
 */
async function takeOnlyToken(
  ctx: Ctx,
  draft: Draft,
  field: 'source_token' | 'destination_token',
  token: string,
  networks: readonly Network[],
  exchanges: RouteExchanges,
  opts: AskOptions,
): Promise<Reply[]> {
  const u = setRouteField(draft.route, field, token, networks, exchanges);
  // Never without an answer: a refused one goes back to asking, with the problem said.
  if (u.problem) return advance(ctx, draft, { ...opts, problem: u.problem });
  draft.route = u.route;
  const network = labelOf(networks, field === 'source_token' ? draft.route.sourceNetwork : draft.route.destinationNetwork);
  const said = line(ctx.t(field === 'source_token' ? 'wizard.onlyToken.source' : 'wizard.onlyToken.destination', { token, network }));
  const next = await advance(ctx, draft, opts.note ? { note: opts.note } : {});
  return next.map((r, i) => (i === 0 ? { ...r, lines: [said, ...r.lines] } : r));
}

/**
 * An address typed on the /swap line becomes the destination address once its network is known,
 * after the same check a typed answer gets; a wrong one is reported and asked for.
 */
function takeTypedAddress(draft: Draft, networks: readonly Network[], shown: AskOptions): void {
  const typed = draft.route.pendingDestinationAddress;
  const network = networks.find((n) => n.name === draft.route.destinationNetwork);
  if (typed === undefined || !network) return;
  delete draft.route.pendingDestinationAddress;
  if (draft.kind !== 'swap' || draft.destinationAddress) return;
  const checked = checkAddress(typed, network);
  if (checked.ok) draft.destinationAddress = checked.value;
  else shown.problem ??= problemFrom(checked, 'destination_address');
}

/**
 * Moves a draft one step on: checks the route against the service (cached), asks the next missing
 * thing (route fields, then for a swap the addresses and refuel), or finishes (the quote card, or
 * the swap's confirmation card). Saves the draft whenever it asks; a finished quote drops it.
 */
export async function advance(ctx: Ctx, draft: Draft, opts: AskOptions = {}): Promise<Reply[]> {
  const networks = await ctx.catalog.networks();
  const check = await checkRoute(ctx, draft.route, networks, draft.kind === 'swap');
  draft.route = check.route;
  const shown: AskOptions = { ...opts, problem: opts.problem ?? check.problem };
  let field = missingField(draft.route);
  if (!field && draft.route.amount !== undefined && (!shown.problem || shown.problem.field !== 'amount')) {
    // Outside the route's limits: say which limit before asking for a quote.
    const limits = await routeLimits(
      ctx,
      draft.route,
      networks,
      draft.refuel,
      draft.kind === 'swap' ? draft.destinationAddress : undefined,
    );
    const outside = limits ? amountProblem(Number(draft.route.amount), limits) : undefined;
    if (outside) {
      delete draft.route.amount;
      shown.problem = outside;
      field = 'amount';
    }
  }
  if (field) return askRouteField(ctx, draft, field, networks, check, shown);
  takeTypedAddress(draft, networks, shown);

  try {
    if (draft.kind === 'quote') return await finishQuote(ctx, draft, networks);
    // A swap's route is quoted before any address is asked (the service checks amount and route);
    // the quote is kept for the confirmation card when nothing it depends on changes on the way.
    const key = routeKey(draft.route, draft.refuel);
    let quote: QuoteResponse | undefined;
    if (draft.checked !== key) {
      quote = await ctx.api.getQuote(
        quoteParams(draft.route, draft.refuel, draft.destinationAddress, walletOnlySource(ctx, networks, draft.route)),
      );
      draft.checked = key;
      draft.quoted = { receive: quote.quote.receive_amount, address: draft.destinationAddress ?? '' };
    }
    if (!draft.destinationAddress) return await askAddress(ctx, draft, 'destination_address', networks, shown);
    if (!draft.refundAddress && !draft.refundSkipped) return await askAddress(ctx, draft, 'refund_address', networks, shown);
    if (draft.refuel === undefined && offersRefuel(check.destination, draft.route)) return await askRefuel(ctx, draft, networks, shown);
    return await askConfirm(ctx, draft, networks, check, shown, quote);
  } catch (err) {
    const recovered = recoverQuote(err, draft.route, ctx.locale);
    if (recovered) {
      draft.route = recovered.route;
      delete draft.checked;
      return advance(ctx, draft, { ...opts, problem: recovered.problem });
    }
    // The service is down or refused for another reason: keep everything, offer to try again.
    await ctx.drafts.save(draft);
    return [
      {
        ...errorReply(err, ctx.locale),
        buttons: [
          [
            actionButton(ctx.t('quote.tryAgain'), await ctx.codec.encode({ verb: VERBS.resume, args: [draft.id] })),
            await cancelButton(ctx, draft),
          ],
        ],
      },
    ];
  }
}

/** The last step of a step-by-step /quote: the card; the draft is done. */
async function finishQuote(ctx: Ctx, draft: Draft, networks: readonly Network[]): Promise<Reply[]> {
  const card = await quoteReply(ctx, draft.route, networks);
  // Only this draft: a quote never drops someone's unfinished swap.
  const current = await ctx.drafts.get(draft.platform, draft.userId);
  if (current?.id === draft.id) await ctx.drafts.delete(draft.platform, draft.userId);
  return [{ ...card, mode: modeOf(ctx) }];
}

import type { Network } from '../../layerswap/schemas.js';
import { actionButton, line, type Reply } from '../reply.js';
import type { Ctx } from '../context.js';
import type { Draft } from '../drafts.js';
import { errorReply } from '../errors-text.js';
import { networkLabel } from '../parse/network.js';
import { choiceRows, type Choice, type ChoiceField } from './choices.js';
import { askConfirm } from './confirm.js';
import { askAddress, askRefuel } from './questions.js';
import { finishQuote, quoteParams } from './quote-step.js';
import { clearField, quoteProblem } from './quote-problem.js';
import { activeTokens, checkRoute, offersRefuel, takesDepositAddress, type RouteCheck } from './route-check.js';
import { missingField, type RouteField } from './route.js';
import { labelOf, routeKey } from './summary.js';
import { cancelButton, draftTitle, headLines, modeOf, privateButton, type AdvanceOptions } from './ui.js';

function routeChoices(field: ChoiceField, draft: Draft, networks: readonly Network[], check: RouteCheck): Choice[] {
  const r = draft.route;
  switch (field) {
    case 'source_network':
      return networks
        .filter((n) => n.tokens.length > 0 && (draft.kind === 'quote' || takesDepositAddress(n)))
        .slice()
        .sort((a, b) => (a.source_rank ?? 999) - (b.source_rank ?? 999) || a.name.localeCompare(b.name))
        .map((n) => ({ label: networkLabel(n), value: n.name }));
    case 'source_token':
      return (networks.find((n) => n.name === r.sourceNetwork)?.tokens ?? []).map((t) => ({ label: t.symbol, value: t.symbol }));
    case 'destination_network':
      return (check.destinations ?? []).map((d) => ({ label: networkLabel(d), value: d.name }));
    case 'destination_token':
      return (check.destination ? activeTokens(check.destination) : []).map((t) => ({ label: t.symbol, value: t.symbol }));
  }
}

const QUESTIONS: Record<RouteField, (d: Draft, networks: readonly Network[]) => string> = {
  source_network: () => 'Which network do you send from?',
  source_token: (d, n) => `Which token do you send from ${labelOf(n, d.route.sourceNetwork)}?`,
  destination_network: (d) => `Where should the ${d.route.sourceToken ?? 'tokens'} go?`,
  destination_token: (d, n) => `Which token do you want to receive on ${labelOf(n, d.route.destinationNetwork)}?`,
  amount: (d) => `How much ${d.route.sourceToken ?? ''} do you want to send? Type the amount, like 100 or 0.5.`,
};

async function askRouteField(ctx: Ctx, draft: Draft, field: RouteField, networks: readonly Network[], check: RouteCheck, opts: AdvanceOptions): Promise<Reply[]> {
  draft.awaiting = field;
  await ctx.drafts.save(draft);
  const lines = [...headLines(draft, networks, opts), line(QUESTIONS[field](draft, networks))];
  const cancel = await cancelButton(ctx, draft);
  const reply: Reply = { title: draftTitle(draft), tone: opts.problem ? 'warning' : 'info', lines, target: 'here', mode: modeOf(ctx) };
  if (field === 'amount') {
    reply.prompt = { label: `Amount of ${draft.route.sourceToken ?? 'tokens'}`, placeholder: 'e.g. 100', maxLength: 40 };
    reply.buttons = [[cancel, ...privateButton(ctx, draft)]];
    return [reply];
  }
  let choices = routeChoices(field, draft, networks, check);
  const suggested = opts.problem?.field === field ? opts.problem.choices ?? [] : [];
  if (suggested.length > 0) {
    // "Did you mean" choices first, then the rest.
    choices = [...choices.filter((c) => suggested.includes(c.value)), ...choices.filter((c) => !suggested.includes(c.value))];
  }
  if (choices.length === 0) lines.push(line('Nothing to choose from right now. Try another option earlier in the route, or /cancel.'));
  else if (choices.length > 12) lines.push(line('Or type its name.'));
  reply.buttons = await choiceRows(ctx, draft.id, field, choices, opts.page ?? 0, [cancel]);
  return [reply];
}

/**
 * Moves a draft one step on: checks the route against the service (cached), asks the next missing
 * thing (route fields, then for a swap the addresses and refuel), or finishes (the quote card, or
 * the swap's confirmation card). Saves the draft whenever it asks; a finished quote drops it.
 */
export async function advance(ctx: Ctx, draft: Draft, opts: AdvanceOptions = {}): Promise<Reply[]> {
  const networks = await ctx.catalog.networks();
  const check = await checkRoute(ctx, draft.route, networks, draft.kind === 'swap');
  draft.route = check.route;
  const shown: AdvanceOptions = { ...opts, problem: opts.problem ?? check.problem };
  const field = missingField(draft.route);
  if (field) return askRouteField(ctx, draft, field, networks, check, shown);

  try {
    if (draft.kind === 'quote') return await finishQuote(ctx, draft, networks);
    // A swap's amount is checked against the route's limits before any address is asked.
    if (draft.checked !== routeKey(draft.route)) {
      await ctx.api.getQuote(quoteParams(draft.route, draft.refuel));
      draft.checked = routeKey(draft.route);
    }
    if (!draft.destinationAddress) return await askAddress(ctx, draft, 'destination_address', networks, shown);
    if (!draft.refundAddress && !draft.refundSkipped) return await askAddress(ctx, draft, 'refund_address', networks, shown);
    if (draft.refuel === undefined && offersRefuel(check.destination, draft.route.destinationToken)) return await askRefuel(ctx, draft, networks, shown);
    return await askConfirm(ctx, draft, networks, check, shown);
  } catch (err) {
    const p = quoteProblem(err);
    if (p) {
      draft.route = clearField(draft.route, p.field);
      delete draft.checked;
      return advance(ctx, draft, { ...opts, problem: p });
    }
    // The service is down or refused for another reason: keep everything, offer to try again.
    await ctx.drafts.save(draft);
    return [{ ...errorReply(err), buttons: [[actionButton('Try again', await ctx.codec.encode({ verb: 'rs', args: [draft.id] })), await cancelButton(ctx, draft)]] }];
  }
}

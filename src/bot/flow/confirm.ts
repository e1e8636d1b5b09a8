import type { Network } from '../../layerswap/schemas.js';
import { quoteFields } from '../cards/quote.js';
import type { Ctx } from '../context.js';
import type { Draft } from '../drafts.js';
import { actionButton, code, italic, line, type Field, type Reply } from '../../contracts/reply.js';
import { quoteParams, routeLabels } from './quote-step.js';
import { offersRefuel, type RouteCheck } from './route-check.js';
import { headLines, modeOf, type AdvanceOptions } from './ui.js';

/**
 * The last look before creating the swap, with a fresh quote: amounts, fees, addresses, refund
 * and refuel choices, and Confirm / Cancel. Quote errors propagate to the caller (the wizard).
 */
export async function askConfirm(ctx: Ctx, draft: Draft, networks: readonly Network[], check: RouteCheck, opts: AdvanceOptions): Promise<Reply[]> {
  const q = await ctx.api.getQuote(quoteParams(draft.route, draft.refuel));
  draft.awaiting = 'confirm';
  await ctx.drafts.save(draft);
  const fields: Field[] = quoteFields(q, routeLabels(draft.route, networks), Number(draft.route.amount));
  fields.push({ name: 'To address', value: [code(draft.destinationAddress ?? '')] });
  fields.push({ name: 'Refund address', value: draft.refundAddress ? [code(draft.refundAddress)] : line('none: no automatic refund if the swap fails') });
  // With refuel on, the quote's own Refuel field shows what arrives.
  if (!draft.refuel && offersRefuel(check.destination, draft.route.destinationToken)) fields.push({ name: 'Refuel', value: line('no'), inline: true });
  const lines = headLines(draft, networks, opts);
  lines.push(line('Check everything. Confirm creates the swap and sends you the deposit address privately.'));
  lines.push(line(italic('The amount received is set when the swap runs; the figures above are the current quote.')));
  const [confirm, cancel] = await Promise.all([
    ctx.codec.encode({ verb: 'cf', args: [draft.id] }),
    ctx.codec.encode({ verb: 'cx', args: [draft.id] }),
  ]);
  return [{
    title: 'Confirm your swap',
    tone: 'warning',
    lines,
    fields,
    buttons: [[actionButton('Confirm', confirm), actionButton('Cancel', cancel)]],
    target: 'here',
    mode: modeOf(ctx),
  }];
}

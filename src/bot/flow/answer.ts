import { checkAddress } from '../address/index.js';
import type { Ctx } from '../context.js';
import type { Draft } from '../drafts.js';
import { line, type Reply } from '../../contracts/reply.js';
import { notice } from '../replies.js';
import { setRouteField, type RouteField } from './route.js';
import { loadExchanges } from './route-check.js';
import { advance } from './wizard.js';

const ROUTE_FIELDS: readonly string[] = ['source_network', 'source_token', 'destination_network', 'destination_token', 'amount'];
const isRouteField = (s: string | undefined): s is RouteField => s !== undefined && ROUTE_FIELDS.includes(s);

/** A route field answered by text or by a button: the draft keeps everything else either way. */
export async function answerRouteField(ctx: Ctx, draft: Draft, field: RouteField, value: string): Promise<Reply[]> {
  const networks = await ctx.catalog.networks();
  const u = setRouteField(draft.route, field, value, networks, await loadExchanges(ctx));
  draft.route = u.route;
  return advance(ctx, draft, u.problem ? { problem: u.problem } : {});
}

/** Plain text sent while a draft waits on a question. */
export async function answerText(ctx: Ctx, draft: Draft, text: string): Promise<Reply[]> {
  const step = draft.awaiting;
  if (isRouteField(step)) return answerRouteField(ctx, draft, step, text);
  if (step === 'destination_address' || step === 'refund_address') {
    if (step === 'refund_address' && /^(skip|none|no)$/i.test(text.trim())) return skipRefund(ctx, draft);
    const networks = await ctx.catalog.networks();
    const name = step === 'destination_address' ? draft.route.destinationNetwork : draft.route.sourceNetwork;
    const network = networks.find((n) => n.name === name);
    if (!network) return advance(ctx, draft);
    const checked = checkAddress(text, network);
    if (!checked.ok) return advance(ctx, draft, { problem: { field: step, reason: checked.reason, ...(checked.hint ? { hint: checked.hint } : {}) } });
    if (step === 'destination_address') draft.destinationAddress = checked.value;
    else draft.refundAddress = checked.value;
    return advance(ctx, draft);
  }
  if (step === 'refuel') {
    if (/^(y|yes|on|refuel)$/i.test(text.trim())) return setRefuel(ctx, draft, true);
    if (/^(n|no|off)$/i.test(text.trim())) return setRefuel(ctx, draft, false);
    return advance(ctx, draft, { problem: { reason: 'Answer yes or no, or use the buttons.' } });
  }
  if (step === 'confirm') return [notice('Waiting for your confirmation', [line('Press Confirm above to create the swap, or /cancel to drop it.')])];
  return advance(ctx, draft);
}

export async function skipRefund(ctx: Ctx, draft: Draft): Promise<Reply[]> {
  draft.refundSkipped = true;
  delete draft.refundAddress;
  return advance(ctx, draft);
}

export async function setRefuel(ctx: Ctx, draft: Draft, on: boolean): Promise<Reply[]> {
  draft.refuel = on;
  delete draft.checked;
  return advance(ctx, draft);
}

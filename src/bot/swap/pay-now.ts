import type { Reply } from '../../contracts/reply.js';
import type { Ctx } from '../kernel/context.js';
import type { Draft } from '../kernel/stores.js';
import { expired } from '../kernel/replies.js';
import { msg, problemOf } from '../kernel/problem.js';
import { WALLET_QUOTE, quoteParams } from '../quote/index.js';
import { advance } from './advance.js';
import { createFromDraft } from './create.js';
import { payNowOffered } from './confirm.js';

/**
 * "Pay from wallet" at the confirm step (issue 35; offered by payNowOffered, confirm.ts). Creates
 * the swap at once when the wallet flow's quote receives at least what the confirmation showed
 * (the figures the person agreed to); otherwise the confirmation again with the wallet flow's
 * figures, and its Confirm creates it. Creation is the Confirm button's path and idempotency.
 */
export async function payNow(ctx: Ctx, draft: Draft): Promise<Reply[]> {
  const networks = await ctx.catalog.networks();
  if (!payNowOffered(ctx, networks, draft.route)) return [expired(ctx)];
  delete draft.gasless;
  draft.wallet = true;
  // A refused or failed quote: the wizard quotes again and says why (advance.ts).
  const q = await ctx.api
    .getQuote({ ...quoteParams(draft.route, draft.refuel, draft.destinationAddress), ...WALLET_QUOTE })
    .catch(() => undefined);
  const shown = draft.quoted?.receive;
  if (!q || shown === undefined) return advance(ctx, draft);
  // Less than the confirmation showed: nothing is created on figures the person did not see.
  if (q.quote.receive_amount < shown) return advance(ctx, draft, { problem: problemOf('pay_refigured', msg('confirm.pay.refigured')) });
  return createFromDraft(ctx, draft);
}

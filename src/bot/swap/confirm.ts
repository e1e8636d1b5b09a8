import type { Network, QuoteResponse } from '../../layerswap/schemas.js';
import { actionButton, bold, code, italic, line, type Button, type Field, type Reply } from '../../contracts/reply.js';
import { quoteMoney } from '../money/quote-money.js';
import { breakdownLines } from '../money/words.js';
import {
  GASLESS_QUOTE,
  gaslessOffered,
  observedTimes,
  offersRefuel,
  quoteFields,
  quoteParams,
  routeLabels,
  type RouteCheck,
  WALLET_QUOTE,
  walletOffered,
  walletOnlySource,
} from '../quote/index.js';
import type { Ctx } from '../kernel/context.js';
import { VERBS } from '../kernel/verbs.js';
import { tokenAmount } from '../kernel/format.js';
import { headLines, type AskOptions } from './ask.js';
import { modeOf } from '../kernel/mode.js';
import type { Draft } from '../kernel/stores.js';
import type { Route } from '../kernel/route.js';
import { trustlineLines } from './trustline.js';
import { payFamily } from '../../contracts/pay-families.js';

/**
 * The last look before creating the swap: amounts, fees, addresses, refund and refuel choices,
 * and Confirm / Cancel. `fetched` is a quote of this very route, refuel and destination address
 * from this same step; without one a fresh quote is fetched, with the address. Quote errors propagate to the caller (the wizard).
 */
export async function askConfirm(
  ctx: Ctx,
  draft: Draft,
  networks: readonly Network[],
  check: RouteCheck,
  opts: AskOptions,
  fetched?: QuoteResponse,
): Promise<Reply[]> {
  // Quoted with the destination address, as Layerswap's app does once it is known (fees can depend
  // on it); `fetched` was (advance.ts). Said when that moved the figures of the address-less quote.
  // "Pay without gas" (gasless.ts of the sandbox, docs/pay.md): quoted gasless too, since its fees differ.
  const offered = gaslessOffered(ctx, networks, draft.route);
  const gasless = offered && draft.gasless === true;
  if (!gasless) delete draft.gasless;
  // "Pay from my wallet" (Solana, docs/pay.md): no deposit address; the wallet sends Layerswap's transaction.
  // A wallet-only source (TON) has no deposit address flow: paid from the wallet, with no toggle back.
  const walletOffer = walletOffered(ctx, networks, draft.route);
  const walletOnly = walletOnlySource(ctx, networks, draft.route);
  const payNow = payNowOffered(ctx, networks, draft.route);
  const wallet = (walletOffer && walletOnly) || ((walletOffer || payNow) && draft.wallet === true);
  if (wallet) draft.wallet = true;
  else delete draft.wallet;
  const params = {
    ...quoteParams(draft.route, draft.refuel, draft.destinationAddress),
    ...(gasless ? GASLESS_QUOTE : {}),
    ...(wallet ? WALLET_QUOTE : {}),
  };
  const q = (gasless || wallet ? undefined : fetched) ?? (await ctx.api.getQuote(params));
  const address = draft.destinationAddress ?? '';
  const before = draft.quoted && draft.quoted.address !== address ? draft.quoted.receive : undefined;
  const changed = before !== undefined && before !== q.quote.receive_amount;
  draft.quoted = { receive: q.quote.receive_amount, address };
  draft.awaiting = 'confirm';
  await ctx.drafts.save(draft);
  const fields: Field[] = quoteFields(
    q,
    routeLabels(draft.route, networks, ctx.locale),
    Number(draft.route.amount),
    ctx.locale,
    await observedTimes(ctx, draft.route),
  );
  fields.push({ name: ctx.t('confirm.toAddress'), value: [code(draft.destinationAddress ?? '')] });
  fields.push({
    name: ctx.t('confirm.refundAddress'),
    value: draft.refundAddress ? [code(draft.refundAddress)] : line(ctx.t('confirm.noRefund')),
  });
  // With refuel on, the quote's own Refuel field shows what arrives.
  if (!draft.refuel && offersRefuel(check.destination, draft.route))
    fields.push({ name: ctx.t('confirm.refuel'), value: line(ctx.t('confirm.no')), inline: true });
  const lines = headLines(ctx, draft, networks, opts);
  if (changed) {
    const token = { symbol: draft.route.destinationToken ?? '', decimals: q.quote.destination_token?.decimals ?? 8 };
    const vars = { before: tokenAmount(before, token), now: tokenAmount(q.quote.receive_amount, token) };
    lines.push(line(bold(ctx.t('confirm.requoted', vars))));
  }
  // How it adds up: the amount sent − each deduction = what arrives, as the receipt will say.
  const breakdown = breakdownLines(
    quoteMoney(q, Number(draft.route.amount), routeLabels(draft.route, networks, ctx.locale)),
    ctx.locale,
    false,
  );
  if (breakdown.length > 0) lines.push(line(bold(ctx.t('money.quote.breakdown'))), ...breakdown);
  const destination = networks.find((n) => n.name === draft.route.destinationNetwork);
  lines.push(...trustlineLines(ctx.t, destination, draft.route.destinationToken, address));
  lines.push(line(gasless ? ctx.t('confirm.gasless.check') : wallet ? ctx.t('confirm.wallet.check') : ctx.t('confirm.check')));
  lines.push(line(italic(ctx.t('confirm.figures'))));
  const [confirm, toggle, cancel] = await Promise.all([
    ctx.codec.encode({ verb: VERBS.confirm, args: [draft.id] }),
    ctx.codec.encode({ verb: VERBS.confirm, args: [draft.id, gasless || wallet ? 'address' : walletOffer ? 'wallet' : 'gasless'] }),
    ctx.codec.encode({ verb: VERBS.cancel, args: [draft.id] }),
  ]);
  const buttons = [[actionButton(ctx.t('confirm.confirm'), confirm), actionButton(ctx.t('wizard.cancel'), cancel)]];
  if (payNow && !gasless && !wallet) buttons.unshift([await payNowButton(ctx, draft.id)]);
  // Paying from a wallet (Solana's toggle, EVM's Pay from wallet) goes back to the deposit address
  // only; a wallet-only source (TON) has nowhere to go back to.
  if (wallet) {
    if (!walletOnly) buttons.push([actionButton(ctx.t('confirm.gasless.off'), toggle)]);
  } else if (offered) buttons.push([actionButton(ctx.t(gasless ? 'confirm.gasless.off' : 'confirm.gasless.on'), toggle)]);
  else if (walletOffer) buttons.push([actionButton(ctx.t('confirm.wallet.on'), toggle)]);
  return [
    {
      title: ctx.t('confirm.title'),
      tone: 'warning',
      lines,
      fields,
      buttons,
      target: 'here',
      mode: modeOf(ctx),
    },
  ];
}

/**
 * "Pay from wallet" at the confirm step (issue 35): one tap from the confirmation to the private
 * deposit card, whose own Pay from wallet button (a Telegram Mini App, a Discord link, the printed
 * URL: the adapters map it) opens the pay page. The swap is created in the wallet flow
 * (use_deposit_address=false): the page sends the swap's own `transfer` action, and the card shows
 * no address to copy. Offered only in a private chat (a group keeps the plain Confirm), to the
 * draft's own user (drafts are per user), for a source whose family the page pays so (EVM:
 * contracts/pay-families.ts; Solana's and TON's confirmation has its own wallet choice), without an exchange.
 */
export function payNowOffered(ctx: Pick<Ctx, 'payLinks' | 'incoming'>, networks: readonly Network[], route: Route): boolean {
  if (!ctx.payLinks || route.sourceExchange || ctx.incoming.chatKind !== 'private') return false;
  return payFamily(networks.find((n) => n.name === route.sourceNetwork)?.type)?.atConfirm === 'payNow';
}

/** The one tap to the wallet: creates the swap in the wallet flow (pay-now.ts). */
async function payNowButton(ctx: Ctx, draftId: string): Promise<Button> {
  return actionButton(ctx.t('pay.button'), await ctx.codec.encode({ verb: VERBS.confirm, args: [draftId, 'pay'] }));
}

import { loadDepositActions } from '../../layerswap/deposit-actions.js';
import type { DepositAction, SwapDetails } from '../../layerswap/schemas.js';
import { depositCards, depositPayload } from './card.js';
import { depositCardAfter } from './lifecycle.js';
import { shortId } from '../kernel/format.js';
import { phaseOfSwap } from '../../layerswap/phase.js';
import { inlineAction } from '../kernel/actions.js';
import { VERBS } from '../kernel/verbs.js';
import type { Ctx } from '../kernel/context.js';
import { actionButton, code, deeplinkButton, line, type Button, type Reply } from '../../contracts/reply.js';
import { notice } from '../kernel/replies.js';
import { asError } from '../../log.js';
import type { CreatorNotes } from '../../contracts/tracking.js';
import { sightingOf } from '../../contracts/chain.js';
import { pagePaysSwap } from '../../contracts/pay-families.js';

/**
 * A swap's deposit details for its creator, wherever they are asked for (after Confirm, a repeated
 * Confirm, /status, the dep_ deep link, the Deposit details button). What the create answer lacked
 * is loaded: the swap from GET /swaps/{id}, the deposit actions from GET /swaps/{id}/deposit_actions
 * (the official app's main source). Callers check that the asker created the swap; every reply
 * here goes privately ('dm'), so none can land in a group.
 */

/** The Deposit details button: re-sends the card to the swap's creator. */
const depositAction = (swapId: string): string => inlineAction(VERBS.depositDetails, swapId);

/**
 * Whether the swap still waits for its deposit (created / user_transfer_pending, no deposit
 * transaction listed): the only time its deposit details are shown. Once a deposit is seen the
 * card says so instead, whatever the lagging status says (layerswap/phase.ts).
 */
const waitsForDeposit = (details: SwapDetails): boolean => phaseOfSwap(details).kind === 'waiting';

/**
 * Whether the deposit address may be shown (again): only while the swap waits for its deposit and
 * nothing says it was paid: not the service, not the chain (a sighting of the swap's own token),
 * not tracking's earlier sighting, not the creator's own "I've sent it".
 */
export function showsDepositAddress(details: SwapDetails, evidence: { seen?: boolean; notes?: CreatorNotes }): boolean {
  if (!waitsForDeposit(details) || evidence.seen === true || evidence.notes?.claim) return false;
  const c = sightingOf(details);
  return !(c && (c.verdict === 'ok' || c.verdict === 'less' || c.verdict === 'more'));
}

/** The swap has what a deposit card needs to name: the source network and token. */
const hasRoute = (d: SwapDetails): boolean => Boolean(d.swap.source_network && d.swap.source_token);

/** Loads what is missing; undefined parts could not be loaded. Never throws. */
async function load(
  ctx: Ctx,
  swapId: string,
  known: SwapDetails | undefined,
): Promise<{ details?: SwapDetails; actions?: DepositAction[] }> {
  let details = known && hasRoute(known) ? known : undefined;
  if (!details) {
    details = await ctx.api.getSwap(swapId, { exclude_deposit_actions: true }).catch((err: unknown) => {
      ctx.logger.warn({ err: asError(err), swapId }, 'could not load a swap for its deposit details');
      return undefined;
    });
  }
  const given = known?.deposit_actions ?? undefined;
  if (given && given.length > 0) return { ...(details ? { details } : {}), actions: given };
  // Only worth asking while the swap waits for a deposit (or when we do not know).
  if (details && !waitsForDeposit(details)) return { details };
  const actions = await loadDepositActions(ctx.api, swapId).catch((err: unknown) => {
    ctx.logger.warn({ err: asError(err), swapId }, 'could not load deposit actions');
    return undefined;
  });
  return { ...(details ? { details } : {}), ...(actions && actions.length > 0 ? { actions } : {}) };
}

/**
 * The creator's deposit card, or a private note that says why there is none: the deposit was
 * already seen, or the details could not be loaded (with the swap id and a button to try again,
 * and never a guessed address).
 */
export async function depositReplies(ctx: Ctx, swapId: string, known?: SwapDetails): Promise<Reply[]> {
  const [{ details, actions }, evidence] = await Promise.all([load(ctx, swapId, known), depositEvidence(ctx, swapId)]);
  if (details && !showsDepositAddress(details, evidence)) {
    // The deposit card in its later state (seen, said sent, confirmed, closed): never the address again.
    const after = depositCardAfter(details, ctx.now(), ctx.locale, evidence.notes);
    return [
      after
        ? { ...after, dmFallback: privateLink(ctx, swapId) }
        : {
            ...notice(ctx.t('deposit.seen.title', { id: shortId(swapId) }), [
              line(ctx.t('deposit.seen.text')),
              line(ctx.t('deposit.seen.status'), ' ', code(`/status ${swapId}`)),
            ]),
            target: 'dm',
            dmFallback: privateLink(ctx, swapId),
          },
    ];
  }
  if (!details || !actions) {
    return [
      {
        ...notice(
          ctx.t('deposit.notLoaded.title', { id: shortId(swapId) }),
          [
            line(ctx.t('deposit.swapId'), ' ', code(swapId)),
            line(ctx.t('deposit.notLoaded.text')),
            line(ctx.t('deposit.notLoaded.retry', { button: ctx.t('deposit.detailsButton') }), ' ', code(`/status ${swapId}`)),
          ],
          'warning',
        ),
        buttons: [[actionButton(ctx.t('deposit.detailsButton'), depositAction(swapId))]],
        target: 'dm',
        dmFallback: privateLink(ctx, swapId),
      },
    ];
  }
  // One self-contained card (with its QR) where the platform can show one (Discord Components V2).
  const payButton = payable(ctx, details);
  const cards = (await depositCards(details, ctx.now(), actions, ctx.locale, payButton)).map((r) => ({ ...r, layout: 'card' as const }));
  return payButton ? withPayButton(ctx, details, cards) : cards;
}

/**
 * "Pay from wallet" on the creator's card (callers check the creator; the card goes privately),
 * when the pay page is configured and pays this swap (contracts/pay-families.ts): EVM, and Solana
 * and TON when the swap is a wallet transfer (the page sends only Layerswap's own transaction or
 * message, which a deposit-address swap does not have).
 */
function payable(ctx: Ctx, details: SwapDetails): boolean {
  return !!ctx.payLinks && pagePaysSwap(details.swap.source_network?.type, details.swap.use_deposit_address);
}

function withPayButton(ctx: Ctx, details: SwapDetails, cards: Reply[]): Reply[] {
  const [card, ...rest] = cards;
  if (!card || !ctx.payLinks) return cards;
  const link = ctx.payLinks.forCreator(ctx.incoming.platform, ctx.incoming.userId, details.swap.id);
  const pay: Button = { kind: link.kind, label: ctx.t('pay.button'), url: link.url };
  return [{ ...card, buttons: [[pay], ...(card.buttons ?? [])] }, ...rest];
}

/** What a group sees when the private message cannot be delivered: a way to the private chat, nothing more. */
function privateLink(ctx: Ctx, swapId: string): Reply {
  return {
    title: ctx.t('sent.private.title'),
    tone: 'warning',
    lines: [line(ctx.t('deposit.private.text'))],
    buttons: [[deeplinkButton(ctx.t('deposit.getDetails'), depositPayload(swapId))]],
    target: 'here',
  };
}

/**
 * What tracking knows beside the service's answer: it saw the deposit before (the service may have
 * gone back since), and what the creator told the bot ("I've sent it", the refund address or none).
 * Nothing when tracking cannot tell (then the service's answer alone decides).
 */
export async function depositEvidence(ctx: Ctx, swapId: string): Promise<{ seen: boolean; notes: CreatorNotes }> {
  const [seen, notes] = await Promise.all([
    ctx.tracking.depositSeen?.(swapId).catch(() => false) ?? false,
    ctx.tracking.notes?.(swapId).catch(() => ({})) ?? {},
  ]);
  return { seen, notes };
}

/** Whether this user created the swap (history knows the creators of swaps made through the bot). */
export const isCreator = async (ctx: Ctx, swapId: string): Promise<boolean> =>
  (await ctx.history.entry(ctx.incoming.platform, ctx.incoming.userId, swapId)) !== undefined;

import type { Network } from '../../layerswap/schemas.js';
import { actionButton, bold, deeplinkButton, line, text, type Button, type Line, type Reply } from '../../contracts/reply.js';
import type { Ctx } from '../kernel/context.js';
import { modeOf } from '../kernel/mode.js';
import { problemLine, type Problem } from '../kernel/problem.js';
import { exchangeName, labelOf, routeSummary, type RouteExchanges } from '../quote/index.js';
import { VERBS } from '../kernel/verbs.js';
import { inlineAction } from '../kernel/actions.js';
import { savedLabel } from '../addresses/index.js';
import { maskAddress } from '../kernel/format.js';
import type { Draft } from '../kernel/stores.js';

/** How the next question is shown: what was wrong with the last answer, a note, a page of choices. */
export interface AskOptions {
  problem?: Problem;
  /** Lines shown before everything else (e.g. "your earlier draft was dropped"). */
  note?: Line[];
  page?: number;
}

export const draftTitle = (ctx: Ctx, d: Draft): string => ctx.t(d.kind === 'swap' ? 'wizard.newSwap' : 'wizard.newQuote');
export const cancelButton = async (ctx: Ctx, d: Draft): Promise<Button> =>
  actionButton(ctx.t('wizard.cancel'), await ctx.codec.encode({ verb: VERBS.cancel, args: [d.id] }));
/** Group chats get a way to continue privately (addresses are better typed there). */
export const privateButton = (ctx: Ctx, d: Draft): Button[] =>
  ctx.incoming.chatKind === 'private' ? [] : [deeplinkButton(ctx.t('wizard.continuePrivately'), `d_${d.id}`)];

/** The progress line every wizard question starts with. */
function progressLine(ctx: Ctx, draft: Draft, networks: readonly Network[], exchanges?: RouteExchanges): Line {
  const r = draft.route;
  const started = r.sourceNetwork || r.amount || r.pendingSourceToken || r.destinationNetwork || r.sourceExchange || r.destinationExchange;
  return started
    ? line(bold(ctx.t('wizard.soFar')), ' ', text(routeSummary(r, networks, ctx.locale, exchanges)))
    : line(ctx.t('wizard.stepByStep'));
}

/** Note, problem and progress: the head of every wizard message. */
export function headLines(ctx: Ctx, draft: Draft, networks: readonly Network[], opts: AskOptions, exchanges?: RouteExchanges): Line[] {
  const lines: Line[] = [...(opts.note ?? [])];
  if (opts.problem) lines.push(problemLine(ctx.locale, opts.problem));
  lines.push(progressLine(ctx, draft, networks, exchanges));
  return lines;
}

/** What an address looks like on a family, for the prompt's placeholder. */
function placeholder(ctx: Ctx, type: string | undefined): string {
  switch ((type ?? '').toLowerCase()) {
    case 'evm':
      return ctx.t('wizard.placeholder.evm');
    case 'solana':
      return ctx.t('wizard.placeholder.solana');
    case 'starknet':
      return '0x… (Starknet)';
    case 'ton':
      return ctx.t('wizard.placeholder.ton');
    case 'tron':
      return ctx.t('wizard.placeholder.tron');
    case 'bitcoin':
      return 'bc1…';
    default:
      return ctx.t('wizard.placeholder.address');
  }
}

/**
 * The user's saved addresses of this network family as buttons (two to a row, at most 8), only in
 * a private chat: a group never sees them. The button carries the entry's id, never the address.
 */
async function savedAddressRows(ctx: Ctx, draft: Draft, family: string | undefined, except?: string): Promise<Button[][]> {
  if (ctx.incoming.chatKind !== 'private' || !family) return [];
  const saved = (await ctx.addressBook.list(ctx.incoming.platform, ctx.incoming.userId))
    .filter((e) => e.family === family.toLowerCase() && e.address !== except)
    .slice(0, 8);
  const buttons = saved.map((e) => actionButton(savedLabel(e), inlineAction(VERBS.useAddress, draft.id, e.id)));
  const rows: Button[][] = [];
  for (let i = 0; i < buttons.length; i += 2) rows.push(buttons.slice(i, i + 2));
  return rows;
}

/** Asks for the destination address, or the refund address (recommended; Skip only where the route allows it, saying what it means). */
export async function askAddress(
  ctx: Ctx,
  draft: Draft,
  step: 'destination_address' | 'refund_address',
  networks: readonly Network[],
  opts: AskOptions,
): Promise<Reply[]> {
  draft.awaiting = step;
  await ctx.drafts.save(draft);
  const r = draft.route;
  const netName = step === 'destination_address' ? r.destinationNetwork : r.sourceNetwork;
  const where = labelOf(networks, netName);
  const type = networks.find((n) => n.name === netName)?.type ?? undefined;
  const lines = headLines(ctx, draft, networks, opts);
  const cancel = await cancelButton(ctx, draft);
  if (step === 'destination_address') {
    // An exchange receives at the user's own deposit address there, for this token on this network.
    lines.push(
      line(
        r.destinationExchange
          ? ctx.t('wizard.askExchangeAddress', {
              exchange: exchangeName(undefined, r.destinationExchange),
              token: r.destinationToken ?? '',
              network: where,
            })
          : ctx.t('wizard.askAddress', { token: r.destinationToken ?? '', network: where }),
      ),
    );
    // An exchange pays out to the user's deposit address there, never to a wallet saved from another swap.
    const saved = r.destinationExchange ? [] : await savedAddressRows(ctx, draft, type);
    if (saved.length > 0) lines.push(line(ctx.t('addresses.orPick')));
    return [
      {
        title: draftTitle(ctx, draft),
        tone: opts.problem ? 'warning' : 'info',
        lines,
        target: 'here',
        mode: modeOf(ctx),
        prompt: {
          label: ctx.t('wizard.yourAddressOn', { network: where }),
          placeholder: placeholder(ctx, type),
          maxLength: 128,
          ...(saved.length > 0 ? { buttonsAnswer: true } : {}),
        },
        buttons: [...saved, [cancel, ...privateButton(ctx, draft)]],
      },
    ];
  }
  // Layerswap advises always giving one, and requires it through a swap provider: the recommended
  // default is the user's own address on the source family (the one just given, when it is that family).
  lines.push(line(ctx.t('wizard.refundRecommended', { network: where, token: r.sourceToken ?? '' })));
  const required = refundRequired(r);
  if (required) lines.push(line(bold(ctx.t('wizard.refundRequired'))));
  else lines.push(line(bold(ctx.t('wizard.refundSkipBold')), ' ', ctx.t('wizard.refundSkipText')));
  const destinationType = networks.find((n) => n.name === r.destinationNetwork)?.type;
  const own =
    draft.destinationAddress && type && destinationType === type && !r.destinationExchange
      ? [
          [
            actionButton(
              ctx.t('wizard.refundUseTo', { address: maskAddress(draft.destinationAddress) }),
              inlineAction(VERBS.useAddress, draft.id, 'to'),
            ),
          ],
        ]
      : [];
  const saved = await savedAddressRows(ctx, draft, type, own.length > 0 ? draft.destinationAddress : undefined);
  const skip = required
    ? []
    : [[actionButton(ctx.t('wizard.skipRefund'), await ctx.codec.encode({ verb: VERBS.skipRefund, args: [draft.id] }))]];
  return [
    {
      title: draftTitle(ctx, draft),
      tone: opts.problem ? 'warning' : 'info',
      lines,
      target: 'here',
      mode: modeOf(ctx),
      // Its buttons answer it too: never hidden behind Discord's modal.
      prompt: {
        label: ctx.t('wizard.refundAddressOn', { network: where }),
        placeholder: placeholder(ctx, type),
        maxLength: 128,
        buttonsAnswer: true,
      },
      buttons: [...own, ...saved, ...skip, [cancel, ...privateButton(ctx, draft)]],
    },
  ];
}

/**
 * A route from one asset to another goes through a swap provider, where Layerswap requires a
 * refund address (docs refunds.mdx): there, skipping it is not offered.
 */
export function refundRequired(route: Draft['route']): boolean {
  return Boolean(route.sourceToken && route.destinationToken && route.sourceToken.toUpperCase() !== route.destinationToken.toUpperCase());
}

/** Asks whether to add refuel (a little native gas on the destination), when the route offers it. */
export async function askRefuel(ctx: Ctx, draft: Draft, networks: readonly Network[], opts: AskOptions): Promise<Reply[]> {
  draft.awaiting = 'refuel';
  await ctx.drafts.save(draft);
  const dest = networks.find((n) => n.name === draft.route.destinationNetwork);
  const gas = dest?.token?.symbol ?? ctx.t('wizard.nativeToken');
  const lines = headLines(ctx, draft, networks, opts);
  lines.push(line(ctx.t('wizard.refuelAsk', { gas, network: labelOf(networks, draft.route.destinationNetwork) })));
  const [yes, no] = await Promise.all([
    ctx.codec.encode({ verb: VERBS.refuel, args: [draft.id, '1'] }),
    ctx.codec.encode({ verb: VERBS.refuel, args: [draft.id, '0'] }),
  ]);
  return [
    {
      title: draftTitle(ctx, draft),
      tone: 'info',
      lines,
      target: 'here',
      mode: modeOf(ctx),
      buttons: [
        [actionButton(ctx.t('wizard.refuelYes'), yes), actionButton(ctx.t('wizard.refuelNo'), no)],
        [await cancelButton(ctx, draft)],
      ],
    },
  ];
}

import type { Network } from '../../layerswap/schemas.js';
import { actionButton, bold, deeplinkButton, line, text, type Button, type Line, type Reply } from '../../contracts/reply.js';
import type { Ctx } from '../context.js';
import { problemLine, type Problem } from '../problem.js';
import type { RouteExchanges } from '../route/route.js';
import { exchangeName, labelOf, routeSummary } from '../route/summary.js';
import { VERBS } from '../verbs.js';
import type { Draft } from './drafts.js';

/** How the next question is shown: what was wrong with the last answer, a note, a page of choices. */
export interface AskOptions {
  problem?: Problem;
  /** Lines shown before everything else (e.g. "your earlier draft was dropped"). */
  note?: Line[];
  page?: number;
}

export const draftTitle = (d: Draft): string => (d.kind === 'swap' ? 'New swap' : 'New quote');
export const cancelButton = async (ctx: Ctx, d: Draft): Promise<Button> => actionButton('Cancel', await ctx.codec.encode({ verb: VERBS.cancel, args: [d.id] }));
/** Group chats get a way to continue privately (addresses are better typed there). */
export const privateButton = (ctx: Ctx, d: Draft): Button[] => (ctx.incoming.chatKind === 'private' ? [] : [deeplinkButton('Continue privately', `d_${d.id}`)]);
/** Replies to a pressed button replace the message it was on. */
export const modeOf = (ctx: Ctx): 'edit' | 'new' => (ctx.incoming.action && ctx.incoming.messageRef ? 'edit' : 'new');

/** The progress line every wizard question starts with. */
function progressLine(draft: Draft, networks: readonly Network[], exchanges?: RouteExchanges): Line {
  const r = draft.route;
  const started = r.sourceNetwork || r.amount || r.pendingSourceToken || r.destinationNetwork || r.sourceExchange || r.destinationExchange;
  return started ? line(bold('So far: '), text(routeSummary(r, networks, exchanges))) : line('Let’s set it up step by step.');
}

/** Note, problem and progress: the head of every wizard message. */
export function headLines(draft: Draft, networks: readonly Network[], opts: AskOptions, exchanges?: RouteExchanges): Line[] {
  const lines: Line[] = [...(opts.note ?? [])];
  if (opts.problem) lines.push(problemLine(opts.problem));
  lines.push(progressLine(draft, networks, exchanges));
  return lines;
}

/** What an address looks like on a family, for the prompt's placeholder. */
function placeholder(type: string | undefined): string {
  switch ((type ?? '').toLowerCase()) {
    case 'evm': return '0x… (42 characters)';
    case 'solana': return 'base58 address';
    case 'starknet': return '0x… (Starknet)';
    case 'ton': return 'EQ… or UQ…';
    case 'tron': return 'T… (34 characters)';
    case 'bitcoin': return 'bc1…';
    default: return 'address';
  }
}

/** Asks for the destination address, or the optional refund address (with Skip, and what skipping means). */
export async function askAddress(ctx: Ctx, draft: Draft, step: 'destination_address' | 'refund_address', networks: readonly Network[], opts: AskOptions): Promise<Reply[]> {
  draft.awaiting = step;
  await ctx.drafts.save(draft);
  const r = draft.route;
  const netName = step === 'destination_address' ? r.destinationNetwork : r.sourceNetwork;
  const where = labelOf(networks, netName);
  const type = networks.find((n) => n.name === netName)?.type ?? undefined;
  const lines = headLines(draft, networks, opts);
  const cancel = await cancelButton(ctx, draft);
  if (step === 'destination_address') {
    // An exchange receives at the user's own deposit address there, for this token on this network.
    lines.push(line(r.destinationExchange
      ? `Send your ${exchangeName(undefined, r.destinationExchange)} deposit address for ${r.destinationToken} on ${where} (from the exchange's Deposit page, network ${where}).`
      : `Send the address on ${where} that should receive the ${r.destinationToken}.`));
    return [{
      title: draftTitle(draft), tone: opts.problem ? 'warning' : 'info', lines, target: 'here', mode: modeOf(ctx),
      prompt: { label: `Your address on ${where}`, placeholder: placeholder(type), maxLength: 128 },
      buttons: [[cancel, ...privateButton(ctx, draft)]],
    }];
  }
  lines.push(
    line(`Optional: an address on ${where} for refunds. If the swap fails, Layerswap sends your ${r.sourceToken} back there.`),
    line(bold('If you skip it, there is no automatic refund:'), ' a failed swap is retried, and getting the funds back means contacting Layerswap support.'),
  );
  const skip = actionButton('Skip (no refund address)', await ctx.codec.encode({ verb: VERBS.skipRefund, args: [draft.id] }));
  return [{
    title: draftTitle(draft), tone: opts.problem ? 'warning' : 'info', lines, target: 'here', mode: modeOf(ctx),
    prompt: { label: `Refund address on ${where}`, placeholder: placeholder(type), maxLength: 128 },
    buttons: [[skip], [cancel, ...privateButton(ctx, draft)]],
  }];
}

/** Asks whether to add refuel (a little native gas on the destination), when the route offers it. */
export async function askRefuel(ctx: Ctx, draft: Draft, networks: readonly Network[], opts: AskOptions): Promise<Reply[]> {
  draft.awaiting = 'refuel';
  await ctx.drafts.save(draft);
  const dest = networks.find((n) => n.name === draft.route.destinationNetwork);
  const gas = dest?.token?.symbol ?? 'native token';
  const lines = headLines(draft, networks, opts);
  lines.push(line(`Refuel: also get a little ${gas} on ${labelOf(networks, draft.route.destinationNetwork)} to pay for gas there? It is paid from the amount you send.`));
  const [yes, no] = await Promise.all([
    ctx.codec.encode({ verb: VERBS.refuel, args: [draft.id, '1'] }),
    ctx.codec.encode({ verb: VERBS.refuel, args: [draft.id, '0'] }),
  ]);
  return [{
    title: draftTitle(draft), tone: 'info', lines, target: 'here', mode: modeOf(ctx),
    buttons: [[actionButton('Yes, refuel', yes), actionButton('No refuel', no)], [await cancelButton(ctx, draft)]],
  }];
}

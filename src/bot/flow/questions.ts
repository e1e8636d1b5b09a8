import type { Network } from '../../layerswap/schemas.js';
import type { Ctx } from '../context.js';
import type { Draft } from '../drafts.js';
import { actionButton, bold, line, type Reply } from '../../contracts/reply.js';
import { exchangeName, labelOf } from './summary.js';
import { cancelButton, draftTitle, headLines, modeOf, privateButton, type AdvanceOptions } from './ui.js';

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
export async function askAddress(ctx: Ctx, draft: Draft, step: 'destination_address' | 'refund_address', networks: readonly Network[], opts: AdvanceOptions): Promise<Reply[]> {
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
  const skip = actionButton('Skip (no refund address)', await ctx.codec.encode({ verb: 'sk', args: [draft.id] }));
  return [{
    title: draftTitle(draft), tone: opts.problem ? 'warning' : 'info', lines, target: 'here', mode: modeOf(ctx),
    prompt: { label: `Refund address on ${where}`, placeholder: placeholder(type), maxLength: 128 },
    buttons: [[skip], [cancel, ...privateButton(ctx, draft)]],
  }];
}

/** Asks whether to add refuel (a little native gas on the destination), when the route offers it. */
export async function askRefuel(ctx: Ctx, draft: Draft, networks: readonly Network[], opts: AdvanceOptions): Promise<Reply[]> {
  draft.awaiting = 'refuel';
  await ctx.drafts.save(draft);
  const dest = networks.find((n) => n.name === draft.route.destinationNetwork);
  const gas = dest?.token?.symbol ?? 'native token';
  const lines = headLines(draft, networks, opts);
  lines.push(line(`Refuel: also get a little ${gas} on ${labelOf(networks, draft.route.destinationNetwork)} to pay for gas there? It is paid from the amount you send.`));
  const [yes, no] = await Promise.all([
    ctx.codec.encode({ verb: 'rf', args: [draft.id, '1'] }),
    ctx.codec.encode({ verb: 'rf', args: [draft.id, '0'] }),
  ]);
  return [{
    title: draftTitle(draft), tone: 'info', lines, target: 'here', mode: modeOf(ctx),
    buttons: [[actionButton('Yes, refuel', yes), actionButton('No refuel', no)], [await cancelButton(ctx, draft)]],
  }];
}

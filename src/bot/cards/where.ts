import { bold, code, copyButton, line, type Line, type Reply } from '../../contracts/reply.js';
import { phaseOfSwap } from '../../layerswap/phase.js';
import type { SwapDetails } from '../../layerswap/schemas.js';
import { fitReply } from '../fit.js';
import { supportSummary } from './moments.js';
import { statusCard } from './status.js';

/**
 * The "Where is my swap?" answer: the swap's status card with what to do now in plain words, and,
 * where only Layerswap support can help, a summary to paste to them (masked in groups).
 */
export function whereCard(details: SwapDetails, opts: { audience: 'private' | 'public'; now: number }): Reply {
  const base = statusCard(details, opts);
  const phase = phaseOfSwap(details);
  const deposited = details.swap.transactions.some((t) => t.type === 'input');
  let todo: string;
  let support = false;
  switch (phase.kind) {
    case 'waiting':
    case 'delayed':
      todo = 'Layerswap has not seen a deposit for it yet. If you sent one, give it a few minutes to confirm' + (opts.audience === 'private' ? ', or press "I\'ve sent it" to have it looked for now.' : '.');
      break;
    case 'confirming':
      todo = `Wait: your deposit is confirming${phase.confirmations ? ` (${phase.confirmations.done}/${phase.confirmations.max})` : ''}. Nothing to do, and do not send it again.`;
      break;
    case 'processing':
      todo = 'Wait: your deposit is confirmed and Layerswap is sending the funds.';
      break;
    case 'delivered':
      todo = 'Nothing to do: the funds were delivered to the destination address (payout below).';
      break;
    case 'refunding':
      todo = 'Wait: your deposit is being returned to the refund address.';
      break;
    case 'refunded':
      todo = 'It was refunded: your deposit went back to the refund address (refund below).';
      break;
    case 'on_hold':
      todo = 'Wait: the deposit is above the route\'s maximum and is being reviewed (up to 2 hours).';
      break;
    case 'expired':
      todo = deposited
        ? 'The deposit went to a swap that had expired. Contact Layerswap support with the summary below to get it back.'
        : 'No deposit arrived in time, so nothing was swapped. If you sent funds to its deposit address after it expired, contact Layerswap support with the summary below and your transaction hash.';
      support = true;
      break;
    case 'failed':
    case 'cancelled':
    case 'unknown':
      support = true;
      todo = 'Contact Layerswap support with the summary below; they can trace your deposit from it.';
      break;
  }
  const lines: Line[] = [line(bold('What to do: '), todo), ...base.lines];
  const buttons = [...(base.buttons ?? [])];
  if (support) {
    const summary = supportSummary(details, { history: [] }, opts.audience).filter((l) => l !== 'History: ');
    lines.push(line(bold('Support summary')), ...summary.map((l) => line(code(l))));
    const text = summary.join('\n');
    if (text.length <= 256) buttons.push([copyButton('Copy support summary', text)]);
  }
  return fitReply({ ...base, lines, buttons });
}

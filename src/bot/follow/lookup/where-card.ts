import { bold, code, copyButton, line, type Line, type Reply } from '../../../contracts/reply.js';
import { phaseOfSwap } from '../../../layerswap/phase.js';
import type { SwapDetails } from '../../../layerswap/schemas.js';
import { fitReply } from '../../kernel/fit.js';
import { t, type CatalogKey, type Locale, type Vars } from '../../../i18n/index.js';
import { statusCard, supportSummary } from '../../status/index.js';

/**
 * The "Where is my swap?" answer: the swap's status card with what to do now in plain words, and,
 * where only Layerswap support can help, a summary to paste to them (masked in groups).
 */
export function whereCard(details: SwapDetails, opts: { audience: 'private' | 'public'; now: number; locale: Locale }): Reply {
  const tr = (key: CatalogKey, vars?: Vars): string => t(opts.locale, key, vars);
  const base = statusCard(details, opts);
  const phase = phaseOfSwap(details);
  const deposited = details.swap.transactions.some((x) => x.type === 'input');
  let todo: string;
  let support = false;
  switch (phase.kind) {
    case 'waiting':
      todo =
        opts.audience === 'private' ? tr('where.todo.waitingPrivate', { sent: tr('statusCard.button.sent') }) : tr('where.todo.waiting');
      break;
    case 'confirming':
      todo = phase.confirmations
        ? tr('where.todo.confirmingCount', { done: phase.confirmations.done, max: phase.confirmations.max })
        : tr('where.todo.confirming');
      break;
    case 'processing':
    case 'delivered':
    case 'refunding':
    case 'refunded':
      todo = tr(`where.todo.${phase.kind}`);
      break;
    case 'on_hold':
      todo = tr('where.todo.onHold');
      break;
    case 'expired':
      todo = tr(deposited ? 'where.todo.expiredDeposited' : 'where.todo.expiredNoDeposit');
      support = true;
      break;
    case 'failed':
    case 'cancelled':
    case 'unknown':
      support = true;
      todo = tr('where.todo.support');
      break;
  }
  const lines: Line[] = [line(bold(tr('where.whatToDo')), ' ', todo), ...base.lines];
  const buttons = [...(base.buttons ?? [])];
  if (support) {
    const summary = supportSummary(details, { history: [] }, opts.audience);
    lines.push(line(bold(tr('where.supportSummary'))), ...summary.map((l) => line(code(l))));
    const text = summary.join('\n');
    if (text.length <= 256) buttons.push([copyButton(tr('support.copySummary'), text)]);
  }
  return fitReply({ ...base, lines, buttons }, opts.locale);
}

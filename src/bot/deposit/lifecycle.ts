import { actionButton, bold, code, line, type Button, type Line, type Reply } from '../../contracts/reply.js';
import { t, type CatalogKey, type Locale, type Vars } from '../../i18n/index.js';
import type { CreatorNotes } from '../../contracts/tracking.js';
import type { SwapDetails } from '../../layerswap/schemas.js';
import { fitReply } from '../kernel/fit.js';
import { moneyText, swapMoney } from '../money/model.js';
import { differenceLines, expectedText, nextWords, supportButton } from '../money/words.js';
import { formatTime, shortId } from '../kernel/format.js';
import { statusActions } from '../kernel/status-actions.js';

/**
 * The deposit card after its deposit: what the creator's deposit card becomes once the swap no
 * longer waits for money (edited in place by tracking, and what /status, a repeated Confirm or the
 * Deposit details button show instead of the address). No QR, no Copy, no "I've sent it": nothing
 * on it tells anyone to send. Undefined while the swap still waits and nobody said it was paid (the
 * original card stands); the creator's "I've sent it" (`notes.claim`) is evidence enough.
 */
export function depositCardAfter(details: SwapDetails, now: number, locale: Locale, notes?: CreatorNotes): Reply | undefined {
  const tr = (key: CatalogKey, vars?: Vars) => t(locale, key, vars);
  const m = swapMoney(details, now, { ...(notes?.claim ? { claimed: notes.claim } : {}) });
  const id = details.swap.id;
  const kind = m.phase.kind;
  if (kind === 'waiting' && !m.deposited && !m.claimed) return undefined;
  const lines: Line[] = [];
  const buttons: Button[] = [actionButton(tr('deposit.statusButton'), statusActions.show(id))];
  let title: string;
  const seenLine = () => {
    if (!m.deposited) return;
    const at = m.deposited.at ?? now;
    lines.push(line(bold(tr('money.deposit.seen', { amount: moneyText(m.deposited), time: formatTime(at, now, locale) }))));
  };
  const claimLine = () => {
    if (!m.claimed) return;
    lines.push(line(bold(tr('money.deposit.claimed', { time: formatTime(m.claimed.at, now, locale) }))));
    if (m.claimed.hash) lines.push(line(tr('statusCard.claimedTx'), ' ', code(m.claimed.hash)));
  };
  switch (kind) {
    case 'waiting':
    case 'confirming':
    case 'processing': {
      title = m.claimed
        ? tr('money.deposit.claimedTitle', { id: shortId(id) })
        : tr(kind === 'processing' ? 'money.deposit.confirmedTitle' : 'money.deposit.seenTitle', { id: shortId(id) });
      seenLine();
      claimLine();
      lines.push(...differenceLines(m, locale));
      const receive = expectedText(m, locale);
      if (receive && !m.difference) lines.push(line(tr('statusCard.field.receiveQuoted'), ': ', receive));
      lines.push(line(nextWords(m, locale)));
      break;
    }
    default: {
      title = tr('money.deposit.closedTitle', { id: shortId(id) });
      seenLine();
      claimLine();
      lines.push(line(tr('money.deposit.closed')));
      if (kind === 'expired')
        lines.push(line(tr(m.deposited ? 'money.expired.deposited' : m.claimed ? 'money.expired.claimed' : 'money.expired.alreadySent')));
      else if (m.received) lines.push(line(tr('statusCard.field.received'), ': ', bold(moneyText(m.received))));
      else if (m.refund?.amount) lines.push(line(tr('money.field.refunded'), ': ', bold(moneyText(m.refund.amount))));
      lines.push(line(nextWords(m, locale)));
      if (kind === 'expired' || m.next === 'contact_support') buttons.push(supportButton(locale));
    }
  }
  lines.push(line(tr('deposit.swapId'), ' ', code(id)));
  // One self-contained card like the deposit card it replaces (Discord cannot edit a Components V2 message back to an embed).
  return fitReply(
    {
      layout: 'card',
      title,
      tone: kind === 'delivered' ? 'success' : kind === 'expired' || kind === 'failed' ? 'warning' : 'pending',
      lines,
      buttons: [buttons],
      target: 'dm',
    },
    locale,
  );
}

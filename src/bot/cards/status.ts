import { FINAL_SWAP_STATUSES, type NetworkRef, type SwapDetails, type Token, type Transaction } from '../../layerswap/schemas.js';
import { describeDuration, parseTimeSpan } from '../../layerswap/timespan.js';
import { inlineAction } from '../actions.js';
import { VERBS } from '../verbs.js';
import { fitReply } from '../fit.js';
import { actionButton, bold, code, italic, line, link, text, time, type Button, type Field, type Line, type Reply, type Span } from '../../contracts/reply.js';
import type { CardView } from '../../contracts/tracking.js';
import { defaultLocale, t } from '../../i18n/index.js';
import { explorerUrl, formatTime, maskAddress, networkName, shortId, tokenAmount } from './format.js';
import { phaseOfSwap } from '../../layerswap/phase.js';
import { failReasonWords, phaseWords, transactionWord } from './status-words.js';

export { maskAddress };

/** Button actions of a status card (see router). */
export const statusActions = {
  refresh: (swapId: string): string => inlineAction(VERBS.refreshStatus, swapId),
  track: (swapId: string): string => inlineAction(VERBS.track, swapId),
  /** "I've sent it": asks for the deposit hash, speeds up matching, shows confirmations. */
  sent: (swapId: string): string => inlineAction(VERBS.sent, swapId),
  /** "Where is my swap?": paste a hash or an address. */
  where: (): string => inlineAction(VERBS.where),
  /** Followed cards: no more key-moment messages for this swap here (the card keeps updating). */
  mute: (swapId: string): string => inlineAction(VERBS.mute, swapId),
  unmute: (swapId: string): string => inlineAction(VERBS.unmute, swapId),
  /** Followed cards: unfollow here (undoable). */
  stop: (swapId: string): string => inlineAction(VERBS.stop, swapId),
};

/** Mute (or Unmute) and Stop, on every card tracking keeps current. */
export function followButtons(swapId: string, muted: boolean): Button[] {
  const tr = (key: string) => t(defaultLocale(), key);
  return [
    muted ? actionButton(tr('notify.button.unmute'), statusActions.unmute(swapId)) : actionButton(tr('notify.button.mute'), statusActions.mute(swapId)),
    actionButton(tr('notify.button.stop'), statusActions.stop(swapId)),
  ];
}

/** Labels the lookup buttons go by (tests and the deposit card use the same words). */
export const SENT_LABEL = "I've sent it";
export const WHERE_LABEL = 'Where is my swap?';

/** "3/12 ▓▓▓░░░░░░░░░": one cell per confirmation up to 12, scaled beyond. */
export function confirmationBar(confirmations: number, max: number): string {
  const total = Math.max(0, Math.floor(max));
  const done = Math.min(Math.max(0, Math.floor(confirmations)), total);
  const width = Math.min(total, 12);
  const filled = total === 0 ? 0 : Math.round((done / total) * width);
  return `${done}/${total} ${'▓'.repeat(filled)}${'░'.repeat(width - filled)}`;
}

function transactionLine(tx: Transaction, details: SwapDetails, audience: 'private' | 'public'): Line {
  const swap = details.swap;
  const onSource = tx.type === 'input' || tx.type === 'refund';
  const network: NetworkRef | null | undefined = tx.network ?? (onSource ? swap.source_network : swap.destination_network);
  const token = tx.token ?? (onSource ? swap.source_token : swap.destination_token);
  const spans: Span[] = [bold(tx.type ? transactionWord(tx.type) : 'Transaction'), text(`: ${tokenAmount(tx.amount, token)}`)];
  if (tx.status) spans.push(text(` · ${tx.status}`));
  if (typeof tx.max_confirmations === 'number' && tx.max_confirmations > 0) {
    spans.push(text(' · '), code(confirmationBar(tx.confirmations ?? 0, tx.max_confirmations)));
  }
  const template = network?.transaction_explorer_template
    ?? [swap.source_network, swap.destination_network].find((n) => n?.name === network?.name)?.transaction_explorer_template;
  const url = explorerUrl(template, tx.transaction_hash);
  if (url) spans.push(text(' · '), link('explorer', url));
  else if (tx.transaction_hash) spans.push(text(' · '), code(audience === 'public' ? maskAddress(tx.transaction_hash) : tx.transaction_hash));
  return spans;
}

function expectedLine(details: SwapDetails, now: number): Line | undefined {
  const swap = details.swap;
  const avg = parseTimeSpan(details.quote?.avg_completion_time);
  if (avg === undefined) return undefined;
  const phase = phaseOfSwap(details).kind;
  if (phase === 'waiting' || phase === 'delayed') return line(italic(`Usually done ${describeDuration(avg)} after the deposit is confirmed.`));
  if (phase !== 'confirming' && phase !== 'processing') return undefined;
  const input = swap.transactions.find((t) => t.type === 'input');
  const started = Date.parse(input?.timestamp ?? input?.created_date ?? swap.created_date ?? '');
  if (Number.isNaN(started)) return undefined;
  const due = started + avg;
  return due > now
    // Relative to the reader's now where the platform keeps it true without edits.
    ? line(italic(`Expected by ${formatTime(due, now)} (`), time(due, `${describeDuration(due - now)} from now`), italic(').'))
    : line(italic(`Expected by ${formatTime(due, now)}; it is taking longer than usual.`));
}

/** "100 USDC on Arbitrum One" from what is known; undefined when neither amount nor token is. */
function amountOn(amount: number | null | undefined, token: Pick<Token, 'symbol' | 'decimals'> | null | undefined, network: NetworkRef | null | undefined): string | undefined {
  const known = typeof amount === 'number' && Number.isFinite(amount);
  if (!known && !token) return undefined;
  const what = known ? tokenAmount(amount, token) : token!.symbol;
  return network ? `${what} on ${networkName(network)}` : what;
}

/**
 * The status card: route, amounts, status in plain words (meaning and what happens next), the
 * failure reason, each transaction with confirmations and an explorer link, and when to expect
 * completion. 'public' (groups, channels) masks addresses; no audience ever sees deposit details.
 * Already fitted to every platform's limits.
 */
export function statusCard(details: SwapDetails, opts: { audience: 'private' | 'public'; now?: number; followed?: CardView }): Reply {
  const now = opts.now ?? Date.now();
  const { swap } = details;
  const phase = phaseOfSwap(details);
  const words = phaseWords(phase, swap.status, swap.fail_reason);
  // A group that hides amounts still sees the route: tokens and networks without numbers.
  const hide = opts.followed?.hideAmounts === true;
  const from = amountOn(hide ? undefined : swap.requested_amount ?? details.quote?.requested_amount, swap.source_token, swap.source_network);
  const output = swap.transactions.find((t) => t.type === 'output');
  const to = amountOn(hide ? undefined : output?.amount ?? details.quote?.receive_amount, output?.token ?? swap.destination_token, swap.destination_network);
  const showAddress = (a: string) => (opts.audience === 'public' ? text(maskAddress(a)) : code(a));

  // The title carries the status label; the lines say what it means.
  const lines: Line[] = [line(words.meaning)];
  // A reason matters only to a swap that stopped; a stale one beside "Completed" would confuse.
  if (swap.fail_reason && (phase.kind === 'failed' || phase.kind === 'on_hold')) {
    const why = failReasonWords(swap.fail_reason);
    lines.push(line(bold('Why: '), why.meaning), line(bold('Next: '), why.next));
  } else {
    lines.push(line(bold('Next: '), words.next));
  }
  const expected = expectedLine(details, now);
  if (expected) lines.push(expected);

  const fields: Field[] = [];
  if (from) fields.push({ name: 'Send', value: line(from), inline: true });
  if (to) fields.push({ name: output ? 'Received' : 'Receive (quoted)', value: line(to), inline: true });
  const exchange = swap.destination_exchange ? swap.destination_exchange.display_name || swap.destination_exchange.name : undefined;
  if (swap.destination_address) fields.push({ name: exchange ? `To your ${exchange} deposit address` : 'To address', value: [showAddress(swap.destination_address)] });
  if (swap.refund_address) fields.push({ name: 'Refund address', value: [showAddress(swap.refund_address)] });
  if (swap.transactions.length > 0) {
    lines.push(line(bold('Transactions')));
    for (const tx of swap.transactions) lines.push(transactionLine(hide ? { ...tx, amount: null } : tx, details, opts.audience));
  }
  fields.push({ name: 'Swap id', value: [code(swap.id)] });
  const created = Date.parse(swap.created_date ?? '');
  if (!Number.isNaN(created)) fields.push({ name: 'Created', value: line(formatTime(created, now)), inline: true });

  const buttons = [actionButton('Refresh', statusActions.refresh(swap.id))];
  if (!FINAL_SWAP_STATUSES.has(swap.status)) buttons.push(actionButton('Track', statusActions.track(swap.id)));
  // Only in private chats: their answers are free text, which groups do not send the bot.
  if (opts.audience === 'private' && (phase.kind === 'waiting' || phase.kind === 'delayed')) buttons.push(actionButton(SENT_LABEL, statusActions.sent(swap.id)));
  if (opts.audience === 'private' && phase.kind === 'expired') buttons.push(actionButton(WHERE_LABEL, statusActions.where()));
  // Fitted here too: the tracking worker sends this card straight to a Messenger.
  return fitReply({
    title: `Swap ${shortId(swap.id)}: ${words.label}`,
    tone: words.tone,
    lines,
    fields,
    buttons: opts.followed ? [buttons, followButtons(swap.id, opts.followed.muted === true)] : [buttons],
    target: 'here',
  });
}

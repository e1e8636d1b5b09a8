import { FINAL_SWAP_STATUSES, TRANSACTION_STATUSES, type SwapDetails, type Transaction } from '../../layerswap/schemas.js';
import { parseTimeSpan } from '../../layerswap/timespan.js';
import { statusActions } from '../kernel/status-actions.js';
import { fitReply } from '../kernel/fit.js';
import {
  actionButton,
  bold,
  code,
  italic,
  line,
  link,
  text,
  time,
  type Button,
  type Field,
  type Line,
  type Reply,
  type Span,
} from '../../contracts/reply.js';
import type { CardView, CreatorNotes } from '../../contracts/tracking.js';
import { sightingOf } from '../../contracts/chain.js';
import { defaultLocale, formatDuration, t, tSpans, type CatalogKey, type Locale, type Vars } from '../../i18n/index.js';
import { formatTime, maskAddress, shortId, sideName, txExplorer, txOnSource } from '../kernel/format.js';
import { decimalsOf, toUnits, unitsText } from '../money/units.js';
import { phaseOfSwap } from '../../layerswap/phase.js';
import { failReasonWords, phaseWords, transactionWord } from './words.js';
import { chainSightingLines, withChainCount } from './chain-sighting.js';
import { refuelTokenOf, swapMoney, type SwapMoney } from '../money/model.js';
import { badDayLines, differenceLines, moneyFields, nextWords, supportButton } from '../money/words.js';

/** Mute (or Unmute) and Stop, on every card tracking keeps current. */
function followButtons(swapId: string, muted: boolean, locale: Locale): Button[] {
  return [
    muted
      ? actionButton(t(locale, 'notify.button.unmute'), statusActions.unmute(swapId))
      : actionButton(t(locale, 'notify.button.mute'), statusActions.mute(swapId)),
    actionButton(t(locale, 'notify.button.stop'), statusActions.stop(swapId)),
  ];
}

/** "3/12 ▓▓▓░░░░░░░░░": one cell per confirmation up to 12, scaled beyond. */
export function confirmationBar(confirmations: number, max: number): string {
  const total = Math.max(0, Math.floor(max));
  const done = Math.min(Math.max(0, Math.floor(confirmations)), total);
  const width = Math.min(total, 12);
  const filled = total === 0 ? 0 : Math.round((done / total) * width);
  return `${done}/${total} ${'▓'.repeat(filled)}${'░'.repeat(width - filled)}`;
}

function transactionLine(tx: Transaction, details: SwapDetails, audience: 'private' | 'public', locale: Locale): Line {
  const swap = details.swap;
  const onSource = txOnSource(tx);
  const token = tx.type === 'refuel' ? refuelTokenOf(details, tx) : (tx.token ?? (onSource ? swap.source_token : swap.destination_token));
  // A failed transaction moved no funds: its amount and confirmations are no figures of the swap's
  // money. Others to the token's own decimals, as the money model says them.
  const failed = tx.status === 'failed';
  const units = token && !failed ? toUnits(tx.amount, decimalsOf(token.decimals)) : undefined;
  const amount =
    units !== undefined ? `${unitsText(units, decimalsOf(token?.decimals))} ${token?.symbol ?? ''}`.trim() : (token?.symbol ?? '');
  const spans: Span[] = [bold(transactionWord(tx.type, locale)), text(`: ${amount}`)];
  if (tx.status) spans.push(text(` · ${isTxStatus(tx.status) ? t(locale, `txStatus.${tx.status}`) : tx.status}`));
  if (!failed && typeof tx.max_confirmations === 'number' && tx.max_confirmations > 0) {
    spans.push(text(' · '), code(confirmationBar(tx.confirmations ?? 0, tx.max_confirmations)));
  }
  const url = txExplorer(details, tx);
  if (url) spans.push(text(' · '), link(t(locale, 'statusCard.explorer'), url));
  else if (tx.transaction_hash)
    spans.push(text(' · '), code(audience === 'public' ? maskAddress(tx.transaction_hash) : tx.transaction_hash));
  return spans;
}

const TX_STATUSES: ReadonlySet<string> = new Set(TRANSACTION_STATUSES);
const isTxStatus = (s: string): s is (typeof TRANSACTION_STATUSES)[number] => TX_STATUSES.has(s);

function expectedLine(details: SwapDetails, m: SwapMoney, now: number, locale: Locale, route?: CardView['routeTimes']): Line | undefined {
  // The route's observed median when enough swaps are behind it, else the service's estimate.
  const avg = route?.p50Ms ?? parseTimeSpan(details.quote?.avg_completion_time);
  if (avg === undefined) return undefined;
  const about = (ms: number) => formatDuration(locale, ms, { about: true });
  const phase = m.phase.kind;
  if (phase === 'waiting' && !m.deposited) return line(italic(t(locale, 'statusCard.usuallyDone', { duration: about(avg) })));
  const due = m.deadlines.expectedBy;
  if (due === undefined) return undefined;
  const by = formatTime(due, now, locale);
  // Relative to the reader's now where the platform keeps it true without edits; once passed, said as passed.
  return due > now
    ? tSpans(locale, 'statusCard.expectedBy', {
        time: by,
        relative: time(due, t(locale, 'statusCard.fromNow', { duration: about(due - now) })),
      }).map((p) => (typeof p === 'string' ? italic(p) : p))
    : line(italic(t(locale, 'statusCard.late', { time: by })));
}

/** The route's observed p50 and p90 while the swap is under way, and "slower than usual" past its p90. */
function routeTimeLines(view: CardView | undefined, phase: string, locale: Locale): Line[] {
  const route = view?.routeTimes;
  if (!route || !['waiting', 'confirming', 'processing'].includes(phase)) return [];
  const within = (ms: number) => formatDuration(locale, ms);
  const out = [
    line(italic(t(locale, 'statusCard.routeTimes', { p50: within(route.p50Ms), p90: within(route.p90Ms), total: route.count }))),
  ];
  if (view.slower && (phase === 'confirming' || phase === 'processing'))
    out.push(line(bold(t(locale, 'statusCard.slower', { p90: within(route.p90Ms) }))));
  return out;
}

/**
 * The status card: route, amounts, status in plain words (meaning and what happens next), the
 * failure reason, each transaction with confirmations and an explorer link, and when to expect
 * completion, in the reader's language (the default locale unless given). 'public' (groups,
 * channels) masks addresses; no audience ever sees deposit details. Already fitted to every
 * platform's limits.
 */
export function statusCard(
  details: SwapDetails,
  opts: {
    audience: 'private' | 'public';
    now?: number;
    followed?: CardView;
    locale?: Locale;
    refundAddress?: string | null;
    /** What the creator told the bot (/status reads them from tracking; a followed card has them in `followed`). */
    notes?: CreatorNotes;
    depositSeen?: boolean;
  },
): Reply {
  const now = opts.now ?? Date.now();
  const locale = opts.locale ?? defaultLocale();
  // One confirmation count: the service's, or the chain head's when it is ahead for the same transaction.
  details = withChainCount(details);
  const tr = (key: CatalogKey, vars?: Vars) => t(locale, key, vars);
  const { swap } = details;
  const phase = phaseOfSwap(details);
  // The service went back to "waiting" after tracking saw the deposit (confirmed, not one stale
  // answer): never ask for the money again.
  const seen = opts.followed?.depositSeen === true || opts.depositSeen === true;
  const regressed = seen && phase.kind === 'waiting';
  const notes = opts.notes ?? opts.followed?.notes;
  const refundAddress = opts.refundAddress !== undefined ? opts.refundAddress : notes?.refund;
  const money = swapMoney(details, now, {
    depositSeen: seen,
    ...(opts.followed?.routeTimes ? { typicalMs: opts.followed.routeTimes.p50Ms } : {}),
    ...(refundAddress !== undefined ? { refundAddress } : {}),
    ...(notes?.claim ? { claimed: notes.claim } : {}),
  });
  // The chain watcher saw the deposit before the service did: the card names the phase the
  // deposit is in, as the "Deposit seen" message did, never "Waiting for your deposit".
  const chain = phase.kind === 'waiting' && !regressed ? money.onChain : undefined;
  const words = chain
    ? {
        label:
          chain.required > 0
            ? tr('swapPhase.confirming.labelCount', { done: Math.min(chain.confirmations, chain.required), max: chain.required })
            : tr('swapPhase.confirming.label'),
        meaning: tr('swapPhase.chainSeen.meaning'),
        next: tr('swapPhase.confirming.next'),
        tone: 'pending' as const,
      }
    : regressed
      ? {
          label: tr('swapPhase.regressed.label'),
          meaning: tr('swapPhase.regressed.meaning'),
          next: tr('swapPhase.regressed.next'),
          tone: 'warning' as const,
        }
      : phase.kind === 'waiting' && money.claimed
        ? {
            // The user said "I've sent it": the card waits for the service to see it, never for money.
            label: tr('swapPhase.claimed.label'),
            meaning: tr('swapPhase.claimed.meaning'),
            next: nextWords(money, locale),
            tone: 'pending' as const,
          }
        : phaseWords(phase, swap.status, swap.fail_reason, locale);
  // A group that hides amounts still sees the route: tokens and networks without numbers.
  const hide = opts.followed?.hideAmounts === true;
  const showAddress = (a: string) => (opts.audience === 'public' ? text(maskAddress(a)) : code(a));

  // The title carries the status label; the lines say what it means.
  // A reason matters only to a swap that stopped; a stale one beside "Completed" would confuse.
  // It is then the card's meaning (said once, after "Why:").
  const why =
    swap.fail_reason && (phase.kind === 'failed' || phase.kind === 'on_hold') ? failReasonWords(swap.fail_reason, locale) : undefined;
  const lines: Line[] = why ? [] : [line(words.meaning)];
  if (money.claimed?.hash && phase.kind === 'waiting' && !chain && !regressed)
    lines.push(
      line(tr('statusCard.claimedTx'), ' ', code(opts.audience === 'public' ? maskAddress(money.claimed.hash) : money.claimed.hash)),
    );
  if (why) {
    lines.push(line(bold(tr('statusCard.why')), ' ', why.meaning), line(bold(tr('statusCard.next')), ' ', why.next));
  } else {
    // The money model's next step: one per phase, never "send" once a deposit is seen.
    lines.push(line(bold(tr('statusCard.next')), ' ', regressed ? words.next : nextWords(money, locale)));
  }
  if (!hide) lines.push(...differenceLines(money, locale));
  const expected = regressed ? undefined : expectedLine(details, money, now, locale, opts.followed?.routeTimes);
  if (expected) lines.push(expected);
  if (!regressed) lines.push(...routeTimeLines(opts.followed, phase.kind, locale));
  lines.push(...chainSightingLines(details, locale, { hideAmounts: hide, public: opts.audience === 'public', paid: seen }));
  // "Later than usual" is the expected line's own when it has one.
  lines.push(...badDayLines(money, locale, { now, private: opts.audience === 'private', lateLine: !expected }));

  // Exchanges are named wherever the route is ("Coinbase (Ethereum)").
  const on = {
    ...(swap.source_network ? { source: sideName(details, 'source') } : {}),
    ...(swap.destination_network ? { destination: sideName(details, 'destination') } : {}),
  };
  const fields: Field[] = hide ? hiddenAmountFields(money, on, locale) : moneyFields(money, locale, on);
  const exchange = swap.destination_exchange ? swap.destination_exchange.display_name || swap.destination_exchange.name : undefined;
  if (swap.destination_address)
    fields.push({
      name: exchange ? tr('statusCard.field.toExchange', { exchange }) : tr('statusCard.field.to'),
      value: [showAddress(swap.destination_address)],
    });
  if (money.refundAddress) fields.push({ name: tr('statusCard.field.refund'), value: [showAddress(money.refundAddress)] });
  if (swap.transactions.length > 0) {
    lines.push(line(bold(tr('statusCard.transactions'))));
    for (const tx of swap.transactions) lines.push(transactionLine(hide ? { ...tx, amount: null } : tx, details, opts.audience, locale));
  }
  fields.push({ name: tr('statusCard.field.swapId'), value: [code(swap.id)] });
  const created = Date.parse(swap.created_date ?? '');
  if (!Number.isNaN(created))
    fields.push({ name: tr('statusCard.field.created'), value: line(formatTime(created, now, locale)), inline: true });

  const buttons = [actionButton(tr('statusCard.button.refresh'), statusActions.refresh(swap.id))];
  if (!FINAL_SWAP_STATUSES.has(swap.status)) buttons.push(actionButton(tr('statusCard.button.track'), statusActions.track(swap.id)));
  // Only in private chats: their answers are free text, which groups do not send the bot.
  if (opts.audience === 'private' && money.next === 'send')
    buttons.push(actionButton(tr('statusCard.button.sent'), statusActions.sent(swap.id)));
  if (opts.audience === 'private' && phase.kind === 'expired')
    buttons.push(actionButton(tr('statusCard.button.where'), statusActions.where()));
  // Fitted here too: the tracking worker sends this card straight to a Messenger.
  return fitReply(
    {
      title: tr('statusCard.title', { id: shortId(swap.id), label: words.label }),
      tone: words.tone,
      lines,
      fields,
      buttons: [
        buttons,
        ...(opts.followed ? [followButtons(swap.id, opts.followed.muted === true, locale)] : []),
        ...(money.next === 'contact_support' || wrongTransfer(details) ? [[supportButton(locale)]] : []),
      ],
      target: 'here',
      layout: 'card',
    },
    locale,
  );
}

/** A group that hides amounts still sees the route: tokens and networks without numbers. */
function hiddenAmountFields(m: SwapMoney, on: { source?: string; destination?: string }, locale: Locale): Field[] {
  const what = (symbol: string, network?: string) => line(network ? t(locale, 'statusCard.amountOn', { amount: symbol, network }) : symbol);
  return [
    { name: t(locale, 'statusCard.field.send'), value: what(m.source.symbol, on.source), inline: true },
    {
      name: t(locale, m.received ? 'statusCard.field.received' : 'statusCard.field.receiveQuoted'),
      value: what(m.destination.symbol, on.destination),
      inline: true,
    },
  ];
}

/** The chain saw a transfer this swap cannot take (another token, or after it closed): support gets it back. */
function wrongTransfer(details: SwapDetails): boolean {
  const v = sightingOf(details)?.verdict;
  return v === 'wrong_token' || v === 'late' || v === 'no_memo';
}

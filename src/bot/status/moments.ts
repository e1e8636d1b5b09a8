import type { ChatTarget } from '../../contracts/incoming.js';
import {
  bold,
  code,
  copyButton,
  line,
  link,
  urlButton,
  type Button,
  type Line,
  type Reply,
  type Span,
  type Tone,
} from '../../contracts/reply.js';
import {
  DEFAULT_EXPECTED_COMPLETION_MS,
  lastEntered,
  MOMENT_KINDS,
  NOT_FOUND_GIVE_UP_MS,
  type Audience,
  type Moment,
  type MomentKind,
  type StopReason,
  type TrackedTimes,
  type CreatorNotes,
} from '../../contracts/tracking.js';
import { defaultLocale, formatDuration, t, tSpans, type CatalogKey, type Locale, type Vars } from '../../i18n/index.js';
import { PHASE_RANK, phaseOfSwap } from '../../layerswap/phase.js';
import type { SwapDetails, Transaction } from '../../layerswap/schemas.js';
import { sightingOf } from '../../contracts/chain.js';
import { maskAddress, shortId, sideName, txExplorer } from '../kernel/format.js';
import { chainSightingLines } from './chain-sighting.js';
import { swapAgainButton } from '../swap/index.js';
import { failReasonWords, phaseWords } from './words.js';
import { moneyNumber, moneyText, swapMoney, type SwapMoney } from '../money/model.js';
import { breakdownLines, differenceLines, refundFeeLines, supportButton } from '../money/words.js';

/**
 * What tracking sends besides the status card: the new messages at key moments (edits of the
 * card notify nobody), the support summary of a stuck swap, and the notice that tracking stopped.
 * Private chats get full addresses; groups and channels get masked ones and never deposit
 * details. The tracking engine is given them through `bot/renderer.ts`, every reply fitted.
 */

/** Each moment's title in the default locale (tests compare titles; cards use momentTitle). */
export const MOMENT_TITLES: Readonly<Record<MomentKind, string>> = Object.fromEntries(
  MOMENT_KINDS.map((k) => [k, momentTitle(k, defaultLocale())]),
) as Record<MomentKind, string>;

function momentTitle(kind: MomentKind | 'onHold', locale: Locale): string {
  return t(locale, `moment.title.${kind}`);
}

/** A deposit above the route's maximum: status failed, but held for review (reference section 4). */
export const ON_HOLD_TITLE = momentTitle('onHold', defaultLocale());

const TONES: Readonly<Record<MomentKind, Tone>> = {
  deposit_seen: 'pending',
  completed: 'success',
  failed: 'error',
  expired: 'warning',
  cancelled: 'warning',
  pending_refund: 'warning',
  refunded: 'info',
  stuck: 'warning',
  wrong_deposit: 'warning',
};

/**
 * A moment the swap has since moved past: "Deposit received" once the swap is completed,
 * refunded or closed. A chat that is behind is sent only what still matches its card.
 */
export function isStaleMoment(moment: Pick<Moment, 'kind'>, details: SwapDetails): boolean {
  return moment.kind === 'deposit_seen' && PHASE_RANK[phaseOfSwap(details).kind] > PHASE_RANK.processing;
}

export interface MomentContext {
  details: SwapDetails;
  state: TrackedTimes;
  target: ChatTarget;
  /** The chat's language (the default locale when not given). */
  locale?: Locale;
  /** Who reads it (tracking says: masked for anyone but the creator); else from the chat's kind. */
  audience?: Audience;
  /** What the creator told the bot: a refund address or none, "I've sent it". */
  notes?: CreatorNotes;
}

/** The reader's audience: what tracking says, else a private chat's is private. */
const audienceOf = (ctx: MomentContext): Audience => ctx.audience ?? (ctx.target.chatKind === 'private' ? 'private' : 'public');

type TxKind = 'input' | 'output' | 'refund';

export function renderMoment(moment: Moment, ctx: MomentContext): Reply {
  const { details } = ctx;
  const locale = ctx.locale ?? defaultLocale();
  const tr = (key: CatalogKey, vars?: Vars) => t(locale, key, vars);
  const sentence = (key: CatalogKey, vars: Readonly<Record<string, string | Span>>) => line(...tSpans(locale, key, vars));
  const s = details.swap;
  const isPublic = audienceOf(ctx) === 'public';
  const addr = (a: string) => code(isPublic ? maskAddress(a) : a);
  const id = code(s.id);
  const short = code(shortId(s.id));
  const copyId = copyButton(tr('moment.copyId'), s.id);
  const notes = ctx.notes;
  const money = swapMoney(details, ctx.state.lastPolledAt || Date.now(), {
    ...(notes?.refund !== undefined ? { refundAddress: notes.refund } : {}),
    ...(notes?.claim ? { claimed: notes.claim } : {}),
  });
  // The amount sent is a deposit detail: private chats only. Once a deposit is seen it is what
  // arrived (the model's), never the amount asked beside a different deposit.
  const sentNow = money.deposited ?? money.asked;
  const amount = !isPublic && sentNow ? `${moneyNumber(sentNow)} ` : '';
  // A cut-down swap (no tokens or networks) drops the route line rather than show blanks.
  // Phone width: the route on one line when it fits 40 characters, else where from and where to on two.
  const from = s.source_token && s.source_network ? `${amount}${s.source_token.symbol} ${sideName(details, 'source')}` : undefined;
  const to =
    s.destination_token && s.destination_network ? `→ ${s.destination_token.symbol} ${sideName(details, 'destination')}` : undefined;
  const route = from && to ? (from.length + to.length < 40 ? [line(`${from} ${to}`)] : [line(from), line(to)]) : [];
  const lines: Line[] = [...route];
  const buttons: Button[][] = [];
  const tx = (type: TxKind) => lastTx(s.transactions, type);
  const txLine = (type: TxKind, x: Transaction | undefined) => {
    if (!x?.transaction_hash) return;
    const url = txExplorer(details, x);
    lines.push(
      sentence('moment.txLine', {
        label: tr(`moment.tx.${type}`),
        hash: url ? link(shortHash(x.transaction_hash), url) : code(x.transaction_hash),
      }),
    );
    if (url) buttons.push([urlButton(tr(`moment.view.${type}`), url)]);
  };
  /** "… refunded (10 USDC) to 0x…": the variants a catalog sentence needs for what is known (an amount only once refunded). */
  const refundLine = (key: 'moment.refunding' | 'moment.refunded', refunded?: string) => {
    const to = money.refundAddress ? addr(money.refundAddress) : undefined;
    if (key === 'moment.refunded' && refunded !== undefined)
      return to ? sentence(`${key}.amountTo`, { amount: refunded, address: to }) : line(tr(`${key}.amount`, { amount: refunded }));
    return to ? sentence(`${key}.to`, { address: to }) : line(tr(`${key}.plain`));
  };

  switch (moment.kind) {
    case 'deposit_seen': {
      const input = tx('input');
      // The same words as the status card for the same data: one reading of the phase.
      const phase = phaseOfSwap(details);
      const now =
        phase.kind === 'confirming' || phase.kind === 'processing'
          ? [tr('moment.depositSeen.phase', { label: phaseWords(phase, s.status, s.fail_reason, locale).label }), ' ']
          : [];
      if (isPublic) {
        lines.push(line(...now, tr('moment.depositSeen.public')));
      } else {
        const sent = money.deposited ? moneyText(money.deposited) : '';
        const saw = sent ? tr('moment.depositSeen.sawAmount', { amount: sent }) : tr('moment.depositSeen.saw');
        lines.push(line(...now, saw, ' ', tr(phase.kind === 'processing' ? 'moment.depositSeen.sending' : 'moment.depositSeen.wait')));
        // Seen on chain first: where, in which block, how confirmed (chain-sighting.ts).
        if (money.onChain) lines.push(...chainSightingLines(details, locale));
        // Under- or over-payment is said at once, with what it means for the payout.
        lines.push(...differenceLines(money, locale));
        txLine('input', input);
      }
      break;
    }
    case 'completed': {
      const output = tx('output');
      const received = money.received ?? money.expected;
      if (received) {
        const what = bold(moneyText(received));
        lines.push(
          s.destination_network
            ? sentence('moment.completed.receivedOn', { amount: what, network: sideName(details, 'destination') })
            : sentence('moment.completed.received', { amount: what }),
        );
      }
      if (s.destination_address) lines.push(sentence('moment.completed.to', { address: addr(s.destination_address) }));
      // The receipt (private chats: amounts sent are deposit details): sent − deductions = received.
      const receipt = isPublic ? [] : breakdownLines(money, locale, true);
      if (receipt.length > 0) lines.push(line(bold(tr('money.receipt.title'))), ...receipt);
      if (!isPublic) txLine('input', tx('input'));
      txLine('output', output);
      // The same route, amount and destination again: private chats only (the destination is private).
      if (!isPublic) buttons.push([swapAgainButton(s.id, locale)]);
      break;
    }
    case 'failed': {
      if (phaseOfSwap(details).kind === 'on_hold') {
        const words = failReasonWords('received_more_than_valid_range', locale);
        lines.push(line(words.meaning), line(words.next), sentence('moment.swapId', { id: short }));
        return { title: momentTitle('onHold', locale), tone: 'warning', lines, buttons: [[copyId]], target: 'here' };
      }
      lines.push(line(s.fail_reason ? failReasonWords(s.fail_reason, locale).meaning : tr('moment.failed.noReason')));
      // "If funds were sent" only when the bot does not know: a deposit it saw (or was told of) is said as such.
      lines.push(sentence(money.deposited || money.claimed ? 'moment.contactSupportDeposited' : 'moment.contactSupport', { id }));
      buttons.push([supportButton(locale)]);
      break;
    }
    case 'expired':
      // A deposit the bot knows of (listed, or the user's word) is said as such, never "no deposit arrived".
      if (money.deposited || money.claimed) {
        lines.push(line(tr(money.deposited ? 'money.expired.deposited' : 'money.expired.claimed')));
        buttons.push([supportButton(locale)]);
        break;
      }
      lines.push(line(tr('moment.expired.text')));
      if (!isPublic) {
        lines.push(sentence('moment.expired.doNotSend', { id }));
        buttons.push([supportButton(locale)]);
      }
      break;
    case 'wrong_deposit': {
      // Money the swap cannot take: what arrived, its hash, and support (who gets it back).
      const c = sightingOf(details);
      if (c && (c.verdict === 'wrong_token' || c.verdict === 'late' || c.verdict === 'no_memo'))
        lines.push(...chainSightingLines(details, locale, { public: isPublic, paid: ctx.state.depositSeenAt !== undefined }));
      else {
        lines.push(line(tr('money.expired.deposited')));
        txLine('input', tx('input'));
      }
      buttons.push([supportButton(locale)]);
      break;
    }
    case 'cancelled':
      // A deposit the bot knows of is said as such (no "if funds were sent"), with the way to get it back.
      if (money.deposited || money.claimed) {
        lines.push(sentence('moment.cancelled.deposited', { id }));
        buttons.push([supportButton(locale)]);
      } else lines.push(sentence('moment.cancelled.text', { id }));
      break;
    case 'pending_refund':
      lines.push(refundLine('moment.refunding'));
      break;
    case 'refunded': {
      const refund = tx('refund');
      lines.push(refundLine('moment.refunded', money.refund?.amount ? moneyText(money.refund.amount) : undefined));
      if (!isPublic) lines.push(...refundFeeLines(money, locale));
      txLine('refund', refund);
      break;
    }
    case 'stuck':
      return renderStuck(ctx, locale, route, money);
  }
  // Phone width: the short id on its line, the full one a tap away (Copy; and on the status card).
  lines.push(sentence('moment.swapId', { id: short }));
  buttons.push([copyId]);
  return {
    title: momentTitle(moment.kind, locale),
    tone: TONES[moment.kind],
    lines,
    buttons,
    target: 'here',
  };
}

const STUCK_REFUND = { given: 'moment.stuck.notLost', none: 'moment.stuck.notLostNoRefund', unknown: 'moment.stuck.notLostMaybe' } as const;

function renderStuck(ctx: MomentContext, locale: Locale, route: Line[], money: SwapMoney): Reply {
  const { details, state } = ctx;
  const expected = state.expectedCompletionMs ?? DEFAULT_EXPECTED_COMPLETION_MS;
  const since = lastEntered(state.history, 'ls_transfer_pending') ?? state.lastChangeAt;
  const summary = supportSummary(details, state, audienceOf(ctx));
  const lines: Line[] = [
    ...route,
    line(
      t(locale, 'moment.stuck.sending', {
        status: 'ls_transfer_pending',
        expected: formatDuration(locale, expected, { about: true }),
        elapsed: formatDuration(locale, state.lastPolledAt - since),
      }),
    ),
    // A refund is promised only where a refund address is known to exist, "none" said only when known.
    line(t(locale, STUCK_REFUND[money.refundKnown])),
    ...summary.map((l) => line(code(l))),
  ];
  const text = summary.join('\n');
  // Telegram copy buttons hold at most 256 characters; the code lines above copy cleanly anyway.
  const buttons = [...(text.length <= 256 ? [[copyButton(t(locale, 'support.copySummary'), text)]] : []), [supportButton(locale)]];
  return { title: momentTitle('stuck', locale), tone: TONES.stuck, lines, buttons, target: 'here' };
}

function lastTx(txs: readonly Transaction[], type: string): Transaction | undefined {
  for (let i = txs.length - 1; i >= 0; i--) if (txs[i]?.type === type) return txs[i];
  return undefined;
}

const shortHash = (h: string) => (h.length > 20 ? `${h.slice(0, 10)}…${h.slice(-8)}` : h);

// --- the support summary a user pastes to Layerswap support ---

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * The summary's lines stay English in every language on purpose: they are pasted to Layerswap's
 * support, who read English; only the words around them (and the copy button) are translated.
 */
export function supportSummary(details: SwapDetails, state: Pick<TrackedTimes, 'history'>, audience: 'private' | 'public'): string[] {
  const s = details.swap;
  const addr = (a: string | null | undefined) => (a ? (audience === 'public' ? maskAddress(a) : a) : undefined);
  const lines = [`Swap id: ${s.id}`, `Status: ${s.status}${s.fail_reason ? ` (${s.fail_reason})` : ''}`];
  // A cut-down swap drops the lines it cannot fill.
  if (s.source_token && s.source_network && s.destination_token && s.destination_network) {
    lines.push(`Route: ${s.source_token.symbol} ${s.source_network.name} -> ${s.destination_token.symbol} ${s.destination_network.name}`);
  }
  // Amounts are deposit details (private only), from the money model: what was asked and what arrived.
  if (audience === 'private') {
    const m = swapMoney(details, 0);
    if (m.asked) lines.push(`Asked: ${moneyText(m.asked)}`);
    if (m.deposited) lines.push(`Deposited: ${moneyText(m.deposited)}`);
  }
  if (s.created_date) lines.push(`Created: ${s.created_date}`);
  const to = addr(s.destination_address);
  if (to) lines.push(`Destination address: ${to}`);
  const from = addr(s.source_address);
  if (from) lines.push(`Source address: ${from}`);
  const refund = addr(s.refund_address);
  if (refund) lines.push(`Refund address: ${refund}`);
  for (const tx of s.transactions) {
    if (!tx.transaction_hash) continue;
    lines.push(`${tx.type ?? 'unknown'} tx: ${tx.transaction_hash} (${tx.status ?? 'unknown'})`);
  }
  // No history known (a swap looked up, not followed): no History line rather than an empty one.
  if (state.history.length > 0) lines.push(`History: ${state.history.map((h) => `${h.status} ${iso(h.at)}`).join(', ')}`);
  return lines;
}

// --- tracking stopped early ---

/**
 * Nothing here depends on the swap's data (there may be none: a swap the service never found), so
 * it is the same text in private and public chats and shows no deposit details.
 */
export const STOPPED_TITLE = t(defaultLocale(), 'moment.stopped.title');

export function renderTrackingStopped(reason: StopReason, swapId: string, locale: Locale): Reply {
  const why: Record<StopReason, string> = {
    not_found: t(locale, 'moment.stopped.notFound', { duration: formatDuration(locale, NOT_FOUND_GIVE_UP_MS) }),
  };
  return {
    title: t(locale, 'moment.stopped.title'),
    tone: 'warning',
    lines: [
      line(...tSpans(locale, 'moment.stopped.noMore', { id: code(swapId) })),
      line(why[reason]),
      line(...tSpans(locale, 'moment.stopped.support', { command: code(`/status ${swapId}`) })),
    ],
    target: 'here',
  };
}

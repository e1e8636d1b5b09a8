import { sightingOf } from '../../src/contracts/chain.js';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { MOMENT_KINDS, type MomentKind } from '../../src/contracts/tracking.js';
import { LOCALES, t, type Locale } from '../../src/i18n/index.js';
import { BEFORE_DEPOSIT, phaseOfSwap } from '../../src/layerswap/phase.js';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { statusCard } from '../../src/bot/status/card.js';
import { swapRouteIn, swapStatusLabel } from '../../src/bot/status/list-card.js';
import { showsDepositAddress } from '../../src/bot/deposit/details.js';
import { depositCardAfter } from '../../src/bot/deposit/lifecycle.js';
import { swapsCsv } from '../../src/bot/history/csv.js';
import { awayLine } from '../../src/bot/follow/away.js';
import { swapMoney, type SwapMoney } from '../../src/bot/money/model.js';
import { failReasonWords } from '../../src/bot/status/words.js';
import { figuresNotInModel } from './money-scenarios.js';
import { DEPOSIT_ADDRESS, SWAP_ID, type Step } from './money-histories.js';

/**
 * The rules of what the bot may say about a swap's money (docs/money.md), as checks over every
 * surface rendered from one state of a generated history (money-histories.ts): the live status
 * card (private and in a group), /status (its creator and anyone else), the deposit card as tracking
 * edits it and as asked for again, the key moments (receipt included), the /history row and CSV
 * row, and the welcome-back line, each in all five languages. Rendering is pure (the renderers
 * over the model, no Redis), so thousands of histories run in seconds. `violations` returns each
 * broken rule as a readable line; none is the property.
 */

export interface Surface {
  name: string;
  reply: Reply;
  /** Carries the swap's route (exchanges must be named there). */
  route?: boolean;
  /** A status card (one confirmation count; expired says what to do with money sent anyway). */
  card?: boolean;
  /** Rendered with what the creator told the bot (so it may not hedge what they said). */
  knowsNotes?: boolean;
}

const PRIVATE: ChatTarget = { platform: 'console', chatId: 'u1', chatKind: 'private' };
const GROUP: ChatTarget = { platform: 'console', chatId: 'g1', chatKind: 'group' };

/** The moments tracking would send in the swap's current phase. */
function momentsOf(step: Step, evidence: boolean): MomentKind[] {
  const kind = phaseOfSwap(step.details).kind;
  const out: MomentKind[] = [];
  if (evidence) out.push('deposit_seen');
  const by: Partial<Record<typeof kind, MomentKind>> = {
    delivered: 'completed',
    failed: 'failed',
    on_hold: 'failed',
    expired: 'expired',
    cancelled: 'cancelled',
    refunding: 'pending_refund',
    refunded: 'refunded',
    processing: 'stuck',
  };
  const k = by[kind];
  if (k && MOMENT_KINDS.includes(k)) out.push(k);
  // Money the swap cannot take: a wrong or late transfer on chain, a deposit listed after it closed.
  const c = sightingOf(step.details);
  const listed = step.details.swap.transactions.some((x) => x.type === 'input' && x.status !== 'failed');
  if (c?.verdict === 'wrong_token' || c?.verdict === 'late' || ((kind === 'expired' || kind === 'cancelled') && listed))
    out.push('wrong_deposit');
  return out;
}

/** Every surface of one state, in one language. */
function surfaces(step: Step, locale: Locale): Surface[] {
  const { details, now, notes, depositSeen } = step;
  const view = { depositSeen, notes };
  const out: Surface[] = [
    {
      name: 'tracked card',
      reply: trackingRenderer.card(details, PRIVATE, view, locale, 'private'),
      route: true,
      card: true,
      knowsNotes: true,
    },
    { name: 'group card', reply: trackingRenderer.card(details, GROUP, view, locale, 'public'), route: true, card: true, knowsNotes: true },
    {
      name: '/status (creator)',
      reply: statusCard(details, { audience: 'private', now, locale, notes, depositSeen }),
      route: true,
      card: true,
      knowsNotes: true,
    },
    {
      name: '/status (anyone)',
      reply: statusCard(details, { audience: 'public', now, locale, notes, depositSeen }),
      route: true,
      card: true,
      knowsNotes: true,
    },
  ];
  const edited = trackingRenderer.depositCard?.(details, locale, notes);
  if (edited) out.push({ name: 'deposit card (edited)', reply: edited, knowsNotes: true });
  // The deposit card asked for again (/status, Deposit details, a repeated Confirm): the address card, or its later state.
  if (showsDepositAddress(details, { seen: depositSeen, notes }))
    out.push({
      name: 'deposit card (asked again)',
      reply: {
        title: 'deposit card',
        lines: [[{ kind: 'code', text: DEPOSIT_ADDRESS }]],
        buttons: [[{ kind: 'action', label: t(locale, 'statusCard.button.sent'), action: 'sn' }]],
        target: 'dm',
      },
    });
  else {
    const after = depositCardAfter(details, now, locale, notes);
    if (after) out.push({ name: 'deposit card (asked again)', reply: after, knowsNotes: true });
  }
  const state = {
    history: [{ status: details.swap.status, at: now - 60_000 }],
    lastPolledAt: now,
    lastChangeAt: now - 3_600_000,
    ...(depositSeen ? { depositSeenAt: now - 60_000 } : {}),
  };
  const evidence = evidenceOf(step).any;
  for (const kind of momentsOf(step, evidence)) {
    const moment = { kind, version: 1, at: now };
    for (const target of [PRIVATE, GROUP])
      out.push({
        name: `moment ${kind} (${target.chatKind})`,
        reply: trackingRenderer.moment(moment, {
          details,
          state,
          target,
          locale,
          notes,
          audience: target === GROUP ? 'public' : 'private',
        }),
        route: true,
        knowsNotes: true,
      });
  }
  const row = `${swapRouteIn(details, locale)} · ${swapStatusLabel(details, locale)}`;
  out.push({ name: '/history row', reply: { lines: [[{ kind: 'text', text: row }]], target: 'here' }, route: true });
  const csv = swapsCsv([{ entry: { swapId: SWAP_ID, createdAt: now, summary: '' }, details }]);
  out.push({ name: 'CSV row', reply: { lines: [[{ kind: 'text', text: csv }]], target: 'here' }, route: true });
  out.push({ name: 'welcome back', reply: { lines: [[{ kind: 'text', text: awayLine(details, locale) }]], target: 'here' } });
  return out;
}

/** What the bot has as evidence of a deposit, and whether a wrong token may still be answered with "send the right one". */
function evidenceOf(step: Step): { any: boolean; paid: boolean; wrongTokenOpen: boolean } {
  const d = step.details;
  const c = sightingOf(d);
  const listed = d.swap.transactions.some((x) => x.type === 'input' && x.status !== 'failed');
  const chainDeposit = c !== undefined && ['ok', 'less', 'more'].includes(c.verdict);
  const paid = listed || chainDeposit || step.depositSeen;
  const wrongTokenOpen = c?.verdict === 'wrong_token' && BEFORE_DEPOSIT.has(d.swap.status) && !paid;
  // A claim explained by a wrong token the chain saw is not evidence of the right one.
  const claimed = step.notes.claim !== undefined && !wrongTokenOpen;
  return { any: paid || claimed, paid, wrongTokenOpen };
}

/** The fixed sentences the rules look for, once per language (i18next lookups are the rules' main cost). */
const WORDS = new Map<Locale, ReturnType<typeof wordsOf>>();
function wordsOf(locale: Locale) {
  const cut = (s: string) => s.split('\u0000');
  return {
    send: [t(locale, 'money.next.send'), t(locale, 'deposit.sendExactly'), t(locale, 'deposit.withdrawExactly')],
    payButtons: [t(locale, 'statusCard.button.sent'), t(locale, 'deposit.copyAddress'), t(locale, 'deposit.copyAmount')],
    sendField: t(locale, 'statusCard.field.send'),
    rightToken: cut(t(locale, 'statusCard.chain.wrong_token', { expected: '\u0000' }))[0]!,
    refundHedges: [t(locale, 'money.refundIfGiven'), t(locale, 'moment.stuck.notLostMaybe')],
    ifSent: t(locale, 'moment.contactSupport', { id: SWAP_ID }),
    estimateName: t(locale, 'money.field.receiveEstimate'),
    estimate: cut(t(locale, 'money.expected.estimate', { amount: '\u0000' }))[1]!,
    receipt: t(locale, 'money.receipt.title'),
    refuel: t(locale, 'money.receipt.refuel'),
    support: t(locale, 'money.supportButton'),
    swapIdLabel: cut(t(locale, 'moment.swapId', { id: '\u0000' }))[0]!,
    expired: [t(locale, 'money.expired.deposited'), t(locale, 'money.expired.claimed'), t(locale, 'money.expired.alreadySent')],
  };
}
const words = (locale: Locale) => WORDS.get(locale) ?? (WORDS.set(locale, wordsOf(locale)), WORDS.get(locale)!);

const text = (r: Reply) => [replyText(r), ...replyButtons(r).map((b) => `[${b.label}]`)].join('\n');

/** Every rule one surface breaks, as readable lines. */
function violations(step: Step, s: Surface, locale: Locale, model: SwapMoney): string[] {
  const out: string[] = [];
  const bad = (rule: string) => out.push(`${s.name} [${locale}]: ${rule}`);
  const body = text(s.reply);
  const ev = evidenceOf(step);
  const has = (needle: string) => needle.length > 0 && body.includes(needle);
  const w = words(locale);

  // 1. Once there is any evidence of a deposit: nothing says send, shows the address or QR, or offers "I've sent it".
  if (ev.any) {
    for (const x of w.send) if (has(x)) bad(`tells to send after a deposit ("${x}")`);
    if (body.toLowerCase().includes(DEPOSIT_ADDRESS.toLowerCase())) bad('shows the deposit address after a deposit');
    if (s.reply.image) bad('shows a QR after a deposit');
    for (const b of replyButtons(s.reply)) if (w.payButtons.includes(b.label)) bad(`offers "${b.label}" after a deposit`);
    for (const f of s.reply.fields ?? []) if (f.name === w.sendField) bad('a "Send" field after a deposit');
  }
  // "Send the right token" only while the swap can still take it.
  if (!ev.wrongTokenOpen && has(w.rightToken)) bad('says to send the right token when the swap cannot take it');

  // 2. No fact and its hedge together.
  if (s.knowsNotes && step.notes.refund !== undefined)
    for (const x of w.refundHedges) if (has(x)) bad(`hedges the refund address it knows ("${x}")`);
  if (s.knowsNotes && (model.deposited || model.claimed) && has(w.ifSent)) bad('says "if funds were sent" of a deposit it knows');
  const reason = step.details.swap.fail_reason;
  if (reason) {
    const meaning = failReasonWords(reason, locale).meaning;
    if (body.split(meaning).length > 2) bad('says the failure reason twice');
  }
  for (const f of s.reply.fields ?? [])
    if (f.name === w.estimateName && replyText({ lines: [f.value], target: 'here' }).includes(w.estimate))
      bad('"(estimate)" twice in one field');

  // 3. Every figure is the model's; USD adds up to the cent as shown; never "$-0.00".
  const strange = figuresNotInModel(body, [model]);
  if (strange.length > 0) bad(`figures not in the money model: ${strange.join(', ')}`);
  if (/\$-|-\$0\.00\b/.test(body)) bad('a negative-zero or "$-" dollar figure');
  const receipt = receiptCents(s.reply, locale);
  if (receipt && receipt.sent - receipt.parts.reduce((a, b) => a + b, 0) !== receipt.result)
    bad(`USD does not add up: ${receipt.sent} − (${receipt.parts.join(' + ')}) ≠ ${receipt.result} cents`);

  // 4. A transfer the swap cannot take: the hash and the support link on the card that says so.
  const c = sightingOf(step.details);
  // (private cards: a public one masks the hash)
  if (
    s.card &&
    c &&
    (c.verdict === 'wrong_token' || c.verdict === 'late') &&
    (s.name === 'tracked card' || s.name === '/status (creator)')
  ) {
    if (!body.includes(c.txHash)) bad('a wrong or late transfer without its transaction hash');
    if (!replyButtons(s.reply).some((b) => b.label === w.support)) bad('a wrong or late transfer without the support link');
  }

  // A money event the user must act on is a message of its own, with the transaction and the support link.
  if (s.name === 'moment wrong_deposit (private)') {
    const tx =
      c && (c.verdict === 'wrong_token' || c.verdict === 'late')
        ? c.txHash
        : step.details.swap.transactions.find((x) => x.type === 'input')?.transaction_hash;
    if (tx && !body.includes(tx)) bad('money it cannot take, told without the transaction hash');
    if (!replyButtons(s.reply).some((b) => b.label === w.support)) bad('money it cannot take, told without the support link');
  }

  // Phone width: a key moment's recurring lines (the route, the swap id) fit 40 characters; the full id is one tap away.
  // (the stuck message's support summary is a block to paste, copied whole by its own button)
  if (s.name.startsWith('moment ') && !s.name.includes('stuck')) {
    for (const l of replyText(s.reply).split('\n'))
      if ((l.includes(' → ') || l.startsWith('→ ') || l.startsWith(w.swapIdLabel)) && [...l].length > 40)
        bad(`a line wider than a phone: "${l}"`);
    if (!replyButtons(s.reply).some((b) => b.kind === 'copy' && b.text === SWAP_ID)) bad('no Copy of the full swap id');
  }

  // 5. Exchanges are named wherever the route is.
  if (s.route) {
    if (step.world.from === 'exchange' && !has('Coinbase')) bad('the route without its source exchange');
    if (step.world.to === 'exchange' && !has('Binance')) bad('the route without its destination exchange');
  }
  if (step.world.to === 'exchange' && has(w.refuel)) bad('refuel into an exchange');

  // 6. A status card: one confirmation count; an expired one says what to do with money sent anyway.
  if (s.card) {
    const counts = new Set([...body.matchAll(/(?<![\d/.:-])(\d{1,2})\/(\d{1,2})(?![\d/])/g)].map((m) => `${m[1]}/${m[2]}`));
    if (counts.size > 1) bad(`two confirmation counts: ${[...counts].join(', ')}`);
    if (phaseOfSwap(step.details).kind === 'expired') {
      if (!w.expired.some(has)) bad('an expired card without "already sent? contact support"');
    }
  }
  return out;
}

/** The receipt's (or confirm card's) USD figures in cents: sent, each deduction, the result. */
function receiptCents(r: Reply, locale: Locale): { sent: number; parts: number[]; result: number } | undefined {
  const lines = replyText(r).split('\n');
  const start = lines.indexOf(words(locale).receipt);
  if (start < 0) return undefined;
  const usd = lines
    .slice(start + 1)
    .map((l) => /(-?)\$([\d,]+)\.(\d\d)/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => (m[1] ? -1 : 1) * (Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3])));
  if (usd.length < 2) return undefined;
  return { sent: usd[0]!, parts: usd.slice(1, -1), result: usd.at(-1)! };
}

/** Every rule broken by any surface of any step of a history, in every language. */
export function historyViolations(steps: readonly Step[], locales: readonly Locale[] = LOCALES): string[] {
  const out: string[] = [];
  for (const [i, step] of steps.entries()) {
    const model = swapMoney(step.details, step.now, {
      depositSeen: step.depositSeen,
      ...(step.notes.refund !== undefined ? { refundAddress: step.notes.refund } : {}),
      ...(step.notes.claim ? { claimed: step.notes.claim } : {}),
    });
    for (const locale of locales)
      for (const s of surfaces(step, locale)) for (const v of violations(step, s, locale, model)) out.push(`step ${i + 1}: ${v}`);
    if (out.length > 0) return out;
  }
  return out;
}

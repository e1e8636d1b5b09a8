import { bold, italic, line, text, urlButton, type Button, type Field, type Line } from '../../contracts/reply.js';
import { t, type Locale, type Vars } from '../../i18n/index.js';
import { formatUsd } from '../kernel/format.js';
import { unitsText } from './units.js';
import { moneyText, moneyUsd, sentOf, type Deduction, type Money, type SwapMoney } from './model.js';

/**
 * The money model in words, shared by every message that speaks of amounts (status card, key
 * moments, deposit card, confirm card, receipt): the same figure always reads the same way.
 */

/** Where Layerswap support answers (reference section 14: Intercom on the site, and this chat). */
const SUPPORT_URL = 'https://t.me/layerswap_io';

export const supportButton = (locale: Locale): Button => urlButton(t(locale, 'money.supportButton'), SUPPORT_URL);

const withUsd = (locale: Locale, m: Money): string => {
  const usd = formatUsd(moneyUsd(m));
  return usd ? t(locale, 'quote.withUsd', { text: moneyText(m), usd }) : moneyText(m);
};

/** "about 79.15 USDC (estimate)", "79.157021 USDC (updated quote)" or just the amount. */
export function expectedText(m: SwapMoney, locale: Locale): string | undefined {
  const e = m.expected;
  if (!e) return undefined;
  const amount = moneyText(e);
  if (m.received) return amount;
  if (e.basis === 'estimate') return t(locale, 'money.expected.estimate', { amount });
  if (e.basis === 'updated_quote') return t(locale, 'money.expected.updated', { amount });
  return amount;
}

/** The field name for what the user receives, by what is known. */
function receiveName(m: SwapMoney, locale: Locale): string {
  if (m.received) return t(locale, 'statusCard.field.received');
  if (m.expected?.basis === 'estimate') return t(locale, 'money.field.receiveEstimate');
  if (m.expected?.basis === 'updated_quote') return t(locale, 'money.field.receiveUpdated');
  return t(locale, 'statusCard.field.receiveQuoted');
}

/** Phases where nothing will be received (so no "Receive (quoted)" is shown). */
const NO_PAYOUT = new Set(['refunding', 'refunded', 'expired', 'failed', 'cancelled', 'on_hold']);

/**
 * The amount fields of a card: what was asked / sent, what arrives (or arrived), what came back.
 * `on` names the network after an amount.
 */
export function moneyFields(m: SwapMoney, locale: Locale, on: { source?: string; destination?: string }): Field[] {
  const at = (s: string, where?: string) => (where ? t(locale, 'statusCard.amountOn', { amount: s, network: where }) : s);
  const fields: Field[] = [];
  if (m.deposited) {
    fields.push({
      id: 'deposited',
      name: t(locale, 'money.field.deposited'),
      value: line(at(moneyText(m.deposited), on.source)),
      inline: true,
    });
    if (m.difference && m.asked)
      fields.push({ id: 'asked', name: t(locale, 'money.field.asked'), value: line(moneyText(m.asked)), inline: true });
  } else if (m.asked) {
    // "Send" only while a deposit is still wanted; afterwards it is only what was asked.
    fields.push({
      id: 'send',
      name: t(locale, m.next === 'send' ? 'statusCard.field.send' : 'money.field.asked'),
      value: line(at(moneyText(m.asked), on.source)),
      inline: true,
    });
  }
  if (m.received || (m.expected && !NO_PAYOUT.has(m.phase.kind))) {
    const value = m.received ? moneyText(m.received) : expectedText(m, locale);
    if (value) fields.push({ id: 'receive', name: receiveName(m, locale), value: line(at(value, on.destination)), inline: true });
  }
  if (m.refund?.amount)
    fields.push({ id: 'refunded', name: t(locale, 'money.field.refunded'), value: line(moneyText(m.refund.amount)), inline: true });
  return fields;
}

/** Under- or over-payment in one sentence, with what it means; undefined when the deposit is as asked. */
export function differenceLines(m: SwapMoney, locale: Locale): Line[] {
  const d = m.difference;
  if (!d || !m.deposited || !m.asked) return [];
  const vars: Vars = { deposited: moneyText(m.deposited), diff: moneyText(d.amount), asked: moneyText(m.asked) };
  const expected = expectedText(m, locale);
  const lines: Line[] = [line(bold(t(locale, `money.${d.kind}.head`, vars)))];
  if (NO_PAYOUT.has(m.phase.kind)) return lines;
  lines.push(line(expected && !m.received ? t(locale, 'money.runsOn', { expected }) : t(locale, 'money.runsOnPlain')));
  lines.push(line(italic(t(locale, d.kind === 'under' ? 'money.under.rule' : 'money.over.rule'))));
  return lines;
}

/** The next step in words (one per phase; never "send" once a deposit is seen). */
export function nextWords(m: SwapMoney, locale: Locale): string {
  return t(locale, `money.next.${m.next}`);
}

/**
 * Lines for bad days: a refund promised only where a refund address exists, a path for a deposit
 * sent to an expired swap, an exchange holding a withdrawal, and times past said as passed.
 */
export function badDayLines(m: SwapMoney, locale: Locale, opts: { now: number; private: boolean; lateLine?: boolean }): Line[] {
  const lines: Line[] = [];
  const kind = m.phase.kind;
  // Said when it matters (late, or the swap stopped), not on every healthy card.
  // "No refund address" only from our record: the service's answer never says either way.
  if (((kind === 'processing' && m.late) || kind === 'failed') && m.refundKnown !== 'given' && m.deposited)
    lines.push(line(t(locale, m.refundKnown === 'none' ? 'money.noRefundAddress' : 'money.refundIfGiven')));
  if (kind === 'expired' && opts.private)
    lines.push(line(t(locale, m.deposited ? 'money.expired.deposited' : 'money.expired.alreadySent')));
  if (kind === 'waiting' && m.sourceExchange && opts.private)
    lines.push(line(t(locale, 'money.exchangeHold', { exchange: m.sourceExchange })));
  if (m.late && opts.lateLine !== false) lines.push(line(italic(t(locale, 'money.late'))));
  lines.push(...refundFeeLines(m, locale));
  return lines;
}

/** A refund smaller than the deposit: how much came back and what sending it cost (never "minus fees" then the whole amount). */
export function refundFeeLines(m: SwapMoney, locale: Locale): Line[] {
  if (!m.refund?.amount || !m.deposited || m.refund.amount.token.symbol !== m.deposited.token.symbol) return [];
  const kept = m.deposited.units - m.refund.amount.units;
  return kept > 0n
    ? [
        line(
          t(locale, 'money.refundFee', {
            refunded: moneyText(m.refund.amount),
            deposited: moneyText(m.deposited),
            fee: `${unitsText(kept, m.source.decimals)} ${m.source.symbol}`,
          }),
        ),
      ]
    : [];
}

/** One deduction's label. */
function deductionLabel(d: Deduction, locale: Locale): string {
  if (d.kind === 'refuel' && d.delivers)
    return t(locale, 'money.receipt.refuelDelivers', { amount: `${d.delivers.amount} ${d.delivers.symbol}`.trim() });
  return t(locale, `money.receipt.${d.kind}`);
}

export interface Reconciliation {
  sent: Money;
  deductions: Deduction[];
  /** sent − Σ deductions, in the source token: the payout's worth in source units. */
  net: Money;
}

/** The arithmetic a receipt and a confirm card show; undefined when it cannot be made exact. */
export function reconcile(m: SwapMoney): Reconciliation | undefined {
  const sent = sentOf(m);
  if (!sent || !m.reconciled) return undefined;
  const total = m.deductions.reduce((a, d) => a + d.amount.units, 0n);
  return { sent, deductions: m.deductions, net: { units: sent.units - total, token: sent.token } };
}

/**
 * The breakdown lines: sent, − each deduction (token and USD), = what is received (and its worth in
 * the source token when the assets differ). The same for the receipt (received) and the confirm
 * card (quoted); `final` picks the words.
 */
export function breakdownLines(m: SwapMoney, locale: Locale, final: boolean): Line[] {
  const r = reconcile(m);
  const sent = sentOf(m);
  const outcome = final ? m.received : m.expected;
  if (!sent || !outcome) return [];
  const lines: Line[] = [line(t(locale, final ? 'money.receipt.sent' : 'quote.field.send'), ': ', bold(withUsd(locale, sent)))];
  for (const d of m.deductions) {
    lines.push(line(`${t(locale, 'money.receipt.minus', { what: deductionLabel(d, locale) })}: `, text(withUsd(locale, d.amount))));
  }
  const worth = r && !m.sameAsset ? ` ${t(locale, 'money.receipt.worth', { amount: moneyText(r.net) })}` : '';
  lines.push(
    line(
      `${t(locale, 'money.receipt.equals', { what: t(locale, final ? 'money.receipt.received' : 'quote.field.receive') })}: `,
      bold(withUsd(locale, outcome)),
      worth,
    ),
  );
  if (!r) lines.push(line(italic(t(locale, 'money.receipt.noRate'))));
  return lines;
}

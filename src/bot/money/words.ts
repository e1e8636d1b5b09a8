import { bold, italic, line, text, urlButton, type Button, type Field, type Line } from '../../contracts/reply.js';
import { t, type Locale, type Vars } from '../../i18n/index.js';
import { unitsText, unitsValue } from './units.js';
import { moneyText, sentOf, type Deduction, type Money, type SwapMoney } from './model.js';

/**
 * The money model in words, shared by every message that speaks of amounts (status card, key
 * moments, deposit card, confirm card, receipt): the same figure always reads the same way.
 */

/** Where Layerswap support answers (reference section 14: Intercom on the site, and this chat). */
const SUPPORT_URL = 'https://t.me/layerswap_io';

export const supportButton = (locale: Locale): Button => urlButton(t(locale, 'money.supportButton'), SUPPORT_URL);

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

/** What a "Receive (…)" field shows: "about 79.15 USDC" for an estimate, else the amount. */
function expectedValue(m: SwapMoney, locale: Locale): string | undefined {
  const e = m.expected;
  if (!e) return undefined;
  return e.basis === 'estimate' ? t(locale, 'money.expected.about', { amount: moneyText(e) }) : moneyText(e);
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
    // The field's name says how it is known ("Receive (estimate)"): the value does not say it again.
    const value = m.received ? moneyText(m.received) : expectedValue(m, locale);
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
  // No rule about the route's limits here: the model does not know them, and a deposit outside them is the service's to say (fail reason).
  lines.push(line(expected && !m.received ? t(locale, 'money.runsOn', { expected }) : t(locale, 'money.runsOnPlain')));
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
  // Said to everyone who sees an expired swap (no private detail in it): money sent anyway is not lost.
  if (kind === 'expired')
    lines.push(
      line(t(locale, m.deposited ? 'money.expired.deposited' : m.claimed ? 'money.expired.claimed' : 'money.expired.alreadySent')),
    );
  if (kind === 'waiting' && m.sourceExchange) lines.push(line(t(locale, 'money.exchangeHold', { exchange: m.sourceExchange })));
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

/** Whole cents as shown: "$99.13", "-$0.01", never "$-0.00". */
export function centsText(cents: bigint): string {
  const neg = cents < 0n;
  const a = neg ? -cents : cents;
  const whole = (a / 100n).toLocaleString('en-US');
  return `${neg ? '-' : ''}$${whole}.${(a % 100n).toString().padStart(2, '0')}`;
}

/**
 * The USD of a breakdown in whole cents that add up as shown: sent − Σ deductions = net, each
 * rounded, and where the rounding of the parts leaves a cent over, it goes to the parts whose
 * rounding was closest to the other way (largest remainder). Undefined without the source's price.
 */
export function breakdownCents(m: SwapMoney): { sent: bigint; deductions: bigint[]; net: bigint } | undefined {
  const r = reconcile(m);
  const price = r?.sent.token.usd;
  if (!r || price === undefined) return undefined;
  const exact = (x: Money) => unitsValue(x.units, x.token.decimals) * price * 100;
  const sent = BigInt(Math.round(exact(r.sent)));
  const net = BigInt(Math.round(exact(r.net)));
  const raw = r.deductions.map((d) => exact(d.amount));
  const cents = raw.map((v) => BigInt(Math.round(v)));
  let over = sent - net - cents.reduce((a, c) => a + c, 0n);
  // One cent at a time to the part whose exact value is nearest to it.
  const order = raw.map((v, i) => i);
  while (over !== 0n && order.length > 0) {
    const step = over > 0n ? 1n : -1n;
    order.sort((a, b) => Number(step) * (raw[b]! - Number(cents[b]!)) - Number(step) * (raw[a]! - Number(cents[a]!)));
    const i = order[0]!;
    cents[i] = cents[i]! + step;
    over -= step;
  }
  return { sent, deductions: cents, net };
}

/**
 * The breakdown lines: sent, − each deduction (token and USD), = what is received (and its worth in
 * the source token when the assets differ). The same for the receipt (received) and the confirm
 * card (quoted); `final` picks the words. The USD figures add up to the cent as shown: the result's
 * is the net's worth at the source token's price.
 */
export function breakdownLines(m: SwapMoney, locale: Locale, final: boolean): Line[] {
  const r = reconcile(m);
  const sent = sentOf(m);
  const outcome = final ? m.received : m.expected;
  if (!sent || !outcome) return [];
  const cents = breakdownCents(m);
  const usd = (amount: Money, c: bigint | undefined) =>
    c === undefined ? moneyText(amount) : t(locale, 'quote.withUsd', { text: moneyText(amount), usd: centsText(c) });
  const lines: Line[] = [line(t(locale, final ? 'money.receipt.sent' : 'quote.field.send'), ': ', bold(usd(sent, cents?.sent)))];
  m.deductions.forEach((d, i) => {
    lines.push(
      line(`${t(locale, 'money.receipt.minus', { what: deductionLabel(d, locale) })}: `, text(usd(d.amount, cents?.deductions[i]))),
    );
  });
  const worth = r && !m.sameAsset ? ` ${t(locale, 'money.receipt.worth', { amount: moneyText(r.net) })}` : '';
  lines.push(
    line(
      `${t(locale, 'money.receipt.equals', { what: t(locale, final ? 'money.receipt.received' : 'quote.field.receive') })}: `,
      bold(usd(outcome, cents?.net)),
      worth,
    ),
  );
  if (!r) lines.push(line(italic(t(locale, 'money.receipt.noRate'))));
  return lines;
}

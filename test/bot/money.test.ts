import { fc, test as prop } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { depositCards } from '../../src/bot/deposit/card.js';
import { depositCardAfter } from '../../src/bot/deposit/lifecycle.js';
import { qrPayload } from '../../src/bot/deposit/qr.js';
import { readableLimit } from '../../src/bot/catalog/limits.js';
import { depositPlan } from '../../src/bot/deposit/plan.js';
import { renderMoment } from '../../src/bot/status/moments.js';
import { statusCard } from '../../src/bot/status/card.js';
import { swapsCsv } from '../../src/bot/history/csv.js';
import { moneyNumber, moneyText, swapMoney } from '../../src/bot/money/model.js';
import { quoteMoney } from '../../src/bot/money/quote-money.js';
import { swapRouteIn, swapStatusLabel } from '../../src/bot/status/list-card.js';
import { figuresNotInModel } from '../support/money-scenarios.js';
import { rescale as rescaleUnits, unitsText } from '../../src/bot/money/units.js';
import { breakdownLines, reconcile } from '../../src/bot/money/words.js';
import { replyText, type Reply } from '../../src/contracts/reply.js';
import { MOMENT_KINDS, type MomentKind } from '../../src/contracts/tracking.js';
import { QuoteResponseSchema, SwapDetailsSchema, type SwapDetails } from '../../src/layerswap/schemas.js';
import { fixtureData, fixtureNames } from '../support/fixtures.js';
import { ARBITRUM, BASE, DEST, hash, NOW, QUOTE, SWAP_ID, swapDetails, USDC, DEPOSIT_ADDRESS, manualTransfer } from '../support/swaps.js';

const arb = ARBITRUM;
const base = BASE;
const usdc = USDC;
const ID = SWAP_ID;

function details(
  status: string,
  txs: unknown[] = [],
  extra: Record<string, unknown> = {},
  quote: Record<string, unknown> = QUOTE,
  more: Record<string, unknown> = {},
): SwapDetails {
  return swapDetails(status, txs, { swap: extra, quote, more });
}
const input = (amount: number, status = 'completed', confirmations = 3) => ({
  type: 'input',
  status,
  amount,
  confirmations,
  max_confirmations: 3,
  transaction_hash: hash('a'),
  timestamp: '2026-01-01T11:59:00+00:00',
  network: arb,
  token: usdc,
});
const output = (amount: number) => ({
  type: 'output',
  status: 'completed',
  amount,
  confirmations: 1,
  max_confirmations: 1,
  transaction_hash: hash('b'),
  network: base,
  token: usdc,
});
const refund = (amount: number) => ({
  type: 'refund',
  status: 'completed',
  amount,
  transaction_hash: hash('c'),
  network: arb,
  token: usdc,
});

describe('the money model', () => {
  test('under-payment: 80 of 100 arrives; it is said at once, the expected amount is re-derived and labelled an estimate, the receipt reconciles', () => {
    const seen = details('user_transfer_pending', [input(80, 'pending', 1)]);
    const m = swapMoney(seen, NOW);
    expect(m.difference).toEqual({ kind: 'under', amount: { units: 20_000_000n, token: m.source } });
    expect(m.expected?.basis).toBe('estimate');
    expect(moneyText(m.expected!)).toBe('79.152261 USDC');
    expect(m.next).toBe('wait_confirmations');
    const moment = replyText(
      renderMoment(
        { kind: 'deposit_seen', version: 1, at: NOW },
        {
          details: seen,
          state: { history: [], lastPolledAt: NOW, lastChangeAt: NOW },
          target: { platform: 'console', chatId: 'u', chatKind: 'private' },
        },
      ),
    );
    expect(moment).toContain('You sent 80 USDC: 20 USDC less than the 100 USDC asked.');
    expect(moment).toContain('you now receive about 79.152261 USDC (estimate)');
    const card = replyText(statusCard(seen, { audience: 'private', now: NOW }));
    expect(card).toContain('Deposited: 80 USDC on Arbitrum One');
    expect(card).toContain('Asked: 100 USDC');
    // The field's name says "estimate"; the value does not say it again (issue 32).
    expect(card).toContain('Receive (estimate): about 79.152261 USDC on Base');
    expect(card).not.toContain('Receive (quoted)');

    const done = details('completed', [input(80), output(79.157021)]);
    const r = reconcile(swapMoney(done, NOW));
    expect(r && moneyText(r.net)).toBe('79.157021 USDC');
    const receipt = replyText(
      renderMoment(
        { kind: 'completed', version: 2, at: NOW },
        {
          details: done,
          state: { history: [], lastPolledAt: NOW, lastChangeAt: NOW },
          target: { platform: 'console', chatId: 'u', chatKind: 'private' },
        },
      ),
    );
    expect(receipt).toContain('Sent: 80 USDC ($80.00)');
    expect(receipt).toContain('− Service fee: 0.2 USDC ($0.20)');
    expect(receipt).toContain('− Network fee: 0.647739 USDC ($0.65)');
    // 80 − 0.847739 − 79.157021 = −0.00476: the payout came out a little above the estimate.
    expect(receipt).toContain('− Price difference: -0.00476 USDC');
    expect(receipt).toContain('= Received: 79.157021 USDC');
  });

  test("over-payment: said with the review rule above the maximum; the service's updated quote is used when it has one", () => {
    const m = swapMoney(
      details('user_transfer_pending', [input(120, 'pending', 0)], {}, { ...QUOTE, requested_amount: 120, receive_amount: 119.15 }),
      NOW,
    );
    expect(m.difference?.kind).toBe('over');
    expect(m.expected?.basis).toBe('updated_quote');
    const card = replyText(statusCard(details('user_transfer_pending', [input(120, 'pending', 0)]), { audience: 'private', now: NOW }));
    expect(card).toContain('You sent 120 USDC: 20 USDC more than the 100 USDC asked.');
    // The model does not know the route's limits: no rule about them beside a deposit inside them (issue 32).
    expect(card).not.toContain("Above the route's maximum");
  });

  test('refuel: 100 − 0.847739 − 1.000234 = 98.152027, the refuel a listed deduction with what it delivers', () => {
    const q = { ...QUOTE, refuel_in_source: 1.000234, receive_amount: 98.152027 };
    const done = details('completed', [input(100), output(98.152027)], {}, q, {
      refuel: { amount: 0.0003, amount_in_usd: 1.0, token: { symbol: 'ETH', decimals: 18 } },
    });
    const m = swapMoney(done, NOW);
    expect(m.deductions.map((d) => [d.kind, moneyText(d.amount)])).toEqual([
      ['service_fee', '0.2 USDC'],
      ['network_fee', '0.647739 USDC'],
      ['refuel', '1.000234 USDC'],
    ]);
    const text = breakdownLines(m, 'en', true)
      .map((l) => l.map((s) => s.text).join(''))
      .join('\n');
    expect(text).toContain('− Refuel (0.0003 ETH for gas): 1.000234 USDC');
    const [header, row] = swapsCsv([{ entry: { swapId: ID, createdAt: NOW, summary: '' }, details: done }]).split('\r\n');
    const cells = Object.fromEntries(header!.split(',').map((h, i) => [h, row!.split(',')[i]]));
    expect(cells).toMatchObject({
      amount_sent: '100',
      amount_received: '98.152027',
      refuel: '1.000234',
      refuel_received: '0.0003',
      refuel_received_token: 'ETH',
      service_fee: '0.2',
      network_fee: '0.647739',
    });
    // The exchange a withdrawal came from is kept.
    const fromCoinbase = details('completed', [input(100), output(99.152261)], {
      source_exchange: { name: 'COINBASE', display_name: 'Coinbase' },
    });
    const [h2, r2] = swapsCsv([{ entry: { swapId: ID, createdAt: NOW, summary: '' }, details: fromCoinbase }]).split('\r\n');
    expect(Object.fromEntries(h2!.split(',').map((h, i) => [h, r2!.split(',')[i]]))).toMatchObject({
      source_exchange: 'Coinbase',
      amount_asked: '100',
      amount_received: '99.152261',
    });
  });

  test('amounts never show more decimals than the token: a deposit of 1.1234567 USDC asks for 1.123457', () => {
    const d = details(
      'user_transfer_pending',
      [],
      { requested_amount: 1.1234567 },
      { ...QUOTE, requested_amount: 1.1234567 },
      {
        deposit_actions: [
          {
            type: 'manual_transfer',
            to_address: '0x7821fA24AFb8CBD74AEb71134f1c2309DeC4e03C',
            amount: 1.1234567,
            call_data: null,
            order: 0,
            network: arb,
            token: usdc,
          },
        ],
      },
    );
    const plan = depositPlan(d);
    expect(plan.kind === 'manual' && plan.amount).toBe('1.123457');
    expect(moneyText(swapMoney(d, NOW).asked!)).toBe('1.123457 USDC');
  });

  test('refund without a refund address promises no refund; with one, the amount refunded and its sending fee are plain', () => {
    const stuck = swapMoney(details('ls_transfer_pending', [input(100)]), NOW);
    expect(stuck.next).toBe('wait_payout');
    // "No refund address" only from our record (null: skipped): the service's answer never carries it.
    expect(
      replyText(
        statusCard(details('ls_transfer_pending', [input(100)]), { audience: 'private', now: NOW + 3_600_000, refundAddress: null }),
      ),
    ).toContain('No refund address was given');
    const unknown = replyText(statusCard(details('ls_transfer_pending', [input(100)]), { audience: 'private', now: NOW + 3_600_000 }));
    expect(unknown).not.toMatch(/No refund address was given|paid out soon or refunded/);
    expect(unknown).toContain('Without a refund address given when the swap was made');
    // As the real service answers (docs.get-swap.refunded.json): no refund_address; the refund transaction names where it went.
    const pending = swapMoney(details('pending_refund', [input(100)]), NOW);
    expect(pending.next).toBe('wait_refund');
    expect(swapMoney(details('refunded', [input(100), { ...refund(100), to: DEST }]), NOW).refundAddress).toBe(DEST);
    const refunded = details('refunded', [input(200), refund(199.5)], { refund_address: DEST, requested_amount: 200 });
    const text = replyText(statusCard(refunded, { audience: 'private', now: NOW }));
    expect(text).toContain('199.5 USDC of your 200 USDC came back; 0.5 USDC paid for sending it.');
    expect(text).not.toContain('Receive (quoted)');
    expect(text).not.toMatch(/below|above/);
  });

  test('a withdrawal from an exchange gets the bare address as its QR (never an EIP-681 request), and the waiting card says the exchange may hold it', async () => {
    const fromCoinbase = details('user_transfer_pending', [], { source_exchange: { name: 'COINBASE', display_name: 'Coinbase' } }, QUOTE, {
      deposit_actions: [manualTransfer()],
    });
    const cards = await depositCards(fromCoinbase, NOW);
    const image = cards.find((c) => c.image)?.image;
    expect(image && qrPayload(image)).toBe(DEPOSIT_ADDRESS);
    expect(replyText(cards[0]!)).toContain('Withdraw exactly 100 USDC');
    expect(replyText(statusCard(fromCoinbase, { audience: 'private', now: NOW }))).toContain(
      'Exchanges can hold a withdrawal for checks before it leaves',
    );
  });

  test('limits are rounded for reading, inside the allowed range (exact where copied)', () => {
    expect(readableLimit('en', 5.001171, 'min', 6)).toBe('5.01');
    expect(readableLimit('en', 500117.027384, 'max', 6)).toBe('500,117');
    expect(readableLimit('en', 0.00037312, 'min', 18)).toBe('0.000374');
    expect(readableLimit('en', 10, 'min', 6)).toBe('10');
  });

  test('a time that passed is said as passed, not frozen', () => {
    const late = replyText(
      statusCard(details('ls_transfer_pending', [input(100)], { refund_address: DEST }), { audience: 'private', now: NOW + 3_600_000 }),
    );
    expect(late).toContain('taking longer than usual');
    expect(late).not.toMatch(/from now/);
  });
});

// --- every fixture and lifecycle through every view: no two disagree ---

const SEND = /Send exactly|Send the exact amount|Send it before|Withdraw exactly/;
const PRIVATE = { platform: 'console' as const, chatId: 'u', chatKind: 'private' as const };

function views(d: SwapDetails): Array<[string, Reply]> {
  const out: Array<[string, Reply]> = [
    ['status', statusCard(d, { audience: 'private', now: NOW })],
    ['public status', statusCard(d, { audience: 'public', now: NOW })],
  ];
  // /history's row of this swap (route with what was sent and what arrived, the phase's name).
  out.push(['history', { lines: [[{ kind: 'text', text: `${swapRouteIn(d, 'en')} · ${swapStatusLabel(d, 'en')}` }]], target: 'here' }]);
  const after = depositCardAfter(d, NOW, 'en');
  if (after) out.push(['deposit card', after]);
  for (const kind of MOMENT_KINDS)
    out.push([
      `moment ${kind}`,
      renderMoment(
        { kind: kind as MomentKind, version: 1, at: NOW },
        { details: d, state: { history: [], lastPolledAt: NOW, lastChangeAt: NOW }, target: PRIVATE },
      ),
    ]);
  return out;
}

function lifecycle(): Array<[string, SwapDetails]> {
  return [
    ['waiting', details('user_transfer_pending')],
    ['seen (status lags)', details('user_transfer_pending', [input(100, 'pending', 1)])],
    ['under-paid', details('user_transfer_pending', [input(80, 'pending', 1)])],
    ['over-paid', details('ls_transfer_pending', [input(120)])],
    ['confirmed', details('ls_transfer_pending', [input(100)])],
    ['delivered, status lags', details('ls_transfer_pending', [input(100), output(99.152261)])],
    ['completed', details('completed', [input(100), output(99.152261)])],
    ['completed under-paid', details('completed', [input(80), output(79.157021)])],
    ['expired', details('expired')],
    ['expired, late deposit', details('expired', [input(100)])],
    ['refunding', details('pending_refund', [input(100)], { refund_address: DEST })],
    ['refunded', details('refunded', [input(100), refund(99.9)], { refund_address: DEST })],
    ['too little', details('failed', [input(1)], { fail_reason: 'received_less_than_valid_range' })],
    ['on hold', details('failed', [input(600000)], { fail_reason: 'received_more_than_valid_range' })],
    ['from an exchange', details('user_transfer_pending', [], { source_exchange: { name: 'COINBASE', display_name: 'Coinbase' } })],
    [
      'to an exchange',
      details('completed', [input(100), output(99.152261)], { destination_exchange: { name: 'BINANCE', display_name: 'Binance' } }),
    ],
  ];
}

function fixtureSwaps(): Array<[string, SwapDetails]> {
  const out: Array<[string, SwapDetails]> = [];
  for (const name of fixtureNames()) {
    const parsed = SwapDetailsSchema.safeParse(fixtureData(name));
    if (parsed.success) out.push([name, parsed.data]);
  }
  return out;
}

describe('every view of a swap agrees with its money model', () => {
  test.each([...lifecycle(), ...fixtureSwaps()])('%s', (_name, d) => {
    const m = swapMoney(d, NOW);
    const all = views(d);
    for (const [view, reply] of all) {
      const text = replyText(reply);
      // After a deposit is seen, nothing anywhere says to send money for this swap.
      if (m.deposited || m.next !== 'send') expect(text, view).not.toMatch(SEND);
      // Figures come from the model: a deposit is shown as the model says, never with more decimals.
      if (m.deposited && text.includes(`${m.source.symbol}`) && /deposit/i.test(text) && view === 'status')
        expect(text, view).toContain(moneyText(m.deposited));
    }
    const status = replyText(all[0]![1]);
    // The status card's next step is the model's.
    expect(status).toContain(replyNext(m.next));
    // The deposit card after the deposit says the same next step as the status card.
    const dep = all.find(([v]) => v === 'deposit card');
    if (dep) expect(replyText(dep[1])).toContain(replyNext(m.next));
    // No two views disagree about an amount: every figure shown is one of the model's.
    for (const [view, reply] of all) expect(figuresNotInModel(replyText(reply), [m]), `${view}:\n${replyText(reply)}`).toEqual([]);
    // One name per phase: /history's label is the status card's, and the deposit card's title a shorter form of it.
    const label = /^Swap [0-9a-f]{8}: (.*)$/.exec(all[0]![1].title ?? '')?.[1];
    if (label) {
      expect(replyText(all.find(([v]) => v === 'history')![1])).toContain(` · ${label}`);
      const depTitle = /^Swap [0-9a-f]{8}: (.*)$/.exec(dep?.[1].title ?? '')?.[1];
      if (depTitle && depTitle !== 'Deposit closed' && !/Waiting|went back/i.test(label))
        expect(label.startsWith(depTitle), `${depTitle} vs ${label}`).toBe(true);
    }
    // The CSV row has the same figures.
    const [header, row] = swapsCsv([{ entry: { swapId: d.swap.id, createdAt: NOW, summary: '' }, details: d }]).split('\r\n');
    const cells = Object.fromEntries(header!.split(',').map((h, i) => [h, row!.split(',')[i]]));
    const sent = m.deposited ?? m.asked;
    expect(cells.amount_sent).toBe(sent ? moneyNumber(sent) : '');
    expect(cells.amount_received).toBe(m.received ? moneyNumber(m.received) : '');
    expect(cells.amount_refunded).toBe(m.refund?.amount ? moneyNumber(m.refund.amount) : '');
    // A receipt, when the swap is delivered, reconciles to the smallest unit.
    if (m.received && m.reconciled) {
      const r = reconcile(m)!;
      expect(r.net.units).toBe(toUnitsOfReceived(m));
    }
  });
});

const NEXT_WORDS: Record<string, string> = {
  send: 'Send the exact amount',
  wait_confirmations: 'do not send it again',
  wait_payout: 'the payout is on its way',
  wait_refund: 'the refund goes to your refund address',
  wait_review: 'approves them in up to 2 hours',
  contact_support: 'Contact Layerswap support',
  new_swap: 'start a new one with /swap',
  nothing: 'Nothing more to do',
  check_later: 'Check again',
};
const replyNext = (next: string) => NEXT_WORDS[next] ?? next;
const toUnitsOfReceived = (m: ReturnType<typeof swapMoney>) =>
  m.sameAsset ? m.received!.units * 10n ** BigInt(m.source.decimals - m.received!.token.decimals) : reconcile(m)!.net.units;

// --- the receipt and the confirm card reconcile, whatever the figures ---

describe('reconciliation over random figures', () => {
  const units = (max: number) => fc.integer({ min: 0, max });
  prop.prop([
    fc.integer({ min: 0, max: 18 }),
    units(10_000_000),
    units(1_000_000),
    units(1_000_000),
    units(1_000_000),
    units(2_000_000),
    fc.boolean(),
  ])(
    "sent − listed deductions = received, to the token's precision, in the receipt and the confirm card",
    (decimals, sentU, serviceU, networkU, refuelU, receivedU, withRefuel) => {
      const scale = 10 ** Math.min(decimals, 6);
      const n = (u: number) => u / scale;
      const token = { symbol: 'TKN', decimals, price_in_usd: 2 };
      const q = {
        requested_amount: n(sentU),
        receive_amount: n(receivedU),
        service_fee: n(serviceU),
        blockchain_fee: n(networkU),
        total_fee: n(serviceU + networkU),
        rate: 1,
        ...(withRefuel ? { refuel_in_source: n(refuelU) } : {}),
      };
      const d = SwapDetailsSchema.parse({
        swap: {
          id: ID,
          status: 'completed',
          source_token: token,
          destination_token: token,
          requested_amount: n(sentU),
          transactions: [
            { type: 'input', status: 'completed', amount: n(sentU), token },
            { type: 'output', status: 'completed', amount: n(receivedU), token },
          ],
        },
        quote: q,
      });
      for (const m of [
        swapMoney(d, NOW),
        quoteMoney(QuoteResponseSchema.parse({ quote: { ...q, source_token: token, destination_token: token } }), n(sentU), {
          sourceToken: 'TKN',
          destinationToken: 'TKN',
        }),
      ]) {
        const r = reconcile(m);
        expect(r).toBeDefined();
        // What is shown: each figure's text, summed back exactly.
        const shown = (u: bigint) => parseUnits(unitsText(u, decimals), decimals);
        const deducted = r!.deductions.reduce((a, x) => a + shown(x.amount.units), 0n);
        const outcome = m.received ?? m.expected!;
        expect(shown(r!.sent.units) - deducted).toBe(shown(outcome.units));
        // Never more decimals than the token has.
        for (const x of [r!.sent, outcome, ...r!.deductions.map((y) => y.amount)])
          expect((moneyText(x).split(' ')[0]!.split('.')[1] ?? '').length).toBeLessThanOrEqual(decimals);
      }
    },
  );
});

describe('reconciliation when the two sides have different decimals', () => {
  // USDC (6) on one network, USDC.e or a bridged USDC with 18 on the other: the same asset.
  prop.prop([
    fc.integer({ min: 0, max: 18 }),
    fc.integer({ min: 0, max: 18 }),
    fc.integer({ min: 1, max: 10_000_000 }),
    fc.integer({ min: 0, max: 100_000 }),
    fc.integer({ min: 0, max: 100_000 }),
    fc.integer({ min: 0, max: 100_000 }),
  ])(
    "the receipt's sum holds in the source token's precision, and no figure has more decimals than its token",
    (sd, dd, sentU, serviceU, networkU, refuelU) => {
      const scale = 10 ** Math.min(sd, 6);
      const n = (u: number) => u / scale;
      const src = { symbol: 'USDC', decimals: sd, price_in_usd: 1 };
      const dst = { symbol: 'USDC', decimals: dd, price_in_usd: 1 };
      const received = Math.max(0, sentU - serviceU - networkU - refuelU);
      const q = {
        requested_amount: n(sentU),
        receive_amount: n(received),
        service_fee: n(serviceU),
        blockchain_fee: n(networkU),
        total_fee: n(serviceU + networkU),
        refuel_in_source: n(refuelU),
        rate: 1,
      };
      const d = SwapDetailsSchema.parse({
        swap: {
          id: ID,
          status: 'completed',
          source_token: src,
          destination_token: dst,
          requested_amount: n(sentU),
          transactions: [
            { type: 'input', status: 'completed', amount: n(sentU), token: src },
            { type: 'output', status: 'completed', amount: n(received), token: dst },
          ],
        },
        quote: q,
      });
      const m = swapMoney(d, NOW);
      const r = reconcile(m);
      expect(r).toBeDefined();
      const total = r!.deductions.reduce((a, x) => a + x.amount.units, 0n);
      expect(r!.sent.units - total).toBe(r!.net.units);
      expect(r!.net.units).toBe(rescaleUnits(m.received!.units, dd, sd));
      for (const x of [r!.sent, m.received!, ...r!.deductions.map((y) => y.amount)])
        expect((moneyText(x).split(' ')[0]!.split('.')[1] ?? '').length).toBeLessThanOrEqual(x.token.decimals);
    },
  );
});

/** Decimal text back to smallest units, exactly (what a reader adding the figures does). */
function parseUnits(text: string, decimals: number): bigint {
  const negative = text.startsWith('-');
  const [int = '0', frac = ''] = text.replace('-', '').split('.');
  expect(frac.length).toBeLessThanOrEqual(decimals);
  const u = BigInt(int + frac.padEnd(decimals, '0'));
  return negative ? -u : u;
}

import { describe, expect, test } from 'vitest';
import { depositCards, depositMemo, fromBaseUnits } from '../../src/bot/deposit/card.js';
import { qrPayload } from '../../src/bot/deposit/qr.js';
import { maskAddress } from '../../src/bot/kernel/format.js';
import { confirmationBar, statusCard } from '../../src/bot/status/card.js';
import { replySize } from '../../src/bot/kernel/fit.js';
import { replyButtons, replyText } from '../../src/contracts/reply.js';
import { FAIL_REASONS, SWAP_STATUSES, SwapDetailsSchema, type SwapDetails } from '../../src/layerswap/schemas.js';
import { ARBITRUM, NOW, SWAP_ID, DEPOSIT_ADDRESS, manualTransfer } from '../support/swaps.js';

const ID = SWAP_ID;
const arb = ARBITRUM;
const base = { name: 'BASE_MAINNET', display_name: 'Base', type: 'evm', transaction_explorer_template: 'https://basescan.org/tx/{0}' };
const usdc = { symbol: 'USDC', decimals: 6, contract: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' };

function details(status: string, extra: Record<string, unknown> = {}): SwapDetails {
  return SwapDetailsSchema.parse({
    swap: {
      id: ID,
      created_date: '2026-01-01T11:58:00+00:00',
      status,
      source_network: arb,
      source_token: usdc,
      destination_network: base,
      destination_token: { ...usdc, contract: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' },
      destination_address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      requested_amount: 100,
      transactions: [],
      ...extra,
    },
    quote: { receive_amount: 99.5, avg_completion_time: '00:02:00' },
    deposit_actions: [manualTransfer({ token: usdc })],
  });
}

describe('statusCard', () => {
  test.each(SWAP_STATUSES)('%s is told in plain words with what happens next', (status) => {
    const card = statusCard(details(status), { audience: 'private', now: NOW });
    const text = replyText(card);
    expect(card.title).toMatch(/^Swap 3f2b8c1e: [A-Z]/);
    expect(card.title).not.toContain(status);
    expect(text).toMatch(/Next: \S/);
    // "Send" only while a deposit is still wanted; past that, the amount is what was asked.
    expect(text).toContain(
      ['created', 'user_transfer_pending', 'user_transfer_delayed'].includes(status)
        ? 'Send: 100 USDC on Arbitrum One'
        : 'Asked: 100 USDC on Arbitrum One',
    );
    expect(replyButtons(card).map((b) => b.label)[0]).toBe('Refresh');
  });

  test('an unknown status is shown as it came', () => {
    const card = statusCard(details('quantum_pending'), { audience: 'private', now: NOW });
    expect(card.title).toBe('Swap 3f2b8c1e: quantum_pending');
    expect(replyText(card)).toContain('does not know this status yet');
  });

  test.each(FAIL_REASONS)('fail reason %s is explained', (reason) => {
    const text = replyText(statusCard(details('failed', { fail_reason: reason }), { audience: 'private', now: NOW }));
    expect(text).toMatch(/Why: The (deposit|route|price)/);
  });

  test('an unknown fail reason is shown as it came', () => {
    expect(replyText(statusCard(details('failed', { fail_reason: 'cosmic_rays' }), { audience: 'private', now: NOW }))).toContain(
      'Reason given: cosmic_rays.',
    );
  });

  test('transactions: type, amount, confirmations as a bar, explorer link from the template', () => {
    const hash = `0x${'ab'.repeat(32)}`;
    const card = statusCard(
      details('ls_transfer_pending', {
        transactions: [
          {
            type: 'input',
            status: 'pending',
            amount: 100,
            confirmations: 3,
            max_confirmations: 12,
            transaction_hash: hash,
            timestamp: '2026-01-01T11:59:00+00:00',
            network: arb,
            token: usdc,
          },
        ],
      }),
      { audience: 'private', now: NOW },
    );
    expect(replyText(card)).toContain('Your deposit: 100 USDC · pending · 3/12 ▓▓▓░░░░░░░░░');
    const link = card.lines.flat().find((s) => s.kind === 'link');
    expect(link).toEqual({ kind: 'link', text: 'explorer', url: `https://arbiscan.io/tx/${hash}` });
    expect(replyText(card)).toContain('Expected by 12:01 UTC (about 1 minute from now).');
  });

  test('the public card masks addresses; neither card shows deposit details', () => {
    const pub = replyText(
      statusCard(details('user_transfer_pending', { refund_address: '0x52908400098527886E0F7030069857D2E4169EE7' }), {
        audience: 'public',
        now: NOW,
      }),
    );
    expect(pub).toContain('To address: 0xd8dA…6045');
    expect(pub).toContain('Refund address: 0x5290…9EE7');
    expect(pub).not.toContain('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
    for (const audience of ['public', 'private'] as const)
      expect(replyText(statusCard(details('user_transfer_pending'), { audience, now: NOW }))).not.toContain('0x7821fA24');
  });

  test('a swap with very many transactions still fits every platform', () => {
    const txs = Array.from({ length: 80 }, (_, i) => ({
      type: 'input',
      status: 'pending',
      amount: i,
      confirmations: 1,
      max_confirmations: 12,
      transaction_hash: `0x${'cd'.repeat(32)}`,
      network: arb,
      token: usdc,
    }));
    const card = statusCard(details('ls_transfer_pending', { transactions: txs }), { audience: 'private', now: NOW });
    expect(replySize(card)).toBeLessThanOrEqual(2000);
    expect(replyText(card)).toContain('… (shortened)');
  });

  test('a final swap offers no Track button', () => {
    expect(replyButtons(statusCard(details('completed'), { audience: 'private', now: NOW })).map((b) => b.label)).toEqual(['Refresh']);
  });

  test('bars and masks', () => {
    expect(confirmationBar(0, 3)).toBe('0/3 ░░░');
    expect(confirmationBar(5, 3)).toBe('3/3 ▓▓▓');
    expect(confirmationBar(50, 100)).toBe('50/100 ▓▓▓▓▓▓░░░░░░');
    expect(maskAddress('0x12ab34cd56ef78900000000000000000000cd34')).toBe('0x12ab…cd34');
    expect(maskAddress('')).toBe('-');
  });
});

describe('deposit card', () => {
  test('exact amounts from base units; a memo only in the form its network documents', () => {
    expect(fromBaseUnits('100000000', 6)).toBe('100');
    expect(fromBaseUnits('1500000000000000001', 18)).toBe('1.500000000000000001');
    expect(fromBaseUnits('5', 8)).toBe('0.00000005');
    expect(fromBaseUnits('12a', 8)).toBeUndefined();
    expect(depositMemo('{"comment":"81230","amount":"1"}', 'ton')).toEqual({ kind: 'comment', value: '81230' });
    expect(depositMemo('11177265', 'bitcoin')).toEqual({ kind: 'op_return', value: 'aa8d31' });
    expect(depositMemo('5089', 'solana')).toEqual({ kind: 'memo', value: '5089' });
    // Call data that is a transaction, not a memo: EVM swap id, Solana transaction, plain text elsewhere.
    expect(depositMemo('0x13e1', 'evm')).toBeUndefined();
    expect(depositMemo('AQABAgMEBQYHCAkKCwwNDg8Q', 'solana')).toBeUndefined();
    expect(depositMemo('5089', 'evm')).toBeUndefined();
    expect(depositMemo('{"amount":"1"}', 'ton')).toBeUndefined();
    expect(depositMemo(null, 'ton')).toBeUndefined();
  });

  test('private, with the QR in the same message when the text fits a caption', async () => {
    const cards = await depositCards(details('user_transfer_pending'), NOW);
    expect(cards).toHaveLength(1);
    expect(cards[0]?.target).toBe('dm');
    expect(cards[0]?.image?.png.length).toBeGreaterThan(100);
    expect(replyText(cards[0]!)).toContain('Send exactly 100 USDC on Arbitrum One');
    expect(replyText(cards[0]!)).toContain('Send it before 17:58 UTC');
  });

  test('a long memo moves the QR to its own private message', async () => {
    const ton = { name: 'TON_MAINNET', display_name: 'Ton', type: 'ton' };
    const d = details('user_transfer_pending', { source_network: ton, source_token: { symbol: 'TON', decimals: 9 } });
    Object.assign(d.deposit_actions![0]!, {
      network: ton,
      token: { symbol: 'TON', decimals: 9 },
      to_address: `EQ${'A'.repeat(46)}`,
      amount_in_base_units: '1500000000',
      call_data: JSON.stringify({ comment: 'm'.repeat(700), amount: '1500000000' }),
    });
    const cards = await depositCards(d, NOW);
    expect(cards).toHaveLength(2);
    expect(cards[0]?.image).toBeUndefined();
    expect(cards[1]?.image).toBeDefined();
    expect(cards.filter((c) => !(c.target === 'dm'))).toEqual([]);
    expect(replyText(cards[0]!)).toContain('m'.repeat(700));
  });
});

describe('deposit card: only deposits a person can make from any wallet', () => {
  const DEP = DEPOSIT_ADDRESS;

  test("an action amount of 0 (ERC-20) falls back to the swap's requested amount; the QR is an EIP-681 token transfer", async () => {
    const d = details('user_transfer_pending');
    Object.assign(d.deposit_actions![0]!, { amount: 0, amount_in_base_units: '0' });
    const [c] = await depositCards(d, NOW);
    expect(replyText(c!)).toContain('Send exactly 100 USDC on Arbitrum One');
    expect(replyText(c!)).not.toMatch(/Send exactly 0 /);
    expect(replyButtons(c!)).toContainEqual({ kind: 'copy', label: 'Copy amount', text: '100' });
    expect(qrPayload(c!.image!)).toBe(`ethereum:${usdc.contract}@42161/transfer?address=${DEP}&uint256=100000000`);
  });

  test('EVM native: the QR asks for the exact wei (EIP-681), and the address and amount stay printed', async () => {
    const eth = { symbol: 'ETH', decimals: 18, contract: null };
    const d = details('user_transfer_pending', { source_token: eth, requested_amount: 0.05 });
    Object.assign(d.deposit_actions![0]!, { token: eth, amount: 0.05, amount_in_base_units: '50000000000000000' });
    const [c] = await depositCards(d, NOW);
    expect(qrPayload(c!.image!)).toBe(`ethereum:${DEP}@42161?value=50000000000000000`);
    expect(replyText(c!)).toContain('Send exactly 0.05 ETH on Arbitrum One');
    expect(replyText(c!)).toContain(DEP);
  });

  test('EVM call data on a manual deposit is never shown as a memo', async () => {
    const d = details('user_transfer_pending');
    d.deposit_actions![0]!.call_data = '0x13e1';
    const text = replyText((await depositCards(d, NOW))[0]!);
    expect(text).not.toMatch(/memo|0x13e1/i);
    expect(text).toContain(DEP);
  });

  test.each([
    ['only a gasless sign action', [{ type: 'sign', to_address: DEP, amount: 100, token: usdc, network: arb }]],
    [
      'a wallet-flow transfer whose call data is the deposit',
      [{ type: 'transfer', to_address: DEP, amount: 100, call_data: '0xa9059cbb00', token: usdc, network: arb }],
    ],
    [
      'a transfer to the token contract itself',
      [{ type: 'manual_transfer', to_address: usdc.contract, amount: 0, token: usdc, network: arb }],
    ],
  ])('%s: no address, the deposit is made in the Layerswap app (swap page linked)', async (_why, actions) => {
    const d = details('user_transfer_pending', { use_deposit_address: false });
    d.deposit_actions = SwapDetailsSchema.parse({ swap: d.swap, deposit_actions: actions }).deposit_actions;
    const cards = await depositCards(d, NOW);
    const text = replyText(cards[0]!);
    expect(text).toContain('must be made from the Layerswap app');
    expect(text).not.toMatch(/Send exactly|0x7821fA24|0xaf88d065/);
    expect(cards[0]!.image).toBeUndefined();
    expect(replyButtons(cards[0]!)).toContainEqual({
      kind: 'url',
      label: 'Open on layerswap.io',
      url: `https://layerswap.io/app/swap/${ID}`,
    });
  });

  test('no deposit actions yet: no address, where to check', async () => {
    const d = details('user_transfer_pending');
    d.deposit_actions = [];
    const text = replyText((await depositCards(d, NOW))[0]!);
    expect(text).toContain('The deposit details are not available yet');
    expect(text).not.toContain(DEP);
  });

  test('actions loaded apart (GET /swaps/{id}/deposit_actions) are used when given', async () => {
    const d = details('user_transfer_pending');
    const actions = d.deposit_actions!;
    d.deposit_actions = undefined;
    expect(replyText((await depositCards(d, NOW, actions))[0]!)).toContain(DEP);
  });

  test('from an exchange: withdraw the amount from the exchange on the network to the address; to an exchange: "your <Exchange> deposit address"', async () => {
    const d = details('user_transfer_pending', {
      source_exchange: { name: 'BINANCE', display_name: 'Binance' },
      destination_exchange: { name: 'COINBASE', display_name: 'Coinbase' },
    });
    const text = replyText((await depositCards(d, NOW))[0]!);
    expect(text).toContain('Withdraw exactly 100 USDC from Binance on Arbitrum One to this deposit address:');
    expect(text).toContain(DEP);
    // The payout's amount and where it lands, the exchange named (issue 32): "You receive" on an exchange-destination card too.
    expect(text).toMatch(/You receive [\d.]+ USDC on Coinbase \(Base\), at\n0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045\n/);
    expect(text).toContain('That is your Coinbase deposit address: the payout lands in your Coinbase account.');
    expect(replyText(statusCard(d, { audience: 'public', now: NOW }))).toContain('To your Coinbase deposit address: 0xd8dA…6045');
  });
});

describe('status card: one phase, words for every status and reason', () => {
  const input = (confirmations: number, status = 'pending') => ({
    type: 'input',
    status,
    amount: 100,
    confirmations,
    max_confirmations: 12,
    transaction_hash: `0x${'ab'.repeat(32)}`,
    network: arb,
    token: usdc,
  });

  test.each([
    ['created', 'Waiting for your deposit', 'set up'],
    // Retired in Sept 2026 (layerswapapp #2170): still parsed, read as pending rather than an alarm.
    ['user_transfer_delayed', 'Waiting for your deposit', 'Send the exact amount'],
    ['cancelled', 'Cancelled', 'Do not send anything to its deposit address'],
    ['failed', 'Failed', 'gave no reason'],
  ])('%s: %s', (status, title, words) => {
    const c = statusCard(details(status), { audience: 'private', now: NOW });
    expect(c.title).toBe(`Swap 3f2b8c1e: ${title}`);
    expect(replyText(c)).toContain(words);
  });

  test.each([
    ['swap_route_unavailable', 'The route became unavailable'],
    ['degraded_quote', 'The price moved too far'],
    ['gasless_deposit_failed', 'Check your wallet'],
  ])('fail reason %s in plain words', (reason, words) => {
    const text = replyText(statusCard(details('failed', { fail_reason: reason }), { audience: 'private', now: NOW }));
    expect(text).toContain(words);
    expect(text).not.toContain(reason);
  });

  test('received_more_than_valid_range: on hold for review, up to 2 hours (not "failed")', () => {
    const c = statusCard(details('failed', { fail_reason: 'received_more_than_valid_range' }), { audience: 'private', now: NOW });
    expect(c.title).toBe('Swap 3f2b8c1e: On hold for review');
    expect(c.tone).toBe('warning');
    expect(replyText(c)).toContain('up to 2 hours');
  });

  test('a listed deposit is never met with "send": deposit seen, confirming k/n, whatever the status still says', () => {
    for (const status of ['user_transfer_pending', 'user_transfer_delayed', 'created']) {
      const c = statusCard(details(status, { transactions: [input(4)] }), { audience: 'private', now: NOW });
      expect(c.title).toBe('Swap 3f2b8c1e: Deposit seen, confirming 4/12');
      expect(replyText(c)).not.toMatch(/Send the exact amount|Waiting for your deposit/);
    }
    expect(
      statusCard(details('ls_transfer_pending', { transactions: [input(12, 'completed')] }), { audience: 'private', now: NOW }).title,
    ).toBe('Swap 3f2b8c1e: Deposit confirmed, sending');
  });

  test('a completed payout while the status still says ls_transfer_pending is delivered', () => {
    const output = { type: 'output', status: 'completed', amount: 99.4, transaction_hash: '0xout', network: base, token: usdc };
    const c = statusCard(details('ls_transfer_pending', { transactions: [input(12, 'completed'), output] }), {
      audience: 'private',
      now: NOW,
    });
    expect(c.title).toBe('Swap 3f2b8c1e: Completed');
    expect(c.tone).toBe('success');
    expect(replyText(c)).toContain('Received: 99.4 USDC on Base');
  });
});

import { describe, expect, test } from 'vitest';
import { depositCards, depositMemo, fromBaseUnits } from '../../src/bot/cards/deposit.js';
import { maskAddress } from '../../src/bot/cards/format.js';
import { confirmationBar, statusCard } from '../../src/bot/cards/status.js';
import { replySize } from '../../src/bot/fit.js';
import { replyButtons, replyText } from '../../src/bot/reply.js';
import { FAIL_REASONS, SWAP_STATUSES, SwapDetailsSchema, type SwapDetails } from '../../src/layerswap/schemas.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const ID = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';
const arb = { name: 'ARBITRUM_MAINNET', display_name: 'Arbitrum One', type: 'evm', transaction_explorer_template: 'https://arbiscan.io/tx/{0}' };
const base = { name: 'BASE_MAINNET', display_name: 'Base', type: 'evm', transaction_explorer_template: 'https://basescan.org/tx/{0}' };
const usdc = { symbol: 'USDC', decimals: 6, contract: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' };

function details(status: string, extra: Record<string, unknown> = {}): SwapDetails {
  return SwapDetailsSchema.parse({
    swap: {
      id: ID, created_date: '2026-01-01T11:58:00+00:00', status, source_network: arb, source_token: usdc, destination_network: base,
      destination_token: { ...usdc, contract: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' }, destination_address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      requested_amount: 100, transactions: [], ...extra,
    },
    quote: { receive_amount: 99.5, avg_completion_time: '00:02:00' },
    deposit_actions: [{ type: 'manual_transfer', to_address: '0x7821fA24AFb8CBD74AEb71134f1c2309DeC4e03C', amount: 100, amount_in_base_units: '100000000', call_data: null, order: 0, network: arb, token: usdc }],
  });
}

describe('statusCard', () => {
  test.each(SWAP_STATUSES)('%s is told in plain words with what happens next', (status) => {
    const card = statusCard(details(status), { audience: 'private', now: NOW });
    const text = replyText(card);
    expect(card.title).toMatch(/^Swap 3f2b8c1e: [A-Z]/);
    expect(card.title).not.toContain(status);
    expect(text).toMatch(/Next: \S/);
    expect(text).toContain('Send: 100 USDC on Arbitrum One');
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
    expect(replyText(statusCard(details('failed', { fail_reason: 'cosmic_rays' }), { audience: 'private', now: NOW }))).toContain('Reason given: cosmic_rays.');
  });

  test('transactions: type, amount, confirmations as a bar, explorer link from the template', () => {
    const hash = `0x${'ab'.repeat(32)}`;
    const card = statusCard(details('ls_transfer_pending', { transactions: [{ type: 'input', status: 'pending', amount: 100, confirmations: 3, max_confirmations: 12, transaction_hash: hash, timestamp: '2026-01-01T11:59:00+00:00', network: arb, token: usdc }] }), { audience: 'private', now: NOW });
    expect(replyText(card)).toContain('Your deposit: 100 USDC · pending · 3/12 ▓▓▓░░░░░░░░░');
    const link = card.lines.flat().find((s) => s.kind === 'link');
    expect(link).toEqual({ kind: 'link', text: 'explorer', url: `https://arbiscan.io/tx/${hash}` });
    expect(replyText(card)).toContain('Expected by 12:01 UTC (about 1 minute from now).');
  });

  test('the public card masks addresses; neither card shows deposit details', () => {
    const pub = replyText(statusCard(details('user_transfer_pending', { refund_address: '0x52908400098527886E0F7030069857D2E4169EE7' }), { audience: 'public', now: NOW }));
    expect(pub).toContain('To address: 0xd8dA…6045');
    expect(pub).toContain('Refund address: 0x5290…9EE7');
    expect(pub).not.toContain('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
    for (const audience of ['public', 'private'] as const) expect(replyText(statusCard(details('user_transfer_pending'), { audience, now: NOW }))).not.toContain('0x7821fA24');
  });

  test('a swap with very many transactions still fits every platform', () => {
    const txs = Array.from({ length: 80 }, (_, i) => ({ type: 'input', status: 'pending', amount: i, confirmations: 1, max_confirmations: 12, transaction_hash: `0x${'cd'.repeat(32)}`, network: arb, token: usdc }));
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
  test('exact amounts from base units, memos from TON comment JSON', () => {
    expect(fromBaseUnits('100000000', 6)).toBe('100');
    expect(fromBaseUnits('1500000000000000001', 18)).toBe('1.500000000000000001');
    expect(fromBaseUnits('5', 8)).toBe('0.00000005');
    expect(fromBaseUnits('12a', 8)).toBeUndefined();
    expect(depositMemo({ type: 'manual_transfer', call_data: '{"comment":"81230","amount":"1"}' })).toEqual({ label: 'Comment (memo)', value: '81230' });
    expect(depositMemo({ type: 'manual_transfer', call_data: '5089' })).toEqual({ label: 'Memo', value: '5089' });
    expect(depositMemo({ type: 'manual_transfer', call_data: null })).toBeUndefined();
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
    const d = details('user_transfer_pending');
    d.deposit_actions![0]!.call_data = 'm'.repeat(700);
    const cards = await depositCards(d, NOW);
    expect(cards).toHaveLength(2);
    expect(cards[0]?.image).toBeUndefined();
    expect(cards[1]?.image).toBeDefined();
    expect(cards.every((c) => c.target === 'dm')).toBe(true);
    expect(replyText(cards[0]!)).toContain('m'.repeat(700));
  });
});

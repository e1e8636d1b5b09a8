import { describe, expect, test } from 'vitest';
import { depositCards } from '../../src/bot/deposit/card.js';
import { qrPayload } from '../../src/bot/deposit/qr.js';
import { quoteCard, quoteFields } from '../../src/bot/quote/card.js';
import { statusCard } from '../../src/bot/status/card.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import {
  DepositActionListSchema,
  DepositActionSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
  type DepositAction,
  type SwapDetails,
} from '../../src/layerswap/schemas.js';
import { MOMENT_KINDS } from '../../src/contracts/tracking.js';
import { observe, type SwapState } from '../../src/tracking/observe.js';
import { renderMoment } from '../../src/bot/status/moments.js';
import { fixtureData, fixtureNames } from '../support/fixtures.js';

/**
 * Every swap, quote and deposit-action answer of the real service (test/fixtures/layerswap)
 * rendered as the cards a person reads, and the money instructions each one must (and must not)
 * give. Elided doc ids ("...") are replaced by one UUID so the answer parses.
 */

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const ELIDED_ID = '0b0c0d0e-1111-4222-8333-944455556666';
const privateChat: ChatTarget = { platform: 'telegram', chatId: '42', chatKind: 'private' };
const group: ChatTarget = { platform: 'telegram', chatId: '-100', chatKind: 'group' };

const SWAP_FIXTURES = fixtureNames().filter((n) => /(get-swap|post-swaps)/.test(n));
const QUOTE_FIXTURES = fixtureNames().filter((n) => /\.quote\./.test(n));
const ACTION_FIXTURES = fixtureNames().filter((n) => /deposit-action/.test(n));

function swapFixture(name: string): SwapDetails {
  const data = structuredClone(fixtureData<{ swap: { id?: string } }>(name));
  if (!/^[0-9a-f-]{36}$/.test(data.swap.id ?? '')) data.swap.id = ELIDED_ID;
  return SwapDetailsSchema.parse(data);
}

/** A fragment's actions, as GET /swaps/{id}/deposit_actions would list them. */
function actionsFixture(name: string): DepositAction[] {
  const raw = fixtureData<{ deposit_actions?: unknown[] }>(name);
  return raw.deposit_actions ? DepositActionListSchema.parse(raw.deposit_actions) : [DepositActionSchema.parse(raw)];
}

/** A swap waiting for the deposit those actions describe (wallet flow, as the docs' examples are). */
function swapFor(actions: DepositAction[], requested: number): SwapDetails {
  const a = actions[0]!;
  return SwapDetailsSchema.parse({
    swap: {
      id: ELIDED_ID,
      created_date: '2026-01-01T11:58:00+00:00',
      status: 'user_transfer_pending',
      use_deposit_address: false,
      source_network: a.network ?? { name: 'ETHEREUM_MAINNET', type: 'evm', chain_id: '1' },
      source_token: a.token,
      destination_network: { name: 'ARBITRUM_MAINNET', display_name: 'Arbitrum One' },
      destination_token: { symbol: 'USDC', decimals: 6 },
      destination_address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      requested_amount: requested,
      transactions: [],
    },
    deposit_actions: actions,
  });
}

/** Everything a person could see or copy: text, fields, buttons, fallback. */
function visible(r: Reply): string {
  return JSON.stringify({ ...r, image: r.image ? { alt: r.image.alt } : undefined });
}

function expectClean(replies: Reply[]): void {
  for (const r of replies) {
    const all = `${replyText(r)}\n${visible(r)}`;
    expect(all).not.toMatch(/undefined|NaN|\[object Object\]|Infinity/);
  }
}

function stateOf(details: SwapDetails): SwapState {
  return observe(undefined, details, NOW, 4).state;
}

describe('every real swap answer renders cleanly', () => {
  test.each(SWAP_FIXTURES)('%s: status card (private and public), deposit card, every key moment', async (name) => {
    const d = swapFixture(name);
    const cards: Reply[] = [statusCard(d, { audience: 'private', now: NOW }), statusCard(d, { audience: 'public', now: NOW })];
    cards.push(...(await depositCards(d, NOW)));
    const state = stateOf(d);
    for (const kind of MOMENT_KINDS)
      for (const target of [privateChat, group]) cards.push(renderMoment({ kind, version: 1, at: NOW }, { details: d, state, target }));
    expectClean(cards);
    // No deposit card of these answers tells anyone to send 0.
    expect(cards.map(replyText).join('\n')).not.toMatch(/Send exactly 0 /);
  });
});

describe('every real quote renders cleanly', () => {
  test.each(QUOTE_FIXTURES)('%s', (name) => {
    const q = QuoteResponseSchema.parse(fixtureData(name));
    const labels = { sourceNetwork: 'Source', sourceToken: 'SRC', destinationNetwork: 'Destination', destinationToken: 'DST' };
    const c = quoteCard(q, labels, q.quote.requested_amount ?? 10, { swap: 'sw', refresh: 'rf' }, 'en');
    expectClean([c]);
    expect(replyText(c)).toMatch(/You receive: \d/);
  });

  test('a fee that eats most of a tiny amount is warned about, with what would arrive (app.quote.base-eth-usdc-refuel)', () => {
    const q = QuoteResponseSchema.parse(fixtureData('app.quote.base-eth-usdc-refuel.json'));
    const labels = { sourceNetwork: 'Base', sourceToken: 'USDC', destinationNetwork: 'Ethereum', destinationToken: 'USDC' };
    const fields = quoteFields(q, labels, 0.825498, 'en');
    expect(fields[0]).toMatchObject({ id: 'highFees', name: '⚠️ High fees' });
    const text = replyText(quoteCard(q, labels, 0.825498, { swap: 'sw', refresh: 'rf' }, 'en'));
    expect(text).toContain('Fees take 98.8% of what you send: you would receive only 0.010078 USDC for 0.825498 USDC.');
  });

  test.each(['wdk.quote.spl.json', 'app.quote.arb-base-usdc.from-withdrawSwap.json', 'docs.quote.lifi.json'])(
    '%s: ordinary fees get no warning',
    (name) => {
      const q = QuoteResponseSchema.parse(fixtureData(name));
      const fields = quoteFields(
        q,
        { sourceNetwork: 'S', sourceToken: 'USDC', destinationNetwork: 'D', destinationToken: 'USDC' },
        q.quote.requested_amount ?? 100,
        'en',
      );
      expect(fields.map((f) => f.id)).not.toContain('highFees');
    },
  );
});

describe('deposit instructions from the real deposit actions', () => {
  test.each(ACTION_FIXTURES)('%s renders cleanly', async (name) => {
    const actions = actionsFixture(name);
    expectClean(await depositCards(swapFor(actions, 0.05), NOW));
  });

  test('Bitcoin: the OP_RETURN carries the hex text of call_data ("11177265" -> "aa8d31"), amount in BTC, QR is the bare address', async () => {
    const actions = actionsFixture('docs.deposit-actions.lifi-bitcoin.json');
    const [c, extra] = await depositCards(swapFor(actions, 0.03755), NOW);
    const text = replyText(c!);
    expect(text).toContain('Send exactly 0.03755 BTC');
    expect(text).toContain('bc1plxa9q77gz9r33g8pd4c2ygzezchjffuedtzdrkclyceseyw8v80qasmquf');
    expect(text).toContain('OP_RETURN text: aa8d31');
    expect(text).not.toContain('11177265');
    expect(replyButtons(c!)).toContainEqual({ kind: 'copy', label: 'Copy OP_RETURN text', text: 'aa8d31' });
    // BIP-21 cannot carry OP_RETURN data: a payment request would invite a deposit without it.
    expect(qrPayload((c!.image ?? extra!.image)!)).toBe('bc1plxa9q77gz9r33g8pd4c2ygzezchjffuedtzdrkclyceseyw8v80qasmquf');
  });

  test.each([
    ['docs.deposit-actions.lifi-solana.json', '6H7GCfCx8JMUACbmSYZjConeJGzViPHhMvvYak5SDDBe'],
    ['docs.deposit-actions.lifi-depository-native.json', '0x<depository_contract>'],
    ['docs.deposit-actions.lifi-depository-erc20.json', '0x<depository_contract>'],
    ['docs.deposit-action.depository-native.json', '0x<DepositoryContract>'],
    ['docs.deposit-action.depository-erc20.json', '0x<DepositoryContract>'],
    ['docs.deposit-action.gasless-sign.json', '0x<Paymaster>'],
  ])('%s: a wallet transaction, never shown as a manual deposit or a memo; the swap page instead', async (name, address) => {
    const cards = await depositCards(swapFor(actionsFixture(name), 0.1), NOW);
    expect(cards).toHaveLength(1);
    const text = replyText(cards[0]!);
    expect(text).toContain('must be made from the Layerswap app');
    expect(visible(cards[0]!)).not.toContain(address);
    expect(text).not.toMatch(/Send exactly|Memo|memo\)|call data|0x<encoded|base64/);
    expect(cards[0]!.image).toBeUndefined();
    expect(replyButtons(cards[0]!)).toContainEqual({
      kind: 'url',
      label: 'Open on layerswap.io',
      url: `https://layerswap.io/app/swap/${ELIDED_ID}`,
    });
  });

  test('live POST /swaps (ERC-20 wallet flow to the token contract, amount 0): no address, no "send 0"', async () => {
    const cards = await depositCards(swapFixture('live.post-swaps.base-paradex.trimmed.json'), NOW);
    const text = replyText(cards[0]!);
    expect(text).not.toContain('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913');
    expect(text).not.toMatch(/Send exactly|Memo/);
    expect(text).toContain('must be made from the Layerswap app');
  });

  test('EVM native wallet flow (call_data "0x13e1" is the swap id, not a memo): app only', async () => {
    const d = swapFixture('app.get-swap.user_transfer_pending.json');
    const text = replyText((await depositCards(d, NOW))[0]!);
    expect(text).not.toContain('0x13e1');
    expect(text).not.toContain('0x5dA5C2a98e26FD28914b91212b1232D58eb9bbab');
    expect(text).toContain('must be made from the Layerswap app');
  });

  test('the same actions in the deposit-address flow are a manual deposit of address and amount, call data ignored (as the app does)', async () => {
    const d = swapFixture('app.get-swap.user_transfer_pending.json');
    d.swap.use_deposit_address = true;
    const text = replyText((await depositCards(d, NOW))[0]!);
    expect(text).toContain('Send exactly 0.000373 ETH on Ethereum Sepolia');
    expect(text).toContain('0x5dA5C2a98e26FD28914b91212b1232D58eb9bbab');
    expect(text).not.toContain('0x13e1');
  });
});

describe('statuses that never contradict (app.get-swap.user_transfer_pending: input completed 3/3, status still user_transfer_pending)', () => {
  const d = () => swapFixture('app.get-swap.user_transfer_pending.json');

  test('the card says the deposit is seen and confirming, never "send"', () => {
    const c = statusCard(d(), { audience: 'private', now: NOW });
    expect(c.title).toBe('Swap f9b0c0ca: Deposit seen, confirming 3/3');
    const text = replyText(c);
    expect(text).not.toMatch(/Waiting for your deposit|Send the exact amount|Send exactly/);
    expect(text).toContain('do not send it again');
  });

  test('the key moment uses the same words as the card', () => {
    const details = d();
    const r = renderMoment({ kind: 'deposit_seen', version: 2, at: NOW }, { details, state: stateOf(details), target: privateChat });
    expect(replyText(r)).toContain('Deposit seen, confirming 3/3.');
    expect(replyText(r)).toContain('We saw your deposit of 0.000373 ETH');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusCard } from '../../src/bot/status/card.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import type { SwapDetails } from '../../src/layerswap/schemas.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { decodeDetails, encodeDetails, slimDetails } from '../../src/tracking/card-data.js';
import { renderMoment } from '../../src/bot/status/moments.js';
import { MOMENT_KINDS } from '../../src/contracts/tracking.js';
import { observe, type SwapState } from '../../src/tracking/observe.js';
import { WAIT_MS } from '../support/wait.js';

/**
 * The swap details stored per followed swap are a slim, deflated copy of GET /swaps/{id}: every
 * status card and key-moment message rendered from it must be exactly the one the full answer
 * gives, in private chats and in groups, at every step of every kind of swap.
 */

const CHATS: ChatTarget[] = [
  { platform: 'telegram', chatId: '42', chatKind: 'private' },
  { platform: 'discord', chatId: '99', chatKind: 'group' },
];

let sandbox: SandboxServer;
const clock = new ManualClock();
/** Full answers of the sandbox at each step of each story, with the clock at that moment. */
const samples: Array<{ story: string; at: number; details: SwapDetails }> = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    clock,
    timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 10_000, expiryMs: 3_600_000, refundDelayMs: 10_000 },
  });
  const client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: WAIT_MS });
  const create = (refund: boolean, n: number) =>
    client.createSwap({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: `0x${n.toString(16).padStart(40, 'a')}`,
      amount: 100,
      use_deposit_address: true,
      ...(refund ? { refund_address: `0x${n.toString(16).padStart(40, 'b')}` } : {}),
    });
  const stories = {
    complete: await create(false, 1),
    refund: await create(true, 2),
    under_min: await create(true, 3),
    expired: await create(false, 4),
  };
  const sample = async () => {
    for (const [story, d] of Object.entries(stories))
      samples.push({ story, at: clock.now(), details: await client.getSwap(d.swap.id, { exclude_deposit_actions: true }) });
  };
  await sample();
  sandbox.deposit(stories.complete.swap.id);
  sandbox.deposit(stories.refund.swap.id, { outcome: 'fail_execution' });
  sandbox.deposit(stories.under_min.swap.id, { amount: 0.5 });
  for (const step of [1_000, ...Array<number>(14).fill(5_000), 3_600_000]) {
    clock.advance(step);
    await sample();
  }
});
afterAll(async () => {
  await sandbox?.close();
});

function stateFor(details: SwapDetails, at: number): SwapState {
  // A history that includes the payout wait, so the "stuck" message has its durations.
  const first = observe(undefined, { ...details, swap: { ...details.swap, status: 'ls_transfer_pending' } }, at - 600_000, 4).state;
  return observe(first, details, at, 4).state;
}

describe('the stored card data', () => {
  it('covers every status the stories reach', () => {
    const statuses = new Set(samples.map((s) => s.details.swap.status));
    for (const s of ['user_transfer_pending', 'ls_transfer_pending', 'completed', 'failed', 'pending_refund', 'refunded', 'expired'])
      expect(statuses).toContain(s);
    expect(Math.max(...samples.map((s) => s.details.swap.transactions.length))).toBeGreaterThanOrEqual(2);
  });

  it('renders the same status cards as the full answer, for private chats and groups', () => {
    for (const { details, at } of samples) {
      const stored = decodeDetails(encodeDetails(details));
      expect(stored).toEqual(slimDetails(details));
      for (const audience of ['private', 'public'] as const) {
        expect(statusCard(stored as SwapDetails, { audience, now: at })).toEqual(statusCard(details, { audience, now: at }));
      }
    }
  });

  it('renders the same key-moment messages as the full answer, for every kind', () => {
    for (const { details, at } of samples) {
      const stored = decodeDetails(encodeDetails(details)) as SwapDetails;
      const state = stateFor(details, at);
      for (const kind of MOMENT_KINDS) {
        for (const target of CHATS) {
          const moment = { kind, version: state.version, at };
          expect(renderMoment(moment, { details: stored, state, target })).toEqual(renderMoment(moment, { details, state, target }));
        }
      }
    }
  });

  it('keeps what a hand-built answer carries beyond the sandbox: own transaction networks and tokens, exchanges, unknown fields', () => {
    const base = samples.find((s) => s.details.swap.status === 'completed')?.details as SwapDetails;
    const other = {
      name: 'OPTIMISM_MAINNET',
      display_name: 'OP Mainnet',
      logo: 'https://x/logo.png',
      node_url: 'https://node',
      transaction_explorer_template: 'https://optimistic.etherscan.io/tx/{0}',
    };
    const details: SwapDetails = {
      ...base,
      swap: {
        ...base.swap,
        source_exchange: { name: 'BINANCE', display_name: 'Binance', logo: 'https://x/b.png', token_groups: [{ a: 1 }] },
        future_field: 'kept',
        transactions: base.swap.transactions.map((t) => ({
          ...t,
          network: other,
          token: { symbol: 'ETH', decimals: 18, logo: 'https://x/eth.png' },
          fee_token: { symbol: 'ETH', decimals: 18, logo: 'l' },
        })),
      },
    };
    const stored = decodeDetails(encodeDetails(details)) as SwapDetails;
    expect(stored.swap.source_exchange).toEqual({ name: 'BINANCE', display_name: 'Binance' });
    expect((stored.swap as Record<string, unknown>).future_field).toBe('kept');
    const state = stateFor(details, 0);
    for (const target of CHATS) {
      const audience = target.chatKind === 'private' ? 'private' : 'public';
      expect(statusCard(stored, { audience, now: 0 })).toEqual(statusCard(details, { audience, now: 0 }));
      for (const kind of MOMENT_KINDS)
        expect(renderMoment({ kind, version: 1, at: 0 }, { details: stored, state, target })).toEqual(
          renderMoment({ kind, version: 1, at: 0 }, { details, state, target }),
        );
    }
  });

  it('drops logos, nodes, network metadata and deposit actions, and stores well under 1.5 KB', () => {
    for (const { details } of samples) {
      const withActions = { ...details, deposit_actions: [{ type: 'transfer', to_address: '0xdeposit', amount: 100 }] };
      const json = JSON.stringify(slimDetails(withActions));
      for (const gone of ['"logo"', '"node_url"', '"nodes"', '"evm_oracle_contract"', '"deposit_actions"', '"tokens"', '"listing_date"'])
        expect(json).not.toContain(gone);
      // At most a third of the full answer, and well under 1.5 KB.
      expect(encodeDetails(details).length).toBeLessThan(Math.min(1_536, JSON.stringify(details).length / 3));
    }
  });

  it('reads an unreadable value as nothing rather than an error', () => {
    expect(decodeDetails(Buffer.from([0x01, 0xff, 0x00, 0x13]))).toBeUndefined();
    expect(decodeDetails(Buffer.from('not json'))).toBeUndefined();
    expect(decodeDetails(null)).toBeUndefined();
  });

  it('still reads a value stored by this version (the deflate dictionary must never change)', () => {
    // Written by encodeDetails when the format was introduced; a changed dictionary cannot read it.
    const stored = Buffer.from(STORED_V1, 'base64');
    expect(decodeDetails(stored)?.swap).toMatchObject({
      id: '3f2c1a9e-8b7d-4c6e-9f01-23456789abcd',
      status: 'completed',
      requested_amount: 100,
    });
  });
});

const STORED_V1 =
  'AatGLZOM04ySDRMtU3UtksxTdE2SzVJ1LdMMDHWNjE1MzcwtLBOTklMwyy0jAyMzXQNDXQPDEIhfDAyicKUynOWXY5CTZ0hQqG+8r6Onn59rCGZ55liUlFlSVJqr4J+XSlRxgyhH0AoKTNudHINdcdvslFgMthHZDCKtxUyIhgYGGDkULe2iJj9LSz3T2loA';

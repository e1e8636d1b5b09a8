import { fc } from '@fast-check/vitest';
import type { ChainSighting } from '../../src/contracts/chain.js';
import { lateOnClose } from '../../src/tracking/chain-evidence.js';
import type { CreatorNotes } from '../../src/contracts/tracking.js';
import type { SwapDetails, Transaction } from '../../src/layerswap/schemas.js';
import { quoteParams } from '../../src/bot/quote/quote.js';

/**
 * Generated event histories of one swap (issue 32), for the money properties: what the service
 * answers (statuses in any order, stale answers again), what the chain watcher sees at the deposit
 * address (the right token, a wrong amount, a wrong token, after expiry), what the creator says
 * ("I've sent it" with or without a hash), time passing; over a swap from a wallet or an exchange,
 * to a wallet or an exchange, with or without refuel and a refund address. `replay` turns a history
 * into the states every surface is rendered from, step by step.
 */

export const SWAP_ID = '3f2c1a9e-8b7d-4c6e-9f01-23456789abcd';
export const DEPOSIT_ADDRESS = '0x5da5c2a98e0f3b9c3f1b3a47f5d3b9a1c2e4f6a8';
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const REFUND = '0x52908400098527886E0F7030069857D2E4169EE7';
const CREATED = Date.parse('2026-11-27T10:00:00Z');
const hash = (n: number) => `0x${n.toString(16).padStart(4, '0').repeat(16)}`;

export interface World {
  from: 'wallet' | 'exchange';
  to: 'wallet' | 'exchange';
  /** USDC → USDC, or USDC → ETH (a rate between them). */
  asset: 'same' | 'other';
  refuel: boolean;
  /** What our record says of the refund address: given, skipped, or nothing (a swap not made here). */
  refund: 'given' | 'none' | 'unknown';
  asked: number;
}

export type Deposit = 'asked' | 'less' | 'more';

export type Event =
  /** The service answers with this status and what it lists. */
  | {
      e: 'api';
      status: (typeof STATUSES)[number];
      input?: { amount: Deposit; confirmations: number; max: number; status: 'pending' | 'completed' | 'failed' };
      output?: 'pending' | 'completed';
      refund?: boolean;
      failReason?: (typeof FAIL_REASONS)[number];
    }
  /** The service answers as it did `back` answers ago (a lagging replica, a cache). */
  | { e: 'stale'; back: number }
  | { e: 'chain'; verdict: ChainSighting['verdict']; confirmations: number }
  | { e: 'sent'; hash: boolean }
  | { e: 'tick'; ms: number };

const STATUSES = [
  'created',
  'user_transfer_pending',
  'user_transfer_delayed',
  'ls_transfer_pending',
  'completed',
  'failed',
  'expired',
  'cancelled',
  'pending_refund',
  'refunded',
] as const;
const FAIL_REASONS = [
  'received_less_than_valid_range',
  'received_more_than_valid_range',
  'swap_route_unavailable',
  'degraded_quote',
] as const;

const worldArb: fc.Arbitrary<World> = fc.record({
  from: fc.constantFrom('wallet', 'exchange'),
  to: fc.constantFrom('wallet', 'exchange'),
  asset: fc.constantFrom('same', 'other'),
  refuel: fc.boolean(),
  refund: fc.constantFrom('given', 'none', 'unknown'),
  asked: fc.constantFrom(100, 80, 1234.5),
});

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        e: fc.constant('api' as const),
        status: fc.constantFrom(...STATUSES),
        input: fc.record({
          amount: fc.constantFrom<Deposit>('asked', 'asked', 'less', 'more'),
          confirmations: fc.nat({ max: 12 }),
          max: fc.constantFrom(0, 3, 12),
          status: fc.constantFrom('pending' as const, 'completed' as const, 'failed' as const),
        }),
        output: fc.constantFrom('pending' as const, 'completed' as const),
        refund: fc.boolean(),
        failReason: fc.constantFrom(...FAIL_REASONS),
      },
      { requiredKeys: ['e', 'status'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ e: fc.constant('stale' as const), back: fc.integer({ min: 1, max: 4 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      e: fc.constant('chain' as const),
      verdict: fc.constantFrom<ChainSighting['verdict']>('ok', 'less', 'more', 'wrong_token', 'late'),
      confirmations: fc.integer({ min: 1, max: 12 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ e: fc.constant('sent' as const), hash: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ e: fc.constant('tick' as const), ms: fc.constantFrom(60_000, 3_600_000, 7 * 3_600_000) }) },
);

export const historyArb = fc.record({ world: worldArb, events: fc.array(eventArb, { minLength: 1, maxLength: 8 }) });
export type History = { world: World; events: Event[] };

/** What every surface is rendered from after one step. */
export interface Step {
  event: Event;
  details: SwapDetails;
  now: number;
  /** Tracking saw a deposit before (a listed input, or a sighting of the swap's token). */
  depositSeen: boolean;
  notes: CreatorNotes;
  world: World;
}

const ROUTE = {
  amount: '100',
  sourceNetwork: 'ARBITRUM_MAINNET',
  sourceToken: 'USDC',
  destinationNetwork: 'BASE_MAINNET',
  destinationToken: 'USDC',
};
const USDC = { symbol: 'USDC', decimals: 6, price_in_usd: 0.9998, contract: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' };
const ETH = { symbol: 'ETH', decimals: 18, price_in_usd: 3012.5 };
const ARB = { name: 'ARBITRUM_MAINNET', display_name: 'Arbitrum One', type: 'evm', token: ETH };
const BASE = { name: 'BASE_MAINNET', display_name: 'Base', type: 'evm', token: ETH };

/** The swap as created: its quote (fees, refuel, rate) and deposit action. */
function created(w: World): SwapDetails {
  const dst = w.asset === 'same' ? USDC : ETH;
  const service = 0.0213;
  const network = 0.824439;
  // Refuel as the wizard would ask the service for it (quoteParams: never into an exchange).
  const asked = quoteParams({ ...ROUTE, ...(w.to === 'exchange' ? { destinationExchange: 'BINANCE' } : {}) }, w.refuel).refuel === true;
  const refuel = asked ? 1.000001 : 0;
  const rate = w.asset === 'same' ? 1 : 0.99981 / 3012.5;
  const net = w.asked - service - network - refuel;
  const receive = Math.floor(net * rate * 10 ** (dst.decimals === 6 ? 6 : 12)) / 10 ** (dst.decimals === 6 ? 6 : 12);
  return {
    swap: {
      id: SWAP_ID,
      created_date: new Date(CREATED).toISOString(),
      status: 'user_transfer_pending',
      source_network: ARB,
      source_token: USDC,
      destination_network: BASE,
      destination_token: dst,
      destination_address: DEST,
      requested_amount: w.asked,
      ...(w.refund === 'given' ? {} : {}),
      ...(w.from === 'exchange' ? { source_exchange: { name: 'COINBASE', display_name: 'Coinbase' } } : {}),
      ...(w.to === 'exchange' ? { destination_exchange: { name: 'BINANCE', display_name: 'Binance' } } : {}),
      transactions: [],
    },
    quote: {
      requested_amount: w.asked,
      receive_amount: receive,
      min_receive_amount: Math.floor(receive * 0.99 * 1e6) / 1e6,
      service_fee: service,
      blockchain_fee: network,
      total_fee: service + network,
      total_fee_in_usd: (service + network) * 0.9998,
      ...(refuel ? { refuel_in_source: refuel } : {}),
      ...(w.asset === 'other' ? { rate } : {}),
      avg_completion_time: '00:02:00',
    },
    ...(refuel ? { refuel: { token: ETH, network: BASE, amount: 0.000331, amount_in_usd: 0.99 } } : {}),
    deposit_actions: [{ type: 'manual_transfer', to_address: DEPOSIT_ADDRESS, amount: w.asked, network: ARB, token: USDC, order: 0 }],
  } as SwapDetails;
}

const depositOf = (w: World, d: Deposit) => Math.round((d === 'less' ? w.asked * 0.8 : d === 'more' ? w.asked * 1.2 : w.asked) * 1e6) / 1e6;

/** The service's answer for an 'api' event. */
function answer(w: World, base: SwapDetails, ev: Extract<Event, { e: 'api' }>, at: number): SwapDetails {
  const txs: Transaction[] = [];
  const iso = new Date(at).toISOString();
  if (ev.input)
    txs.push({
      type: 'input',
      status: ev.input.status,
      amount: depositOf(w, ev.input.amount),
      confirmations: Math.min(ev.input.confirmations, ev.input.max),
      max_confirmations: ev.input.max,
      transaction_hash: hash(1),
      usd_price: 0.9997,
      timestamp: iso,
      network: ARB,
      token: USDC,
    });
  if (ev.output && ev.input)
    txs.push({
      type: 'output',
      status: ev.output,
      amount: base.quote!.receive_amount * (ev.input.amount === 'asked' ? 1 : ev.input.amount === 'less' ? 0.8 : 1.2),
      transaction_hash: hash(2),
      usd_price: w.asset === 'same' ? 0.9999 : 3010,
      timestamp: iso,
      network: BASE,
      token: base.swap.destination_token,
    });
  if (ev.refund && ev.input)
    txs.push({
      type: 'refund',
      status: 'completed',
      amount: depositOf(w, ev.input.amount) - 0.31,
      transaction_hash: hash(3),
      ...(w.refund === 'given' ? { to: REFUND } : {}),
      usd_price: 0.9997,
      timestamp: iso,
      network: ARB,
      token: USDC,
    });
  const { deposit_actions: _a, ...rest } = base;
  return {
    ...rest,
    swap: {
      ...base.swap,
      status: ev.status,
      ...(ev.status === 'failed' && ev.failReason ? { fail_reason: ev.failReason } : {}),
      transactions: txs,
    },
  };
}

function sighting(w: World, ev: Extract<Event, { e: 'chain' }>): ChainSighting {
  const amount = ev.verdict === 'less' ? depositOf(w, 'less') : ev.verdict === 'more' ? depositOf(w, 'more') : w.asked;
  return {
    network: 'Arbitrum One',
    // The swap's own token: the same transaction the service lists as the deposit; another, its own.
    txHash: ev.verdict === 'ok' || ev.verdict === 'less' || ev.verdict === 'more' ? hash(1) : hash(9),
    block: 218_004_211,
    symbol: ev.verdict === 'wrong_token' ? 'USDT' : 'USDC',
    amount: String(amount),
    confirmations: Math.min(ev.confirmations, 12),
    required: 12,
    verdict: ev.verdict,
    ...(ev.verdict === 'wrong_token' || ev.verdict === 'late' ? { expected: { symbol: 'USDC', amount: String(w.asked) } } : {}),
  };
}

const hasInput = (d: SwapDetails) => d.swap.transactions.some((t) => t.type === 'input' && t.status !== 'failed');
const isDepositSighting = (c: ChainSighting | undefined) => c !== undefined && ['ok', 'less', 'more'].includes(c.verdict);

/** The states of a history, one per event, as tracking and the bot would hold them. */
export function replay(h: History): Step[] {
  const base = created(h.world);
  const answers: SwapDetails[] = [base];
  let chain: ChainSighting | undefined;
  let seen = false;
  let notes: CreatorNotes = h.world.refund === 'unknown' ? {} : { refund: h.world.refund === 'given' ? REFUND : null };
  let now = CREATED + 60_000;
  const steps: Step[] = [];
  for (const ev of h.events) {
    let current = answers.at(-1)!;
    switch (ev.e) {
      case 'api':
        current = answer(h.world, base, ev, now);
        answers.push(current);
        break;
      case 'stale':
        current = answers[Math.max(0, answers.length - 1 - ev.back)]!;
        answers.push(current);
        break;
      case 'chain': {
        // A late transfer is one after the swap closed; the watcher says so only then.
        const closed = !['created', 'user_transfer_pending', 'user_transfer_delayed'].includes(current.swap.status);
        chain = sighting(h.world, ev.verdict === 'late' && !closed ? { ...ev, verdict: 'wrong_token' } : ev);
        break;
      }
      case 'sent':
        notes = { ...notes, claim: { at: now, ...(ev.hash ? { hash: hash(7) } : {}) } };
        break;
      case 'tick':
        now += ev.ms;
        break;
    }
    // Tracking's merge: a deposit sighting on a swap the service closed without a deposit is late money.
    if (chain && lateOnClose(chain, current.swap.status, hasInput(current)))
      chain = { ...chain, verdict: 'late', expected: { symbol: 'USDC', amount: String(h.world.asked) } };
    const details = (chain ? { ...current, chain } : current) as SwapDetails;
    seen = seen || hasInput(current) || isDepositSighting(chain);
    steps.push({ event: ev, details, now, depositSeen: seen, notes, world: h.world });
  }
  return steps;
}

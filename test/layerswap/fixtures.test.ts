import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ResponseShapeError } from '../../src/layerswap/errors.js';
import { readEnvelope } from '../../src/layerswap/response.js';
import {
  AuthorizeStatusSchema,
  DepositActionListSchema,
  DepositActionSchema,
  DestinationListSchema,
  LimitsSchema,
  NetworkListSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
  type DepositAction,
  type Destination,
  type Limits,
  type Network,
  type QuoteResponse,
  type SwapDetails,
} from '../../src/layerswap/schemas.js';
import { fixtureEnvelope, fixtureNames, rawFixture } from '../support/fixtures.js';

/**
 * Every real answer in test/fixtures/layerswap goes through the schema of its endpoint, the
 * way the client reads it (readEnvelope over the JSON text), and what a card needs comes through.
 */

const LABEL = 'GET /api/v2/fixture';

/** The answer as the client would read it off the wire. */
function read<T>(schema: z.ZodType<T>, data: unknown): T {
  return readEnvelope({ status: 200, headers: {}, text: JSON.stringify({ data, error: null }) }, schema, LABEL, []);
}

/** Doc examples elide ids ("550e8400-...", "..."); a usable id stands in (see the id rule below). */
const STAND_IN_ID = '0d4c2a3e-1b5f-4c6d-8e7f-9a0b1c2d3e4f';
const ELIDED_IDS = new Set(['docs.get-swap.by-tx-hash.lifi.json', 'docs.post-swaps.privy-depository.json']);

function swapData(name: string): unknown {
  const data = fixtureEnvelope(name).data as { swap: Record<string, unknown> };
  return ELIDED_IDS.has(name) ? { ...data, swap: { ...data.swap, id: STAND_IN_ID } } : data;
}

/** The endpoint of each fixture (fixtures/README.md), read with its schema. */
function parseFixture(name: string): unknown {
  if (name.startsWith('docs.deposit-actions.'))
    return read(DepositActionListSchema, (rawFixture(name) as { deposit_actions: unknown }).deposit_actions);
  if (name.startsWith('docs.deposit-action.')) return read(DepositActionSchema, rawFixture(name));
  if (name.includes('.get-swap.') || name.includes('.post-swaps.')) return read(SwapDetailsSchema, swapData(name));
  if (name.includes('.quote.')) return read(QuoteResponseSchema, fixtureEnvelope(name).data);
  if (name.includes('.networks.')) return read(NetworkListSchema, fixtureEnvelope(name).data);
  if (name.includes('.destinations.')) return read(DestinationListSchema, fixtureEnvelope(name).data);
  if (name.includes('.limits.')) return read(LimitsSchema, fixtureEnvelope(name).data);
  if (name.includes('.authorize-status.')) return read(AuthorizeStatusSchema, fixtureEnvelope(name).data);
  throw new Error(`no endpoint known for fixture ${name}: add it to parseFixture`);
}

describe('real answers (test/fixtures/layerswap)', () => {
  it('are all there', () => {
    expect(fixtureNames()).toHaveLength(27);
  });

  it.each(fixtureNames())('%s parses through the schema of its endpoint', (name) => {
    expect(() => parseFixture(name)).not.toThrow();
  });

  it('the trimmed live create answer yields its swap id, status and deposit action', () => {
    const d = parseFixture('live.post-swaps.base-paradex.trimmed.json') as SwapDetails;
    expect(d.swap).toMatchObject({ id: '52507d08-1caf-43c6-923d-bde9ba5efd80', status: 'user_transfer_pending', transactions: [] });
    expect(d.swap.source_network).toBeUndefined();
    const action = d.deposit_actions?.[0];
    expect(action).toMatchObject({
      type: 'transfer',
      to_address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      amount: 0,
      amount_in_base_units: '0',
    });
    expect(action?.call_data).toMatch(/^0xa9059cbb[0-9a-f]+$/);
    // The cut-down nested token keeps its symbol; decimals are simply absent.
    expect(action?.token).toEqual({ symbol: 'USDC' });
    expect(action?.network).toEqual({ name: 'BASE_MAINNET', chain_id: '8453' });
  });

  it('the refunded swap parses without created_date and without token decimals', () => {
    const d = parseFixture('docs.get-swap.refunded.json') as SwapDetails;
    expect(d.swap.status).toBe('refunded');
    expect(d.swap.created_date).toBeUndefined();
    expect(d.swap.source_token).toEqual({ symbol: 'mUSD', display_asset: 'MetaMask USD' });
    expect(d.swap.transactions.map((t) => [t.type, t.status, t.amount])).toEqual([
      ['input', 'completed', 0.052854],
      ['refund', 'completed', 0.052854],
    ]);
    expect(d.swap.transactions[1]?.transaction_hash).toBe('0xa8a71bd2093c09b254f870fdeef38639f5ce712645f2c425acedb655616967ef');
  });

  it('a deposit seen before the status moved: confirmations kept, the empty tx date dropped', () => {
    const d = parseFixture('app.get-swap.user_transfer_pending.json') as SwapDetails;
    expect(d.swap.status).toBe('user_transfer_pending');
    const input = d.swap.transactions[0];
    expect(input).toMatchObject({ type: 'input', status: 'completed', confirmations: 3, max_confirmations: 3 });
    expect(input?.created_date).toBeUndefined();
    expect(d.deposit_actions?.[0]).toMatchObject({ type: 'transfer', call_data: '0x13e1' });
    // Old casing of deposit methods is kept as sent (open enum).
    expect((parseFixture('app.networks.settings-testnets.json') as Network[])[0]?.deposit_methods).toEqual(['Wallet', 'DepositAddress']);
  });

  it('quotes keep the numbers a quote card shows', () => {
    expect((parseFixture('wdk.quote.spl.json') as QuoteResponse).quote).toMatchObject({
      receive_amount: 9.55772,
      total_fee: 0.442279,
      avg_completion_time: '00:00:05.4528534',
    });
    expect((parseFixture('docs.quote.lifi.json') as QuoteResponse).quote).toMatchObject({ receive_amount: 99.5, slippage: 0.5 });
    expect((parseFixture('app.quote.arb-base-usdc.from-withdrawSwap.json') as QuoteResponse).quote.refuel_in_source).toBeNull();
  });

  it('catalogues keep every network and token', () => {
    const wdk = parseFixture('wdk.networks.json') as Network[];
    expect(wdk.map((n) => [n.name, n.tokens.length])).toEqual([
      ['SOLANA_MAINNET', 5],
      ['ARBITRUM_MAINNET', 48],
    ]);
    expect(wdk[1]?.tokens.find((t) => t.symbol === 'EUR24')?.decimals).toBe(2);
    expect(parseFixture('app.networks.settings-testnets.json') as Network[]).toHaveLength(18);
    const fuse = (parseFixture('app.destinations.fuse-item.json') as Destination[])[0];
    expect(fuse?.name).toBe('FUSE_MAINNET');
    expect(fuse?.tokens[0]).toMatchObject({ symbol: 'USDC', status: 'active', decimals: 6 });
  });

  it('limits and deposit actions carry what a card needs', () => {
    expect(parseFixture('docs.limits.lifi.json') as Limits).toEqual({
      min_amount: 10,
      min_amount_in_usd: 10,
      max_amount: 500000,
      max_amount_in_usd: 500000,
    });
    const btc = (parseFixture('docs.deposit-actions.lifi-bitcoin.json') as DepositAction[])[0];
    expect(btc).toMatchObject({
      to_address: 'bc1plxa9q77gz9r33g8pd4c2ygzezchjffuedtzdrkclyceseyw8v80qasmquf',
      amount: 0.03755,
      call_data: '11177265',
      network: { name: 'BITCOIN_MAINNET', type: 'bitcoin' },
    });
    expect((parseFixture('docs.deposit-action.gasless-sign.json') as DepositAction).type).toBe('sign');
  });

  it('an elided swap id the client could never look up fails, naming data.swap.id', () => {
    for (const name of ELIDED_IDS) {
      const err = (() => {
        try {
          read(SwapDetailsSchema, fixtureEnvelope(name).data);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(ResponseShapeError);
      expect((err as ResponseShapeError).path).toBe('data.swap.id');
    }
    // The privy example's quote is elided to {"...": "..."}: it drops itself, the swap stays.
    const privy = parseFixture('docs.post-swaps.privy-depository.json') as SwapDetails;
    expect(privy.quote).toBeUndefined();
    expect(privy.deposit_actions?.[0]?.encoded_args).toHaveLength(4);
  });
});

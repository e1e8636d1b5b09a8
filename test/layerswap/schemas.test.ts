import { describe, expect, it } from 'vitest';
import {
  DestinationListSchema,
  NetworkListSchema,
  NetworkSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
  SwapListSchema,
} from '../../src/layerswap/schemas.js';
import { formatPath } from '../../src/layerswap/response.js';
import { ARBITRUM, QUOTE, SOLANA, SWAP_DETAILS, TON } from './samples.js';

function firstIssuePath(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string | undefined {
  const issue = result.error?.issues[0];
  return issue ? formatPath(['data', ...issue.path]) : undefined;
}

describe('schemas', () => {
  it('parse the real quote capture from the reference', () => {
    const parsed = QuoteResponseSchema.parse(QUOTE);
    expect(parsed.quote.receive_amount).toBe(9.55772);
    expect(parsed.quote.total_fee).toBe(0.442279);
    expect(parsed.quote.avg_completion_time).toBe('00:00:05.4528534');
    expect(parsed.quote.path?.[0]?.provider).toBe('LAYERSWAP');
    expect(parsed.refuel).toBeNull();
  });

  it('parse networks with chain_id as a number string, "" and null', () => {
    const networks = NetworkListSchema.parse([ARBITRUM, SOLANA, TON]);
    expect(networks.map((n) => n.chain_id)).toEqual(['42161', '', null]);
  });

  it('accept nulls and absent fields, keeping them as sent', () => {
    const bare = NetworkSchema.parse({ name: 'X_MAINNET', type: 'evm', display_name: null, logo: null });
    expect(bare.display_name).toBe('');
    expect(bare.logo).toBeNull();
    expect('node_url' in bare).toBe(false);
    expect(bare.tokens).toEqual([]);
    const details = SwapDetailsSchema.parse({ ...SWAP_DETAILS, quote: null, deposit_actions: undefined, refuel: undefined });
    expect(details.quote).toBeNull();
    expect(details.swap.transactions).toEqual([]);
  });

  it('keep unknown extra fields at every level', () => {
    const parsed = QuoteResponseSchema.parse({
      ...QUOTE,
      brand_new: 1,
      quote: { ...QUOTE.quote, avg_completion_milliseconds: 5452, source_token: { ...QUOTE.quote.source_token, wrapped: true } },
    });
    expect(parsed).toMatchObject({ brand_new: 1, quote: { avg_completion_milliseconds: 5452, source_token: { wrapped: true } } });
  });

  it('accept enum values never seen before', () => {
    const swap = SwapDetailsSchema.parse({
      ...SWAP_DETAILS,
      swap: {
        ...SWAP_DETAILS.swap,
        status: 'waiting_for_moon',
        fail_reason: 'new_reason',
        transactions: [{ type: 'bridge_fee', status: 'queued' }],
      },
      deposit_actions: [{ type: 'permit2' }],
    });
    expect(swap.swap.status).toBe('waiting_for_moon');
    expect(swap.swap.transactions[0]?.type).toBe('bridge_fee');
    expect(swap.deposit_actions?.[0]?.type).toBe('permit2');
    expect(NetworkSchema.parse({ ...TON, type: 'polymarket' }).type).toBe('polymarket');
    expect(
      DestinationListSchema.parse([{ ...ARBITRUM, tokens: [{ ...ARBITRUM.tokens[1], status: 'paused' }] }])[0]?.tokens[0]?.status,
    ).toBe('paused');
  });

  it('fail a wrong type with the path of the first mismatch', () => {
    expect(firstIssuePath(QuoteResponseSchema.safeParse({ ...QUOTE, quote: { ...QUOTE.quote, receive_amount: '9.5' } }))).toBe(
      'data.quote.receive_amount',
    );
    expect(firstIssuePath(NetworkListSchema.safeParse([ARBITRUM, { ...SOLANA, name: null }]))).toBe('data[1].name');
    expect(firstIssuePath(SwapDetailsSchema.safeParse({ ...SWAP_DETAILS, swap: { ...SWAP_DETAILS.swap, id: 'not-a-uuid' } }))).toBe(
      'data.swap.id',
    );
    expect(firstIssuePath(QuoteResponseSchema.safeParse({ ...QUOTE, quote: { ...QUOTE.quote, receive_amount: undefined } }))).toBe(
      'data.quote.receive_amount',
    );
  });

  it('drop a malformed optional field or nested object, and only that', () => {
    const [, solana] = NetworkListSchema.parse([
      ARBITRUM,
      { ...SOLANA, chain_id: 101, tokens: [{ symbol: 'SOL', decimals: 'nine' }, { decimals: 6 }, SOLANA.tokens[1]] },
    ]);
    expect(solana?.chain_id).toBeUndefined();
    // A token without decimals stays (without them); one without a symbol drops itself.
    expect(solana?.tokens.map((t) => [t.symbol, t.decimals])).toEqual([
      ['SOL', undefined],
      ['USDC', 6],
    ]);

    const details = SwapDetailsSchema.parse({
      ...SWAP_DETAILS,
      quote: { ...QUOTE.quote, receive_amount: 'soon' },
      swap: {
        ...SWAP_DETAILS.swap,
        created_date: undefined,
        source_network: { display_name: 'no name' },
        destination_token: { symbol: 'USDC', decimals: 6, price_in_usd: 'n/a' },
        transactions: [{ type: 'input', created_date: '', timestamp: 'yesterday', amount: 10 }, 'garbage'],
      },
    });
    expect(details.quote).toBeUndefined();
    expect(details.swap.created_date).toBeUndefined();
    expect(details.swap.source_network).toBeUndefined();
    expect(details.swap.destination_token).toMatchObject({ symbol: 'USDC', decimals: 6, price_in_usd: undefined });
    expect(details.swap.transactions).toEqual([{ type: 'input', created_date: undefined, timestamp: undefined, amount: 10 }]);
    expect(details.deposit_actions?.[0]?.to_address).toBe('5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1');
  });

  it('fail what a feature cannot work without: swap id and status, the quote, a network name', () => {
    expect(firstIssuePath(SwapDetailsSchema.safeParse({ swap: { id: SWAP_DETAILS.swap.id } }))).toBe('data.swap.status');
    expect(firstIssuePath(SwapDetailsSchema.safeParse({ swap: { id: '550e8400-...', status: 'completed' } }))).toBe('data.swap.id');
    expect(firstIssuePath(QuoteResponseSchema.safeParse({ refuel: null }))).toBe('data.quote');
    expect(firstIssuePath(NetworkListSchema.safeParse([{ display_name: 'Nameless', tokens: [] }]))).toBe('data[0].name');
    expect(SwapDetailsSchema.parse({ swap: { id: SWAP_DETAILS.swap.id, status: 'created' } }).swap).toEqual({
      id: SWAP_DETAILS.swap.id,
      status: 'created',
      transactions: [],
    });
  });

  it('read a swap list wrapped or bare, leaving out entries without a usable id', () => {
    const list = SwapListSchema.parse([SWAP_DETAILS, SWAP_DETAILS.swap, { swap: { id: 'nope', status: 'completed' } }, 7]);
    expect(list.map((d) => [d.swap.id, d.swap.status])).toEqual([
      [SWAP_DETAILS.swap.id, 'user_transfer_pending'],
      [SWAP_DETAILS.swap.id, 'user_transfer_pending'],
    ]);
    expect(SwapListSchema.parse(null)).toEqual([]);
  });
});

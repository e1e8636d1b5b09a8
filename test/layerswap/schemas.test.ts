import { describe, expect, it } from 'vitest';
import {
  DestinationListSchema,
  NetworkListSchema,
  NetworkSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
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
    const parsed = QuoteResponseSchema.parse({ ...QUOTE, brand_new: 1, quote: { ...QUOTE.quote, avg_completion_milliseconds: 5452, source_token: { ...QUOTE.quote.source_token, wrapped: true } } });
    expect(parsed).toMatchObject({ brand_new: 1, quote: { avg_completion_milliseconds: 5452, source_token: { wrapped: true } } });
  });

  it('accept enum values never seen before', () => {
    const swap = SwapDetailsSchema.parse({
      ...SWAP_DETAILS,
      swap: { ...SWAP_DETAILS.swap, status: 'waiting_for_moon', fail_reason: 'new_reason', transactions: [{ type: 'bridge_fee', status: 'queued' }] },
      deposit_actions: [{ type: 'permit2' }],
    });
    expect(swap.swap.status).toBe('waiting_for_moon');
    expect(swap.swap.transactions[0]?.type).toBe('bridge_fee');
    expect(swap.deposit_actions?.[0]?.type).toBe('permit2');
    expect(NetworkSchema.parse({ ...TON, type: 'polymarket' }).type).toBe('polymarket');
    expect(DestinationListSchema.parse([{ ...ARBITRUM, tokens: [{ ...ARBITRUM.tokens[1], status: 'paused' }] }])[0]?.tokens[0]?.status).toBe('paused');
  });

  it('fail a wrong type with the path of the first mismatch', () => {
    expect(firstIssuePath(QuoteResponseSchema.safeParse({ ...QUOTE, quote: { ...QUOTE.quote, receive_amount: '9.5' } }))).toBe('data.quote.receive_amount');
    expect(firstIssuePath(NetworkListSchema.safeParse([ARBITRUM, { ...SOLANA, chain_id: 101 }]))).toBe('data[1].chain_id');
    expect(firstIssuePath(SwapDetailsSchema.safeParse({ ...SWAP_DETAILS, swap: { ...SWAP_DETAILS.swap, id: 'not-a-uuid' } }))).toBe('data.swap.id');
    expect(firstIssuePath(QuoteResponseSchema.safeParse({ ...QUOTE, quote: { ...QUOTE.quote, receive_amount: undefined } }))).toBe('data.quote.receive_amount');
  });
});

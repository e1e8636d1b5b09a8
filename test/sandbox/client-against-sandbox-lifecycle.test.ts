import { afterEach, describe, expect, it } from 'vitest';
import { LayerswapClient } from '../../src/layerswap/client.js';
import type { CreateSwapParams } from '../../src/layerswap/params.js';
import type { SwapDetails, Transaction } from '../../src/layerswap/schemas.js';
import { isValidAddress } from '../../src/sandbox/addresses.js';
import { DEFAULT_TIMINGS, startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer, type SandboxTimings } from '../../src/sandbox/types.js';
import { ADDR, apiError, raw } from './support.js';

/** Swap lifecycles driven by a ManualClock, observed only through the client over HTTP. */

let open: { sandbox: SandboxServer; client: LayerswapClient }[] = [];
afterEach(async () => {
  await Promise.all(
    open.map(async ({ sandbox, client }) => {
      await client.close();
      await sandbox.close();
    }),
  );
  open = [];
});

async function setup(timings: Partial<SandboxTimings> = { depositDelayMs: 'off' }) {
  const clock = new ManualClock();
  const sandbox = await startSandbox({
    clock,
    timings: { confirmationIntervalMs: 2_000, payoutDelayMs: 5_000, refundDelayMs: 10_000, ...timings },
  });
  const client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, sleep: async () => undefined });
  open.push({ sandbox, client });
  return { clock, sandbox, client };
}

/** ETHEREUM_MAINNET waits for 12 confirmations; the payout lands on Arbitrum. */
const ethToArb: CreateSwapParams = {
  source_network: 'ETHEREUM_MAINNET',
  source_token: 'USDC',
  destination_network: 'ARBITRUM_MAINNET',
  destination_token: 'USDC',
  destination_address: ADDR.evm,
  amount: 100,
  use_deposit_address: true,
};
const tx = (d: SwapDetails, type: string): Transaction | undefined => d.swap.transactions.find((t) => t.type === type);

describe('swap lifecycle', () => {
  it('stays user_transfer_pending while confirmations climb, then ls_transfer_pending, output before completed', async () => {
    const { clock, sandbox, client } = await setup();
    const { swap } = await client.createSwap({ ...ethToArb, refuel: true, source_address: ADDR.evm2 });
    clock.advance(60_000);
    expect((await client.getSwap(swap.id)).swap.status).toBe('user_transfer_pending');

    sandbox.deposit(swap.id);
    let d = await client.getSwap(swap.id);
    // The real service shows the deposit with k/n confirmations while the status has not moved yet.
    expect(d.swap.status).toBe('user_transfer_pending');
    expect(tx(d, 'input')).toMatchObject({ status: 'pending', confirmations: 0, max_confirmations: 12, amount: 100, from: ADDR.evm2 });
    expect(tx(d, 'input')?.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);

    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      clock.advance(2_000);
      d = await client.getSwap(swap.id);
      seen.push(`${tx(d, 'input')?.confirmations}:${d.swap.status}`);
    }
    expect(seen).toEqual([...Array.from({ length: 11 }, (_, i) => `${i + 1}:user_transfer_pending`), '12:ls_transfer_pending']);
    expect(tx(d, 'input')?.status).toBe('completed');
    expect(tx(d, 'output')).toBeUndefined();

    clock.advance(5_000);
    d = await client.getSwap(swap.id);
    // The output is on chain and completed before the status leaves ls_transfer_pending.
    expect(d.swap.status).toBe('ls_transfer_pending');
    expect(tx(d, 'output')?.status).toBe('completed');
    clock.advance(DEFAULT_TIMINGS.completionLagMs);
    d = await client.getSwap(swap.id);
    expect(d.swap.status).toBe('completed');
    expect(tx(d, 'output')).toMatchObject({
      status: 'completed',
      to: ADDR.evm,
      amount: d.quote?.receive_amount,
      token: { symbol: 'USDC' },
      network: { name: 'ARBITRUM_MAINNET' },
    });
    expect(isValidAddress('evm', tx(d, 'output')?.from ?? '')).toBe(true);
    expect(tx(d, 'refuel')).toMatchObject({ status: 'completed', amount: 0.00033333, token: { symbol: 'ETH' } });
    expect(tx(d, 'output')?.transaction_hash).not.toBe(tx(d, 'input')?.transaction_hash);
  });

  it('with the default timings a swap completes within a minute of its deposit', async () => {
    const { clock, sandbox, client } = await setup({ ...DEFAULT_TIMINGS, depositDelayMs: 'off' });
    const { swap } = await client.createSwap(ethToArb);
    sandbox.deposit(swap.id);
    clock.advance(60_000);
    expect((await client.getSwap(swap.id)).swap.status).toBe('completed');
  });

  it('receives the deposit automatically after depositDelayMs', async () => {
    const { clock, client } = await setup({ depositDelayMs: 4_000 });
    const { swap } = await client.createSwap({ ...ethToArb, source_network: 'SOLANA_MAINNET' });
    clock.advance(3_999);
    expect((await client.getSwap(swap.id)).swap.status).toBe('user_transfer_pending');
    clock.advance(1);
    const d = await client.getSwap(swap.id);
    expect(d.swap.status).toBe('user_transfer_pending');
    expect(tx(d, 'input')).toMatchObject({ status: 'pending', confirmations: 0 });
    expect(tx(d, 'input')?.transaction_hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/); // a Solana signature
    expect(tx(d, 'input')?.max_confirmations).toBe(2);
  });

  it('never deposits by itself when the delay is off', async () => {
    const { clock, client } = await setup({ depositDelayMs: 'off' });
    const { swap } = await client.createSwap(ethToArb);
    clock.advance(5 * 60 * 60 * 1000);
    const d = await client.getSwap(swap.id);
    expect(d.swap).toMatchObject({ status: 'user_transfer_pending', transactions: [] });
  });

  it('fails deposits outside the valid range with the matching fail_reason', async () => {
    const { clock, sandbox, client } = await setup();
    const low = await client.createSwap(ethToArb);
    const res = await raw(sandbox.url, `/sandbox/swaps/${low.swap.id}/deposit`, { method: 'POST', body: { amount: 1 } });
    expect(res.status).toBe(200);
    let d = await client.getSwap(low.swap.id);
    expect(d.swap.status).toBe('user_transfer_pending'); // judged once the deposit is confirmed
    clock.advance(12 * 2_000);
    d = await client.getSwap(low.swap.id);
    expect(d.swap).toMatchObject({ status: 'failed', fail_reason: 'received_less_than_valid_range' });
    expect(tx(d, 'input')?.amount).toBe(1);

    const high = await client.createSwap(ethToArb);
    sandbox.deposit(high.swap.id, { amount: 600_000 });
    clock.advance(12 * 2_000);
    d = await client.getSwap(high.swap.id);
    expect(d.swap).toMatchObject({ status: 'failed', fail_reason: 'received_more_than_valid_range' });
  });

  it('pays out for a different amount within range, recomputed from the deposit', async () => {
    const { clock, sandbox, client } = await setup();
    const { swap } = await client.createSwap(ethToArb);
    sandbox.deposit(swap.id, { amount: 50 });
    clock.advance(60_000);
    const d = await client.getSwap(swap.id);
    expect(d.swap.status).toBe('completed');
    expect(tx(d, 'output')?.amount).toBe(49.164161); // 50 - 0.823939 gas - 0.0119 service fee
  });

  it('refunds a failed execution when a refund address was given', async () => {
    const { clock, sandbox, client } = await setup();
    const { swap } = await client.createSwap({ ...ethToArb, refund_address: ADDR.evm2 });
    sandbox.deposit(swap.id, { outcome: 'fail_execution' });
    clock.advance(12 * 2_000 + 5_000);
    let d = await client.getSwap(swap.id);
    expect(d.swap.status).toBe('pending_refund');
    clock.advance(10_000);
    d = await client.getSwap(swap.id);
    expect(d.swap.status).toBe('refunded');
    expect(tx(d, 'refund')).toMatchObject({ status: 'completed', to: ADDR.evm2, amount: 100, network: { name: 'ETHEREUM_MAINNET' } });
    expect(tx(d, 'output')).toBeUndefined();
    // As the real service: the swap object never carries the refund address (only the refund's `to` tells it).
    expect(d.swap).not.toHaveProperty('refund_address');
  });

  it('keeps a failed execution in ls_transfer_pending without a refund address', async () => {
    const { clock, sandbox, client } = await setup();
    const { swap } = await client.createSwap(ethToArb);
    const res = await raw(sandbox.url, `/sandbox/swaps/${swap.id}/deposit`, { method: 'POST', body: { outcome: 'fail_execution' } });
    expect(res.json.data).toMatchObject({ swap: { status: 'user_transfer_pending' } });
    clock.advance(24 * 60 * 60 * 1000);
    expect((await client.getSwap(swap.id)).swap.status).toBe('ls_transfer_pending');
  });

  it('expires a swap without a deposit after expiryMs, and then refuses a deposit', async () => {
    const { clock, sandbox, client } = await setup({ depositDelayMs: 'off', expiryMs: 6 * 60 * 60 * 1000 });
    const { swap } = await client.createSwap(ethToArb);
    clock.advance(6 * 60 * 60 * 1000 - 1);
    expect((await client.getSwap(swap.id)).swap.status).toBe('user_transfer_pending');
    clock.advance(1);
    expect((await client.getSwap(swap.id)).swap.status).toBe('expired');
    expect(() => sandbox.deposit(swap.id)).toThrow(/expired/);
    const res = await raw(sandbox.url, `/sandbox/swaps/${swap.id}/deposit`, { method: 'POST', body: {} });
    expect(res.status).toBe(409);
  });

  it('refuses a second deposit, bad deposit input, and an unknown swap', async () => {
    const { sandbox, client } = await setup();
    const { swap } = await client.createSwap(ethToArb);
    sandbox.deposit(swap.id);
    expect(() => sandbox.deposit(swap.id)).toThrow(/already received/);
    const other = await client.createSwap(ethToArb);
    const bad = await raw(sandbox.url, `/sandbox/swaps/${other.swap.id}/deposit`, { method: 'POST', body: { outcome: 'explode' } });
    expect(bad.json.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    const unknown = await raw(sandbox.url, '/sandbox/swaps/3fa85f64-5717-4562-b3fc-2c963f66afa6/deposit', { method: 'POST', body: {} });
    expect(unknown.status).toBe(404);
    const noKey = await raw(sandbox.url, `/sandbox/swaps/${other.swap.id}/deposit`, { method: 'POST', body: {}, key: null });
    expect(noKey.status).toBe(401);
  });
});

describe('faults and counters', () => {
  it('injects 5xx that the client retries through, counted per operation', async () => {
    const { sandbox, client } = await setup();
    const retrying = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 2, sleep: async () => undefined });
    open.push({ sandbox, client: retrying });
    sandbox.injectFault({ status: 503, count: 2 });
    expect((await retrying.getNetworks()).length).toBeGreaterThan(0);
    expect(sandbox.requestCount('getNetworks')).toBe(3);
    await client.getNetworks();
    expect(sandbox.requestCount('getNetworks')).toBe(4);
    expect(sandbox.requestCount()).toBe(4);
  });

  it('answers 429 with Retry-After, 502 with an HTML page, only on the given path prefix', async () => {
    const { sandbox, client } = await setup();
    sandbox.injectFault({ status: 429, count: 1, retryAfterSeconds: 7, pathPrefix: '/api/v2/quote' });
    await client.getNetworks(); // not matched by the prefix
    const limited = await apiError(client.getQuote({ ...ethToArb, amount: 10 }));
    expect(limited).toMatchObject({ status: 429, retryAfterMs: 7_000 });
    await expect(client.getQuote({ ...ethToArb, amount: 10 })).resolves.toBeTruthy();

    sandbox.injectFault({ status: 502, count: 1 });
    const proxy = await apiError(client.getNetworks());
    expect(proxy).toMatchObject({ status: 502, code: 'NON_JSON_RESPONSE' });
    expect(sandbox.requestCount('getQuote')).toBe(2);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'svix';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxWebhookOptions } from '../../src/sandbox/types.js';
import { ADDR, raw } from './support.js';
import { waitFor, WAIT_MS } from '../support/wait.js';

/** The operations added for realism, the on-demand statuses, and signed webhooks, over real sockets. */

type Obj = Record<string, unknown>;
let open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.reverse()) await o.close();
  open = [];
});

async function setup(webhook?: SandboxWebhookOptions) {
  const clock = new ManualClock();
  const sandbox = await startSandbox({
    clock,
    timings: { depositDelayMs: 'off', confirmationIntervalMs: 2_000, payoutDelayMs: 5_000, completionLagMs: 1_000 },
    webhook,
  });
  open.push(sandbox);
  const get = async (path: string) => (await raw(sandbox.url, path)).json;
  const post = async (path: string, body: unknown) => (await raw(sandbox.url, path, { method: 'POST', body })).json;
  return { clock, sandbox, get, post };
}

const ethToArb = {
  source_network: 'ETHEREUM_MAINNET',
  source_token: 'USDC',
  destination_network: 'ARBITRUM_MAINNET',
  destination_token: 'USDC',
  destination_address: ADDR.evm,
  amount: 100,
};
const idOf = (r: { data: unknown }) => ((r.data as Obj).swap as Obj).id as string;
const statusOf = async (get: (p: string) => Promise<{ data: unknown }>, id: string) =>
  ((await get(`/api/v2/swaps/${id}`)).data as Obj).swap as Obj;

describe('endpoints', () => {
  it('lists swaps by address, newest first, paged, expired ones only with include_expired', async () => {
    const { clock, get, post } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) ids.push(idOf(await post('/api/v2/swaps', { ...ethToArb, source_address: ADDR.evm2 })));
    const first = (await get(`/api/v2/swaps?address=${ADDR.evm2.toUpperCase().replace('0X', '0x')}`)).data as Obj[];
    expect(first).toHaveLength(20);
    expect((first[0]?.swap as Obj).id).toBe(ids[21]);
    expect(((await get(`/api/v2/swaps?address=${ADDR.evm2}&page=2`)).data as Obj[]).map((d) => (d.swap as Obj).id)).toEqual([
      ids[1],
      ids[0],
    ]);
    expect((await get(`/api/v2/swaps?address=${ADDR.evm}`)).data).toHaveLength(20); // destination address matches too
    clock.advance(7 * 60 * 60 * 1000);
    expect((await get(`/api/v2/swaps?address=${ADDR.evm2}`)).data).toEqual([]);
    expect((await get(`/api/v2/swaps?address=${ADDR.evm2}&include_expired=true`)).data).toHaveLength(20);
    expect((await get('/api/v2/swaps?address=x&page=0')).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await get('/api/v2/swaps')).error?.message).toMatch(/address is required/);
  });

  it('finds a swap by its deposit hash, reports transaction_status with confirmations, accepts deposit_speedup', async () => {
    const { clock, sandbox, get, post } = await setup();
    const id = idOf(await post('/api/v2/swaps', ethToArb));
    sandbox.deposit(id);
    clock.advance(3 * 2_000);
    const input = ((await statusOf(get, id)).transactions as Obj[])[0] as Obj;
    const hash = input.transaction_hash as string;
    expect(((await get(`/api/v2/swaps/by_transaction_hash/${hash.toUpperCase().replace('0X', '0x')}`)).data as Obj).swap).toMatchObject({
      id,
    });
    expect((await get('/api/v2/swaps/by_transaction_hash/0xdead')).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get(`/api/v2/transaction_status?network=ETHEREUM_MAINNET&transaction_id=${hash}`)).data).toEqual({
      network: 'ETHEREUM_MAINNET',
      transaction_id: hash,
      is_found: true,
      is_completed: false,
      confirmations: 3,
      max_confirmations: 12,
    });
    expect((await get(`/api/v2/transaction_status?network=BASE_MAINNET&transaction_id=${hash}`)).data).toMatchObject({ is_found: false });
    expect((await get('/api/v2/transaction_status?network=MOON&transaction_id=1')).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await post(`/api/v2/swaps/${id}/deposit_speedup`, { transaction_id: hash })).toEqual({ data: null, error: null });
    expect((await post(`/api/v2/swaps/${id}/deposit_speedup`, {})).error?.message).toMatch(/transaction_id is required/);
  });

  it('injects a swap made by another app with a given deposit hash, found by hash and by address', async () => {
    const { get, post } = await setup();
    const hash = `0x${'ab'.repeat(32)}`;
    const made = await post('/sandbox/swaps', { ...ethToArb, source_address: ADDR.evm2, deposit_tx_hash: hash });
    const id = idOf(made);
    expect(((await get(`/api/v2/swaps/by_transaction_hash/${hash}`)).data as Obj).swap).toMatchObject({
      id,
      metadata: { app: 'another-app' },
    });
    expect(((await get(`/api/v2/swaps?address=${ADDR.evm2}`)).data as Obj[]).map((d) => (d.swap as Obj).id)).toEqual([id]);
    expect(((await statusOf(get, id)).transactions as Obj[])[0]).toMatchObject({
      transaction_hash: hash,
      from: ADDR.evm2,
      status: 'pending',
    });
  });

  it('lists exchanges and their networks, and creates swaps from and to an exchange', async () => {
    const { get, post } = await setup();
    const exchanges = (await get('/api/v2/exchanges')).data as Obj[];
    expect(exchanges.map((e) => e.name)).toEqual(expect.arrayContaining(['BINANCE', 'COINBASE']));
    expect(Object.keys(exchanges[0] ?? {}).sort()).toEqual(['display_name', 'logo', 'metadata', 'name', 'token_groups']);
    const nets = (await get('/api/v2/exchange_withdrawal_networks?source_exchange=COINBASE&source_token_group=USDC')).data as Obj[];
    expect(nets.map((n) => (n.network as Obj).name)).toEqual(['ETHEREUM_MAINNET', 'BASE_MAINNET', 'SOLANA_MAINNET', 'POLYGON_MAINNET']);
    expect(nets[0]).toMatchObject({ token: { symbol: 'USDC' }, fee: { total_fee: expect.any(Number) } });
    const fromCex = await post('/api/v2/swaps', { ...ethToArb, source_network: 'BASE_MAINNET', source_exchange: 'coinbase' });
    expect((fromCex.data as Obj).swap).toMatchObject({ source_exchange: { name: 'COINBASE' }, use_deposit_address: true });
    expect(((fromCex.data as Obj).deposit_actions as Obj[])[0]).toMatchObject({ type: 'manual_transfer', call_data: null });
    const toCex = await post('/api/v2/swaps', { ...ethToArb, destination_network: 'BASE_MAINNET', destination_exchange: 'BINANCE' });
    expect((toCex.data as Obj).swap).toMatchObject({ destination_exchange: { name: 'BINANCE', display_name: 'Binance' } });
    expect((await post('/api/v2/swaps', { ...ethToArb, source_exchange: 'KRAKEN' })).error).toMatchObject({
      code: 'ROUTE_NOT_FOUND_ERROR',
    });
    expect((await post('/api/v2/swaps', { ...ethToArb, source_exchange: 'FTX' })).error?.message).toMatch(/unknown exchange 'FTX'/);
  });
});

describe('statuses on demand', () => {
  it('fails with each documented fail_reason, and without one', async () => {
    const { clock, sandbox, get, post } = await setup();
    for (const reason of ['swap_route_unavailable', 'degraded_quote', 'gasless_deposit_failed', null]) {
      const id = idOf(await post('/api/v2/swaps', ethToArb));
      sandbox.deposit(id, { outcome: 'fail', failReason: reason });
      clock.advance(12 * 2_000);
      expect(await statusOf(get, id)).toMatchObject({ status: 'ls_transfer_pending', fail_reason: null });
      clock.advance(5_000);
      expect(await statusOf(get, id)).toMatchObject({ status: 'failed', fail_reason: reason });
    }
    const bad = await post(`/sandbox/swaps/${idOf(await post('/api/v2/swaps', ethToArb))}/deposit`, {
      outcome: 'fail',
      fail_reason: 'bored',
    });
    expect(bad.error?.message).toMatch(/failReason must be null or one of/);
  });

  it('takes a late deposit after expiry over HTTP (late: true), and a wrong token only with the chain (issue 32, docs/sandbox.md)', async () => {
    const { clock, get, post } = await setup();
    const id = idOf(await post('/api/v2/swaps', ethToArb));
    clock.advance(7 * 3_600_000);
    expect(await statusOf(get, id)).toMatchObject({ status: 'expired' });
    expect((await post(`/sandbox/swaps/${id}/deposit`, {})).error?.message).toMatch(/has expired/);
    await post(`/sandbox/swaps/${id}/deposit`, { late: true });
    // Still expired, with the money that reached it listed: what the bot tells as money it cannot take.
    expect(await statusOf(get, id)).toMatchObject({ status: 'expired', transactions: [{ type: 'input' }] });
    const open = idOf(await post('/api/v2/swaps', ethToArb));
    expect((await post(`/sandbox/swaps/${open}/deposit`, { token: 'DOGE' })).error?.message).toMatch(/token must be another token of/);
    expect((await post(`/sandbox/swaps/${open}/deposit`, { token: 'USDT' })).error?.message).toMatch(/start the sandbox with --chain/);
  });

  it('shows a failed input transaction, then a failed swap', async () => {
    const { clock, get, post } = await setup();
    const id = idOf(await post('/api/v2/swaps', ethToArb));
    await post(`/sandbox/swaps/${id}/deposit`, { outcome: 'input_failed' });
    expect(await statusOf(get, id)).toMatchObject({ status: 'user_transfer_pending', transactions: [{ type: 'input', status: 'failed' }] });
    clock.advance(2_000);
    expect(await statusOf(get, id)).toMatchObject({ status: 'failed', fail_reason: null });
  });

  it('pins created, user_transfer_delayed and cancelled, and refuses unknown statuses', async () => {
    const { get, post, sandbox } = await setup();
    for (const status of ['created', 'user_transfer_delayed', 'cancelled']) {
      const id = idOf(await post('/api/v2/swaps', ethToArb));
      expect(((await post(`/sandbox/swaps/${id}/status`, { status })).data as Obj).swap).toMatchObject({ status });
      expect(await statusOf(get, id)).toMatchObject({ status });
    }
    const id = idOf(await post('/api/v2/swaps', ethToArb));
    expect(() => sandbox.setStatus(id, 'paused')).toThrow(/status must be one of/);
  });
});

describe('webhooks', () => {
  it('posts a Svix-signed {swap, quote, deposit_actions} on each status change, the whole swap only on completed, retrying failures', async () => {
    const secret = `whsec_${Buffer.from('sandbox-webhook-secret-0123456789').toString('base64')}`;
    const verifier = new Webhook(secret);
    const received: Obj[] = [];
    const bodies: Obj[] = [];
    let refuseNext = 1;
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (refuseNext-- > 0) return void res.writeHead(503).end();
        const headers = {
          'svix-id': String(req.headers['svix-id']),
          'svix-timestamp': String(req.headers['svix-timestamp']),
          'svix-signature': String(req.headers['svix-signature']),
        };
        const body = verifier.verify(Buffer.concat(chunks).toString('utf8'), headers) as Obj; // throws on a bad signature
        bodies.push(body);
        received.push(body.swap as Obj);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise<void>((r) => receiver.close(() => r())) });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const { clock, sandbox, post } = await setup({ url, secret, pollMs: 20, retryDelayMs: 10 });

    const id = idOf(await post('/api/v2/swaps', ethToArb));
    await vi.waitFor(() => expect(received.map((p) => p.status)).toEqual(['user_transfer_pending']), { timeout: WAIT_MS });
    sandbox.deposit(id);
    clock.advance(12 * 2_000);
    await vi.waitFor(() => expect(received.map((p) => p.status)).toContain('ls_transfer_pending'), { timeout: WAIT_MS });
    clock.advance(6_000);
    await vi.waitFor(() => expect(received.map((p) => p.status)).toEqual(['user_transfer_pending', 'ls_transfer_pending', 'completed']), {
      timeout: WAIT_MS,
    });
    expect(received[0]).toEqual({ id, created_date: expect.any(String), status: 'user_transfer_pending', fail_reason: null });
    expect(received[2]).toMatchObject({
      id,
      status: 'completed',
      transactions: expect.arrayContaining([expect.objectContaining({ type: 'output' })]),
    });
    expect(Object.keys(bodies[0] ?? {})).toEqual(['swap']);
    expect(Object.keys(bodies[2] ?? {}).sort()).toEqual(['deposit_actions', 'quote', 'swap']);
    // The receiver records a call before it answers; the sandbox counts it once the answer is in.
    await waitFor(() => sandbox.webhookStats().delivered === 3, 'the third delivery counted');
    expect(sandbox.webhookStats()).toEqual({ attempted: 4, delivered: 3, failed: 0 });
  });

  it('is off by default and refuses a secret that is not whsec_', async () => {
    const { sandbox } = await setup();
    expect(sandbox.webhookStats()).toEqual({ attempted: 0, delivered: 0, failed: 0 });
    await expect(startSandbox({ webhook: { url: 'http://127.0.0.1:1/', secret: 'hunter2' } })).rejects.toThrow(/whsec_/);
  });
});

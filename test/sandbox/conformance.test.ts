import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DepositActionListSchema,
  DestinationListSchema,
  NetworkListSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
  TokenSchema,
} from '../../src/layerswap/schemas.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { fixtureData } from '../support/fixtures.js';
import { ADDR, raw } from './support.js';

/**
 * Every sandbox answer parses with the client's schemas AND has the key sets of the real answers
 * (test/fixtures/layerswap), so code written against the sandbox cannot lean on a key the real
 * service does not send (nodes in a swap, rate and path in a swap's quote, deposit_methods in
 * /networks, group in route tokens, null metadata).
 */

type Obj = Record<string, unknown>;
const keys = (o: unknown) => Object.keys(o as Obj).sort();
const obj = (o: unknown, ...path: (string | number)[]): Obj => path.reduce<unknown>((v, k) => (v as Obj)[k], o) as Obj;

let sandbox: SandboxServer;
const clock = new ManualClock();
beforeAll(async () => {
  sandbox = await startSandbox({ clock, timings: { depositDelayMs: 'off' } });
});
afterAll(async () => {
  await sandbox.close();
});

async function data(path: string, init?: Parameters<typeof raw>[2]): Promise<unknown> {
  const res = await raw(sandbox.url, path, init);
  expect(res.json.error, path).toBeNull();
  return res.json.data;
}

const swapBody = {
  source_network: 'SOLANA_MAINNET',
  source_token: 'USDC',
  destination_network: 'ARBITRUM_MAINNET',
  destination_token: 'USDC',
  destination_address: ADDR.evm,
  amount: 10,
  use_deposit_address: true,
};

describe('answers have the key sets of the real service', () => {
  it('GET /networks: the live keys, no deposit_methods, metadata without nulls, lower-case EVM contracts', async () => {
    const networks = (await data('/api/v2/networks')) as Obj[];
    expect(() => NetworkListSchema.parse(networks)).not.toThrow();
    const real = fixtureData<Obj[]>('wdk.networks.json');
    const realKeys = keys(real[0]);
    const realTokenKeys = new Set([...keys(obj(real, 0, 'token')), ...keys(obj(real, 1, 'tokens', 0))]);
    const realMetaKeys = new Set(real.flatMap((n) => keys(n.metadata)));
    for (const n of networks) {
      expect(keys(n), String(n.name)).toEqual(realKeys);
      expect(n).not.toHaveProperty('deposit_methods');
      for (const [k, v] of Object.entries(n.metadata as Obj)) {
        expect([...realMetaKeys, 'evm_oracle_contract'], `${String(n.name)} metadata`).toContain(k);
        expect(v, `${String(n.name)} metadata.${k}`).not.toBeNull();
      }
      for (const t of [n.token, ...(n.tokens as Obj[])] as Obj[]) {
        const extra = keys(t).filter((k) => !realTokenKeys.has(k) && k !== 'supports_gasless_deposit');
        expect(extra, `${String(n.name)} ${String(t.symbol)}`).toEqual([]);
        if (n.type === 'evm' && typeof t.contract === 'string') expect(t.contract).toBe(t.contract.toLowerCase());
      }
    }
  });

  it('GET /quote: the live capture key for key, down to nested networks and tokens', async () => {
    const q = await data(
      '/api/v2/quote?source_network=SOLANA_MAINNET&source_token=USDC&destination_network=ARBITRUM_MAINNET&destination_token=USDC&amount=10&use_deposit_address=true',
    );
    expect(() => QuoteResponseSchema.parse(q)).not.toThrow();
    const real = fixtureData<Obj>('wdk.quote.spl.json');
    expect(keys(q)).toEqual(keys(real));
    expect(keys(obj(q, 'quote'))).toEqual(keys(obj(real, 'quote')));
    for (const side of ['source_network', 'destination_network']) {
      expect(keys(obj(q, 'quote', side)), side).toEqual(keys(obj(real, 'quote', side)));
      expect(keys(obj(q, 'quote', side, 'metadata'))).toEqual(keys(obj(real, 'quote', side, 'metadata')));
    }
    expect(keys(obj(q, 'quote', 'source_token'))).toEqual(keys(obj(real, 'quote', 'source_token')));
    // Real-looking figures: a stablecoin price that is not 1, 6-decimal fees that are not proportional.
    expect(obj(q, 'quote', 'source_token').price_in_usd).toBe(0.999766);
    const fee = obj(q, 'quote').total_fee as number;
    const q1000 = await data(
      '/api/v2/quote?source_network=SOLANA_MAINNET&source_token=USDC&destination_network=ARBITRUM_MAINNET&destination_token=USDC&amount=1000',
    );
    expect((obj(q1000, 'quote').total_fee as number) / fee).toBeLessThan(2);
  });

  it('GET /destinations and /sources: the prod-pasted item keys; route tokens without group, refuel only when offered', async () => {
    const real = fixtureData<Obj[]>('app.destinations.fuse-item.json');
    for (const path of [
      '/api/v2/destinations?source_network=BASE_MAINNET&source_token=USDC',
      '/api/v2/sources?destination_network=BASE_MAINNET&destination_token=USDC',
    ]) {
      const list = (await data(path)) as Obj[];
      expect(() => DestinationListSchema.parse(list)).not.toThrow();
      expect(list.length).toBeGreaterThan(0);
      for (const n of list) {
        expect(keys(n), path).toEqual(keys(real[0]));
        for (const t of n.tokens as Obj[]) {
          expect(keys(t).filter((k) => k !== 'refuel' && k !== 'supports_gasless_deposit')).toEqual(keys(obj(real, 0, 'tokens', 0)));
          if ('refuel' in t) expect(t.refuel).not.toBeNull();
        }
      }
    }
  });

  it('POST /swaps and GET /swaps/{id}: no nodes, ranks, rate or path; a swap quote of figures only', async () => {
    const created = (await data('/api/v2/swaps', { method: 'POST', body: swapBody })) as Obj;
    const id = obj(created, 'swap').id as string;
    sandbox.deposit(id);
    const got = (await data(`/api/v2/swaps/${id}`)) as Obj;
    for (const d of [created, got]) {
      expect(() => SwapDetailsSchema.parse(d)).not.toThrow();
      expect(JSON.stringify(d)).not.toMatch(/"(nodes|rate|path|source_rank|destination_rank)"/);
    }
    const mock = fixtureData<Obj>('app.get-swap.user_transfer_pending.json');
    // SPEC SwapQuote: the mock's seven figures plus refuel_in_source and slippage.
    expect(keys(got.quote)).toEqual([...keys(mock.quote), 'refuel_in_source', 'slippage'].sort());
    expect(keys(obj(got, 'swap', 'source_network'))).toEqual(keys(obj(mock, 'swap', 'source_network')).filter((k) => k !== 'nodes'));
    expect(keys(obj(got, 'swap', 'source_token'))).toEqual(keys(obj(mock, 'swap', 'source_token')));
    expect(keys(obj(got, 'swap', 'metadata'))).toEqual(keys(obj(mock, 'swap', 'metadata')));
    const [input] = obj(got, 'swap').transactions as Obj[];
    const mockTx = keys((obj(mock, 'swap').transactions as Obj[])[0]);
    expect(keys(input).filter((k) => !mockTx.includes(k))).toEqual(['network', 'token']); // SPEC adds these two
    expect(String(obj(got, 'swap', 'metadata').sequence_number)).toMatch(/^\d{8}$/);
    const actions = (await data(`/api/v2/swaps/${id}/deposit_actions`)) as Obj[];
    expect(() => DepositActionListSchema.parse(actions)).not.toThrow();
    const mockAction = keys((mock.deposit_actions as Obj[])[0]).filter((k) => k !== 'fee');
    expect(keys(actions[0])).toEqual(mockAction);
    expect(actions[0]).toMatchObject({ type: 'manual_transfer', call_data: null });
  });

  it('GET /limits: the documented keys, in source-token units and USD', async () => {
    const limits = (await data(
      '/api/v2/limits?source_network=SOLANA_MAINNET&source_token=USDC&destination_network=ARBITRUM_MAINNET&destination_token=USDC',
    )) as Obj;
    expect(keys(limits)).toEqual(keys(fixtureData<Obj>('docs.limits.lifi.json')));
    expect(limits).toMatchObject({ min_amount: 5.001171, max_amount: 500117.027384 });
    expect(limits.min_amount_in_usd).toBeCloseTo(5, 2);
    const networks = await data('/api/v2/networks');
    expect(() => TokenSchema.parse(obj(networks, 0, 'token'))).not.toThrow();
  });

  it('keys: public reads answer without one, swaps need one (401), a wrong one is 403 API_KEY_FORBIDDEN everywhere', async () => {
    const q =
      '/api/v2/quote?source_network=SOLANA_MAINNET&source_token=USDC&destination_network=ARBITRUM_MAINNET&destination_token=USDC&amount=20';
    for (const path of [
      '/api/v2/networks',
      '/api/v2/sources',
      '/api/v2/destinations',
      q,
      q.replace('/quote', '/limits').replace('&amount=20', ''),
    ]) {
      expect((await raw(sandbox.url, path, { key: null })).status, path).toBe(200);
    }
    const noKey = await raw(sandbox.url, `/api/v2/swaps?address=${ADDR.evm}`, { key: null });
    expect(noKey.status).toBe(401);
    for (const path of ['/api/v2/networks', `/api/v2/swaps?address=${ADDR.evm}`]) {
      const wrong = await raw(sandbox.url, path, { key: 'wrong-key' });
      expect(wrong.status).toBe(403);
      expect(wrong.json.error).toEqual({ code: 'API_KEY_FORBIDDEN', message: 'Api key forbidden', metadata: {} });
    }
  });

  const EVM3 = '0x2222222222222222222222222222222222222222';
  const ROUTE = { source_network: 'SOLANA_MAINNET', source_token: 'USDC', destination_token: 'USDC' };
  it('GET /swaps: repeatable address, networks and PascalCase statuses; a snake_case status is a 400 with an empty body', async () => {
    const create = (destination_address: string, destination_network = 'ARBITRUM_MAINNET') =>
      data('/api/v2/swaps', {
        method: 'POST',
        body: { ...ROUTE, destination_network, destination_address, amount: 20, use_deposit_address: true },
      }) as Promise<{ swap: Obj }>;
    const a = (await create(ADDR.evm2)).swap.id as string;
    const b = (await create(EVM3, 'BASE_MAINNET')).swap.id as string;
    sandbox.deposit(b);
    clock.advance(60 * 60 * 1000);
    const ids = async (query: string) => ((await data(`/api/v2/swaps?${query}`)) as { swap: Obj }[]).map((d) => d.swap.id);
    expect(await ids(`address=${ADDR.evm2}&address=${EVM3}`)).toEqual([b, a]);
    expect(await ids(`address=${ADDR.evm2}&address=${EVM3}&networks=BASE_MAINNET`)).toEqual([b]);
    expect(await ids(`address=${ADDR.evm2}&address=${EVM3}&statuses=PendingDeposit`)).toEqual([a]);
    expect(await ids(`address=${ADDR.evm2}&address=${EVM3}&statuses=PendingDeposit&statuses=Completed`)).toEqual([b, a]);
    const snake = await raw(sandbox.url, `/api/v2/swaps?address=${ADDR.evm2}&statuses=pending_deposit`);
    expect(snake.status).toBe(400);
    expect(snake.text).toBe('');
  });

  it('TON is wallet-only: a deposit-address quote is refused', async () => {
    const q = await raw(
      sandbox.url,
      '/api/v2/quote?source_network=TON_MAINNET&source_token=USDT&destination_network=ETHEREUM_MAINNET&destination_token=USDT&amount=20&use_deposit_address=true',
    );
    expect(q.json.error?.code).toBe('QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS');
  });
});

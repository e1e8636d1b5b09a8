import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DepositActionListSchema,
  DestinationListSchema,
  EnvelopeSchema,
  NetworkListSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
} from '../../src/layerswap/schemas.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { ADDR, raw } from './support.js';

/** The wire itself: paths, envelope, status codes, headers and bodies, as any client would see them. */

let sandbox: SandboxServer;
beforeAll(async () => {
  sandbox = await startSandbox({ clock: new ManualClock(), apiKey: 'k-123', timings: { depositDelayMs: 'off' } });
});
afterAll(() => sandbox.close());

const get = (path: string, key: string | null = 'k-123') => raw(sandbox.url, path, { key });
const quoteQuery = 'source_network=ARBITRUM_MAINNET&source_token=USDC&destination_network=BASE_MAINNET&destination_token=USDC&amount=20';

describe('envelope and schemas', () => {
  it('answers every operation in {data, error} with data that fits the client schemas', async () => {
    const networks = await get('/api/v2/networks');
    expect(networks.status).toBe(200);
    expect(networks.headers.get('content-type')).toMatch(/^application\/json/);
    expect(networks.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(EnvelopeSchema.parse(networks.json).error).toBeNull();
    expect(NetworkListSchema.safeParse(networks.json.data).success).toBe(true);

    const dest = await get(
      '/api/v2/destinations?source_network=ARBITRUM_MAINNET&include_swaps=true&include_unavailable=true&include_unmatched=true',
    );
    expect(DestinationListSchema.safeParse(dest.json.data).success).toBe(true);
    expect(QuoteResponseSchema.safeParse((await get(`/api/v2/quote?${quoteQuery}`)).json.data).success).toBe(true);

    const created = await raw(sandbox.url, '/api/v2/swaps', {
      method: 'POST',
      key: 'k-123',
      body: {
        source_network: 'ARBITRUM_MAINNET',
        source_token: 'USDC',
        destination_network: 'BASE_MAINNET',
        destination_token: 'USDC',
        destination_address: ADDR.evm,
        amount: '20',
        use_deposit_address: true,
      },
    });
    expect(created.status).toBe(200);
    expect(SwapDetailsSchema.safeParse(created.json.data).success).toBe(true);
    const id = (created.json.data as { swap: { id: string } }).swap.id;
    expect(SwapDetailsSchema.safeParse((await get(`/api/v2/swaps/${id}?exclude_deposit_actions=True`)).json.data).success).toBe(true);
    expect(DepositActionListSchema.safeParse((await get(`/api/v2/swaps/${id}/deposit_actions`)).json.data).success).toBe(true);
  });

  it('reads network_types repeated or comma-joined', async () => {
    const names = (r: Awaited<ReturnType<typeof get>>) => (r.json.data as { name: string }[]).map((n) => n.name).sort();
    const repeated = await get('/api/v2/networks?network_types=bitcoin&network_types=starknet');
    const joined = await get('/api/v2/networks?network_types=bitcoin,starknet');
    expect(names(repeated)).toEqual(['BITCOIN_MAINNET', 'STARKNET_MAINNET']);
    expect(names(joined)).toEqual(names(repeated));
  });
});

describe('errors on the wire', () => {
  it('X-LS-APIKEY: swaps need it (401 INVALID_CREDENTIALS when missing), a wrong one is 403 API_KEY_FORBIDDEN', async () => {
    const missing = await get('/api/v2/swaps?address=0x1111111111111111111111111111111111111111', null);
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({
      data: null,
      error: { code: 'INVALID_CREDENTIALS', message: expect.stringContaining('X-LS-APIKEY'), metadata: {} },
    });
    // The catalogue is public, as on Layerswap.
    expect((await get('/api/v2/networks', null)).status).toBe(200);
    const wrong = await get('/api/v2/networks', 'k-124');
    expect(wrong.status).toBe(403);
    expect(wrong.json.error?.code).toBe('API_KEY_FORBIDDEN');
    expect(wrong.text).not.toContain('k-12');
  });

  it('serves /health without a key', async () => {
    for (const path of ['/health', '/api/v2/health']) {
      const res = await get(path, null);
      expect(res.status).toBe(200);
      expect(res.json.error).toBeNull();
    }
  });

  it('answers unknown paths and methods in the envelope', async () => {
    const unknown = await get('/api/v2/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error?.code).toBe('NOT_FOUND');
    const method = await raw(sandbox.url, '/api/v2/networks', { method: 'DELETE', key: 'k-123' });
    expect(method.status).toBe(405);
  });

  it('rejects bodies that are not a JSON object, and oversized ones, without crashing', async () => {
    for (const body of ['{not json', '[1,2]', '"text"']) {
      const res = await raw(sandbox.url, '/api/v2/swaps', { method: 'POST', key: 'k-123', body });
      expect(res.status).toBe(400);
      expect(res.json.error?.code).toBe('VALIDATION_ERROR');
    }
    const huge = await raw(sandbox.url, '/api/v2/swaps', {
      method: 'POST',
      key: 'k-123',
      body: JSON.stringify({ pad: 'x'.repeat(70_000) }),
    });
    expect(huge.status).toBe(413);
    expect((await get('/health')).status).toBe(200);
  });

  it('treats a malformed swap id as a validation error and an unknown one as NOT_FOUND', async () => {
    const bad = await get('/api/v2/swaps/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.json.error?.message).toMatch(/UUID/);
    expect((await get('/api/v2/swaps/3FA85F64-5717-4562-B3FC-2C963F66AFA6')).status).toBe(404);
  });

  it('rejects exponent amounts and bad booleans with a specific message', async () => {
    const exp = await get(`/api/v2/quote?${quoteQuery.replace('amount=20', 'amount=2e1')}`);
    expect(exp.json.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/amount/) });
    const flag = await get(`/api/v2/quote?${quoteQuery}&refuel=maybe`);
    expect(flag.json.error?.message).toMatch(/refuel must be true or false/);
    const missing = await get('/api/v2/quote?source_network=ARBITRUM_MAINNET');
    expect(missing.json.error?.message).toMatch(/source_token is required/);
  });
});

import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, ApiError, InvalidRequestError, LayerswapError, ResponseShapeError } from '../../src/layerswap/errors.js';
import { apiError, delayed, hang, json, ok, raw, reset } from './fault-server.js';
import { memoryLogger } from '../support/log.js';
import { API_KEY, rejectionOf, testClient, useFaultServer } from './harness.js';
import { ARBITRUM, QUOTE, SWAP_DETAILS, SWAP_ID, QUOTE_PARAMS } from './samples.js';

const server = useFaultServer();

describe('requests', () => {
  it('sends the API key header and each parameter the way the service reads it', async () => {
    const { client } = testClient(server.url);
    server.script(ok(QUOTE), ok([ARBITRUM]), ok([]), ok(SWAP_DETAILS), ok([]));
    await client.getQuote({
      ...QUOTE_PARAMS,
      amount: 0.0000001,
      refuel: true,
      use_deposit_address: false,
      slippage: '0.5',
      destination_address: '0xabc',
    });
    await client.getDestinations({
      source_network: 'SOLANA_MAINNET',
      source_token: 'USDC',
      include_unavailable: true,
      network_types: ['evm', 'solana'],
    });
    await client.getNetworks({ network_types: [] });
    await client.getSwap(SWAP_ID, { exclude_deposit_actions: true });
    await client.getDepositActions(SWAP_ID.toUpperCase(), { source_address: 'So1ana' });

    const [quote, destinations, networks, swap, actions] = server.requests;
    expect(quote?.headers['x-ls-apikey']).toBe(API_KEY);
    expect(quote?.path).toBe('/api/v2/quote');
    expect(Object.fromEntries(quote?.query ?? [])).toEqual({
      source_network: 'SOLANA_MAINNET',
      source_token: 'USDC',
      destination_network: 'ARBITRUM_MAINNET',
      destination_token: 'USDC',
      amount: '0.0000001',
      refuel: 'true',
      use_deposit_address: 'false',
      slippage: '0.5',
      destination_address: '0xabc',
    });
    expect(destinations?.query.get('network_types')).toBe('evm,solana');
    expect(destinations?.query.get('include_unavailable')).toBe('true');
    expect(destinations?.query.has('include_swaps')).toBe(false);
    expect(networks?.query.toString()).toBe('');
    expect(swap?.path).toBe(`/api/v2/swaps/${SWAP_ID}`);
    expect(swap?.query.get('exclude_deposit_actions')).toBe('true');
    expect(actions?.path).toBe(`/api/v2/swaps/${SWAP_ID}/deposit_actions`);
    expect(actions?.query.get('source_address')).toBe('So1ana');
    await client.close();
  });

  it('keeps a path prefix of the base URL', async () => {
    const { client } = testClient(`${server.url}/proxy/layerswap/`);
    server.script(ok([]));
    await client.getNetworks();
    expect(server.requests[0]?.path).toBe('/proxy/layerswap/api/v2/networks');
    await client.close();
  });

  it.each(['not-a-uuid', '../networks', `${SWAP_ID}/../../networks`, `${SWAP_ID}?x=1`, '', '3fa85f64 5717 4562 b3fc 2c963f66afa6'])(
    'refuses swap id %j without making a request',
    async (id) => {
      const { client } = testClient(server.url);
      const err = await rejectionOf(client.getSwap(id));
      expect(err).toBeInstanceOf(InvalidRequestError);
      expect((err as InvalidRequestError).field).toBe('swapId');
      expect((err as Error).message).toContain('is not a swap id');
      await expect(client.getDepositActions(id)).rejects.toBeInstanceOf(InvalidRequestError);
      expect(server.requests).toHaveLength(0);
      await client.close();
    },
  );

  it('lets a request in flight finish on close, then refuses new ones without sending', async () => {
    const { client } = testClient(server.url);
    server.script(delayed(100, ok([ARBITRUM])));
    const inFlight = client.getNetworks();
    const closing = client.close();
    expect(await inFlight).toHaveLength(1);
    await closing;
    expect(await rejectionOf(client.getNetworks({}, { maxRetries: 0 }))).toMatchObject({ name: 'ConnectionError', notSent: true });
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an amount that is not a finite number before sending', async () => {
    const { client } = testClient(server.url);
    await expect(client.getQuote({ ...QUOTE_PARAMS, amount: Number.NaN })).rejects.toThrow('amount must be a finite number');
    expect(server.requests).toHaveLength(0);
    await client.close();
  });
});

describe('answers', () => {
  it.each(API_ERROR_CODES)('turns an error envelope with code %s into an ApiError carrying it', async (code) => {
    const { client } = testClient(server.url);
    server.script(apiError(400, code, `message for ${code}`, { AmountLimit: 5 }, { 'x-request-id': 'req-42' }));
    const err = await rejectionOf(client.getQuote(QUOTE_PARAMS));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code, request: 'GET /api/v2/quote', requestId: 'req-42', metadata: { AmountLimit: 5 } });
    expect((err as ApiError).serviceMessage).toBe(`message for ${code}`);
    await client.close();
  });

  it('gives LESS_THAN_MIN_ERROR with its limit, and never the query string', async () => {
    const { client } = testClient(server.url);
    server.script(apiError(400, 'LESS_THAN_MIN_ERROR', 'Amount is less than min amount', { AmountLimit: 9.5 }));
    const err = (await rejectionOf(client.getQuote({ ...QUOTE_PARAMS, source_address: 'secretish-address' }))) as ApiError;
    expect(err.is('LESS_THAN_MIN_ERROR')).toBe(true);
    expect(err.metadata.AmountLimit).toBe(9.5);
    expect(err.message).toBe('GET /api/v2/quote failed with 400 LESS_THAN_MIN_ERROR: Amount is less than min amount');
    expect(JSON.stringify(err)).not.toContain('secretish-address');
    await client.close();
  });

  it('turns an HTML 502 page into NON_JSON_RESPONSE with the status kept', async () => {
    const { client } = testClient(server.url, { maxRetries: 0 });
    server.script(raw(502, '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'text/html; charset=utf-8'));
    const err = (await rejectionOf(client.getNetworks())) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(502);
    expect(err.code).toBe('NON_JSON_RESPONSE');
    expect(err.message).toContain('not JSON (text/html)');
    await client.close();
  });

  it('turns malformed JSON on a 200 into NON_JSON_RESPONSE, not a parse crash', async () => {
    const { client } = testClient(server.url);
    server.script(raw(200, '{"data": [{"name": "ARB', 'application/json'));
    const err = await rejectionOf(client.getNetworks());
    expect(err).toMatchObject({ name: 'ApiError', status: 200, code: 'NON_JSON_RESPONSE' });
    await client.close();
  });

  it('names the non-2xx answer without an envelope HTTP_ERROR', async () => {
    const { client } = testClient(server.url);
    server.script(json(404, { title: 'Not Found' }));
    const err = await rejectionOf(client.getSwap(SWAP_ID));
    expect(err).toMatchObject({ status: 404, code: 'HTTP_ERROR', request: `GET /api/v2/swaps/${SWAP_ID}` });
    await client.close();
  });

  it('reads /networks with data: null (the seed spec allows it) as no networks', async () => {
    const { client } = testClient(server.url);
    server.script(ok(null));
    expect(await client.getNetworks()).toEqual([]);
    await client.close();
  });

  it('names the first field that breaks the schema', async () => {
    const { client } = testClient(server.url);
    const broken = { ...QUOTE, quote: { ...QUOTE.quote, receive_amount: '9.55' } };
    server.script(ok(broken));
    const err = (await rejectionOf(client.getQuote(QUOTE_PARAMS))) as ResponseShapeError;
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.path).toBe('data.quote.receive_amount');
    expect(err.message).toContain('GET /api/v2/quote: unexpected response shape at data.quote.receive_amount');

    // A network without a name cannot be offered; a token that is cut down only drops itself.
    server.script(ok([ARBITRUM, { ...ARBITRUM, tokens: [{ symbol: 'X', decimals: -1 }], name: 7 }]));
    expect(await rejectionOf(client.getNetworks())).toMatchObject({ path: 'data[1].name' });

    server.script(json(200, ['not', 'an', 'envelope']));
    expect(await rejectionOf(client.getNetworks())).toMatchObject({ name: 'ResponseShapeError', path: '' });
    await client.close();
  });

  it('never lets the API key into an error or a log line', async () => {
    const { logger, lines } = memoryLogger();
    const { client } = testClient(server.url, { logger, timeoutMs: 150, maxRetries: 1 });
    const errors: unknown[] = [];
    server.script(apiError(401, 'INVALID_CREDENTIALS', `API key ${API_KEY} is not valid`, { key: API_KEY }));
    errors.push(await rejectionOf(client.getNetworks()));
    server.script(raw(502, `<html>${API_KEY}</html>`, 'text/html'), raw(502, 'x', 'text/html'));
    errors.push(await rejectionOf(client.getNetworks()));
    server.script(hang(), reset());
    errors.push(await rejectionOf(client.getNetworks()));
    server.script(ok([{ name: API_KEY, display_name: API_KEY }, { display_name: API_KEY }]));
    errors.push(await rejectionOf(client.getNetworks()));
    await client.close();

    expect(server.requests.filter((r) => !(r.headers['x-ls-apikey'] === API_KEY))).toEqual([]);
    expect(errors.map((e) => (e as Error).name)).toEqual(['ApiError', 'ApiError', 'ConnectionError', 'ResponseShapeError']);
    for (const err of errors) {
      expect(err).toBeInstanceOf(LayerswapError);
      const e = err as Error;
      expect(e.message).not.toContain(API_KEY);
      expect(e.stack ?? '').not.toContain(API_KEY);
      expect(JSON.stringify(e)).not.toContain(API_KEY);
    }
    expect((errors[0] as ApiError).serviceMessage).toBe('API key [redacted] is not valid');
    expect(lines.join('\n')).toContain('retrying');
    expect(lines.join('\n')).not.toContain(API_KEY);
  });

  it('reuses kept-alive connections instead of one per request', async () => {
    const { client } = testClient(server.url);
    for (let i = 0; i < 6; i++) {
      server.script(ok([]));
      await client.getNetworks();
    }
    const ports = new Set(server.requests.map((r) => r.remotePort));
    expect(server.requests).toHaveLength(6);
    expect(ports.size).toBeLessThan(6);
    await client.close();
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, TimeoutError } from '../../src/layerswap/errors.js';
import { apiError, closedPort, hang, json, ok, raw, reset } from './fault-server.js';
import { rejectionOf, testClient, useFaultServer } from './harness.js';
import { waitFor } from '../support/wait.js';
import { ARBITRUM, QUOTE, QUOTE_PARAMS } from './samples.js';

const server = useFaultServer();

describe('GET retries', () => {
  it('retries a 500 and returns the success that follows', async () => {
    const { client, waits } = testClient(server.url);
    server.script(apiError(500, 'INTERNAL', 'boom'), ok([ARBITRUM]));
    const networks = await client.getNetworks();
    expect(networks.map((n) => n.name)).toEqual(['ARBITRUM_MAINNET']);
    expect(server.count('GET', '/api/v2/networks')).toBe(2);
    expect(waits).toEqual([500]);
    await client.close();
  });

  it('backs off 0.5 s · 2^n, capped at 8 s, with up to 25% jitter off', async () => {
    const { client, waits } = testClient(server.url, { maxRetries: 6, random: () => 1 });
    const err = await rejectionOf(client.getNetworks());
    expect(err).toBeInstanceOf(ApiError);
    expect(server.count('GET')).toBe(7);
    expect(waits).toEqual([375, 750, 1500, 3000, 6000, 6000]);
    await client.close();

    const plain = testClient(server.url, { maxRetries: 6 });
    await rejectionOf(plain.client.getNetworks());
    expect(plain.waits).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    await plain.client.close();
  });

  it('waits as long as Retry-After says on a 429', async () => {
    const { client, waits } = testClient(server.url);
    server.script(json(429, { message: 'slow down' }, { 'retry-after': '1' }), ok(QUOTE));
    const quote = await client.getQuote(QUOTE_PARAMS);
    expect(quote.quote.receive_amount).toBe(9.55772);
    expect(waits).toEqual([1000]);
    expect(server.count('GET', '/api/v2/quote')).toBe(2);
    await client.close();
  });

  it('reads Retry-After as an HTTP date and retry-after-ms', async () => {
    const { client, waits } = testClient(server.url);
    const inThirty = new Date(Date.now() + 30_000).toUTCString();
    server.script(
      apiError(503, 'UNAVAILABLE', 'maintenance', {}, { 'retry-after': inThirty }),
      apiError(503, 'UNAVAILABLE', 'x', {}, { 'retry-after-ms': '250' }),
      ok([]),
    );
    await client.getNetworks();
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThan(25_000);
    expect(waits[0]).toBeLessThanOrEqual(30_000);
    expect(waits[1]).toBe(250);
    await client.close();
  });

  it('gives up at once when Retry-After is beyond the 60 s cap', async () => {
    const { client, waits } = testClient(server.url);
    server.script(json(429, {}, { 'retry-after': '120' }), ok([]));
    const err = await rejectionOf(client.getNetworks());
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 120_000 });
    expect(waits).toEqual([]);
    expect(server.count('GET')).toBe(1);
    await client.close();
  });

  it('ends a hung response with TimeoutError after every attempt timed out', async () => {
    const { client, waits } = testClient(server.url, { timeoutMs: 200, maxRetries: 2 });
    server.script(hang(), hang(), hang());
    const err = await rejectionOf(client.getNetworks());
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).timeoutMs).toBe(200);
    expect((err as TimeoutError).message).toBe('GET /api/v2/networks: no answer from the swap service within 200 ms');
    expect(server.count('GET')).toBe(3);
    expect(waits).toEqual([500, 1000]);
    await client.close();
  });

  it('honours a per-call timeout and retry count', async () => {
    const { client } = testClient(server.url, { timeoutMs: 60_000 });
    server.script(hang());
    const err = await rejectionOf(client.getNetworks({}, { timeoutMs: 150, maxRetries: 0 }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(server.count('GET')).toBe(1);
    await client.close();
  });

  it('retries a reset connection, then reports it as possibly sent', async () => {
    const { client } = testClient(server.url, { maxRetries: 1 });
    server.script(reset(), reset());
    const err = await rejectionOf(client.getNetworks());
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).notSent).toBe(false);
    expect(server.count('GET')).toBe(2);
    await client.close();

    const again = testClient(server.url, { maxRetries: 1 });
    server.script(reset(), ok([ARBITRUM]));
    expect(await again.client.getNetworks()).toHaveLength(1);
    await again.client.close();
  });

  it('reports a refused connection as certainly not sent', async () => {
    const { client, waits } = testClient(`http://127.0.0.1:${await closedPort()}`);
    const err = await rejectionOf(client.getNetworks());
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).notSent).toBe(true);
    expect((err as ConnectionError).message).toContain('ECONNREFUSED');
    expect(waits).toHaveLength(2);
    await client.close();
  });

  it('does not retry a 4xx error envelope or a response it cannot read', async () => {
    const { client, waits } = testClient(server.url);
    server.script(apiError(400, 'ROUTE_NOT_FOUND_ERROR', 'No route'));
    expect(await rejectionOf(client.getQuote(QUOTE_PARAMS))).toMatchObject({ code: 'ROUTE_NOT_FOUND_ERROR' });
    server.script(ok([{ name: 7 }]));
    expect(await rejectionOf(client.getNetworks())).toMatchObject({ name: 'ResponseShapeError' });
    expect(server.count('GET')).toBe(2);
    expect(waits).toEqual([]);
    await client.close();
  });

  it('retries an HTML 502 from a proxy, keeping the status when it persists', async () => {
    const { client } = testClient(server.url, { maxRetries: 1 });
    const page = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    server.script(raw(502, page, 'text/html'), raw(502, page, 'text/html'));
    const err = await rejectionOf(client.getNetworks());
    expect(err).toMatchObject({ status: 502, code: 'NON_JSON_RESPONSE' });
    expect(server.count('GET')).toBe(2);
    await client.close();
  });

  it('stops waiting when the caller aborts', async () => {
    const { client } = testClient(server.url, { timeoutMs: 10_000 });
    server.script(hang());
    const ac = new AbortController();
    const p = rejectionOf(client.getNetworks({}, { signal: ac.signal }));
    await waitFor(() => server.count('GET') === 1, 'the request to reach the server');
    ac.abort(new Error('user went away'));
    expect(await p).toMatchObject({ message: 'user went away' });
    expect(server.count('GET')).toBe(1);
    await client.close();
  });
});

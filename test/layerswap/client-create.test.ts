import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, UnconfirmedCreateError } from '../../src/layerswap/errors.js';
import { apiError, closedPort, hang, json, ok, raw, reset, startFaultServer, type FaultServer } from './fault-server.js';
import { memoryLogger } from '../support/log.js';
import { rejectionOf, testClient } from './harness.js';
import { fixtureEnvelope } from '../support/fixtures.js';
import { SWAP_DETAILS } from './samples.js';

const PARAMS = {
  source_network: 'SOLANA_MAINNET',
  source_token: 'USDC',
  destination_network: 'ARBITRUM_MAINNET',
  destination_token: 'USDC',
  destination_address: '0x1111111111111111111111111111111111111111',
  amount: 10,
  use_deposit_address: true,
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const servers: FaultServer[] = [];
async function serve(port?: number): Promise<FaultServer> {
  const s = await startFaultServer(port === undefined ? {} : { port });
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function bodyOf(s: FaultServer, i = 0): Record<string, unknown> {
  return JSON.parse(s.requests[i]?.body ?? 'null') as Record<string, unknown>;
}

describe('createSwap', () => {
  it('posts the JSON body with a fresh reference_id and a correlation id', async () => {
    const server = await serve();
    const { client } = testClient(server.url);
    server.script(ok(SWAP_DETAILS));
    const details = await client.createSwap(PARAMS);
    expect(details.swap.id).toBe(SWAP_DETAILS.swap.id);
    const req = server.requests[0];
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/api/v2/swaps');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['x-ls-correlation-id']).toMatch(UUID);
    expect(bodyOf(server)).toEqual({ ...PARAMS, reference_id: expect.stringMatching(UUID) });
    // A complete answer needs no follow-up read.
    expect(server.count('GET')).toBe(0);
    expect(details).not.toHaveProperty('partial');
    await client.close();
  });

  it('keeps a reference_id the caller gave', async () => {
    const server = await serve();
    const { client } = testClient(server.url);
    server.script(ok(SWAP_DETAILS));
    await client.createSwap({ ...PARAMS, reference_id: 'draft-abc' });
    expect(bodyOf(server).reference_id).toBe('draft-abc');
    await client.close();
  });

  it('retries a refused connection with the same reference_id, and the swap is created once', async () => {
    const port = await closedPort();
    const { logger, lines } = memoryLogger();
    let server: FaultServer | undefined;
    const waits: number[] = [];
    const { client } = testClient(`http://127.0.0.1:${port}`, {
      logger,
      // The service "comes back" between the refused attempt and the next one.
      sleep: async (ms) => {
        waits.push(ms);
        server ??= await serve(port);
        server.script(ok(SWAP_DETAILS));
      },
    });
    const details = await client.createSwap(PARAMS);
    expect(details.swap.status).toBe('user_transfer_pending');
    expect(waits).toEqual([500]);
    expect(server?.count('POST')).toBe(1);
    const sent = server ? bodyOf(server).reference_id : undefined;
    const attempts = lines
      .map((l) => JSON.parse(l) as { msg: string; referenceId?: string; attempt?: number })
      .filter((l) => l.msg === 'creating swap');
    expect(attempts.map((a) => a.attempt)).toEqual([0, 1]);
    expect(attempts.map((a) => a.referenceId)).toEqual([sent, sent]);
    await client.close();
  });

  it('reports a service that stays unreachable as a plain ConnectionError: nothing was created', async () => {
    const { client, waits } = testClient(`http://127.0.0.1:${await closedPort()}`);
    const err = await rejectionOf(client.createSwap(PARAMS));
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).notSent).toBe(true);
    expect(waits).toHaveLength(2);
    await client.close();
  });

  const ambiguous = [
    ['a 500', () => apiError(500, 'INTERNAL', 'boom')],
    ['a 503 with Retry-After', () => json(503, { data: null, error: null }, { 'retry-after': '1' })],
    ['a hung response', () => hang()],
    ['a reset after the body was received', () => reset()],
    ['an HTML 502 page', () => raw(502, '<html>Bad Gateway</html>', 'text/html')],
    ['a 200 whose data we cannot read', () => ok({ swap: { id: 'nope' } })],
  ] as const;

  it.each(ambiguous)('never sends twice after %s and says the creation is unconfirmed', async (_name, step) => {
    const server = await serve();
    const { client, waits } = testClient(server.url, { timeoutMs: 200, maxRetries: 3 });
    server.script(step(), ok(SWAP_DETAILS), ok(SWAP_DETAILS));
    const err = await rejectionOf(client.createSwap(PARAMS));
    expect(err).toBeInstanceOf(UnconfirmedCreateError);
    const { referenceId, message } = err as UnconfirmedCreateError;
    expect(referenceId).toBe(bodyOf(server).reference_id);
    expect(message).toBe(`POST /api/v2/swaps: could not confirm whether the swap was created (reference ${referenceId})`);
    expect(server.count('POST')).toBe(1);
    expect(waits).toEqual([]);
    await client.close();
  });

  it('passes a 4xx error envelope through as the ApiError it is, without retrying', async () => {
    const server = await serve();
    const { client } = testClient(server.url);
    server.script(apiError(400, 'INVALID_ADDRESS_ERROR', 'Invalid destination address', {}), ok(SWAP_DETAILS));
    const err = await rejectionOf(client.createSwap(PARAMS));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'INVALID_ADDRESS_ERROR', request: 'POST /api/v2/swaps' });
    expect(server.count('POST')).toBe(1);
    await client.close();
  });

  it('treats a readable 4xx without an envelope (ASP.NET validation, 429) as a refusal', async () => {
    const server = await serve();
    const { client } = testClient(server.url);
    server.script(json(400, { title: 'One or more validation errors occurred.', status: 400 }), json(429, {}, { 'retry-after': '5' }));
    expect(await rejectionOf(client.createSwap(PARAMS))).toMatchObject({ name: 'ApiError', status: 400, code: 'HTTP_ERROR' });
    expect(await rejectionOf(client.createSwap(PARAMS))).toMatchObject({ name: 'ApiError', status: 429, code: 'RATE_LIMITED' });
    expect(server.count('POST')).toBe(2);
    await client.close();
  });

  it('treats a 400 with an empty body (Layerswap on malformed parameters) as a refusal, not an unconfirmed create', async () => {
    const server = await serve();
    const { client } = testClient(server.url);
    server.script(raw(400, '', 'text/plain'));
    const err = await rejectionOf(client.createSwap(PARAMS));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).not.toBeInstanceOf(UnconfirmedCreateError);
    expect(err).toMatchObject({ status: 400, code: 'EMPTY_REFUSAL' });
    expect(server.count('POST')).toBe(1);
    await client.close();
  });

  it('refuses an amount that is not a finite number before sending', async () => {
    const server = await serve();
    const { client } = testClient(server.url);
    expect(await rejectionOf(client.createSwap({ ...PARAMS, amount: Number.POSITIVE_INFINITY }))).toMatchObject({
      name: 'InvalidRequestError',
      field: 'amount',
    });
    expect(server.requests).toHaveLength(0);
    await client.close();
  });

  describe('a 2xx answer cut down to the swap id (the live capture)', () => {
    const LIVE = 'live.post-swaps.base-paradex.trimmed.json';
    const LIVE_ID = '52507d08-1caf-43c6-923d-bde9ba5efd80';
    const full = { ...SWAP_DETAILS, swap: { ...SWAP_DETAILS.swap, id: LIVE_ID, status: 'user_transfer_pending' } };

    it('returns the swap id and fills the rest from GET /swaps/{id}', async () => {
      const server = await serve();
      const { client } = testClient(server.url);
      server.script(json(200, fixtureEnvelope(LIVE)), ok(full));
      const details = await client.createSwap({ ...PARAMS, source_address: '0x2222222222222222222222222222222222222222' });
      expect(details.swap.id).toBe(LIVE_ID);
      expect(details.partial).toBeUndefined();
      expect(details.swap.source_network?.name).toBe('SOLANA_MAINNET');
      expect(details.swap.created_date).toBe(SWAP_DETAILS.swap.created_date);
      expect(details.quote?.receive_amount).toBe(9.55772);
      expect(details.deposit_actions?.[0]?.to_address).toBe(SWAP_DETAILS.deposit_actions[0]?.to_address);
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v2/swaps', `GET /api/v2/swaps/${LIVE_ID}`]);
      expect(server.requests[1]?.query.get('source_address')).toBe('0x2222222222222222222222222222222222222222');
      await client.close();
    });

    it("keeps the create answer's deposit actions when the GET has none", async () => {
      const server = await serve();
      const { client } = testClient(server.url);
      server.script(json(200, fixtureEnvelope(LIVE)), ok({ ...full, deposit_actions: [] }));
      const details = await client.createSwap(PARAMS);
      expect(details.deposit_actions?.[0]?.call_data).toMatch(/^0xa9059cbb/);
      await client.close();
    });

    it('still returns the id, marked partial, when the follow-up GET fails after its retries', async () => {
      const server = await serve();
      const { logger, lines } = memoryLogger();
      const { client, waits } = testClient(server.url, { logger });
      server.script(
        json(200, fixtureEnvelope(LIVE)),
        apiError(503, 'UNAVAILABLE', 'down'),
        apiError(503, 'UNAVAILABLE', 'down'),
        apiError(503, 'UNAVAILABLE', 'down'),
      );
      const details = await client.createSwap(PARAMS);
      expect(details).toMatchObject({ partial: true, swap: { id: LIVE_ID, status: 'user_transfer_pending' } });
      expect(details.deposit_actions?.[0]?.to_address).toBe('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913');
      expect(server.count('POST')).toBe(1);
      expect(server.count('GET', `/api/v2/swaps/${LIVE_ID}`)).toBe(3);
      expect(waits).toEqual([500, 1000]);
      expect(lines.join('\n')).toContain('could not complete a cut-down create answer');
      await client.close();
    });

    it('reads an answer without a status as a created swap and asks for the rest', async () => {
      const server = await serve();
      const { client } = testClient(server.url, { maxRetries: 0 });
      server.script(ok({ swap: { id: LIVE_ID, status: 42 }, deposit_actions: 'n/a' }), apiError(404, 'NOT_FOUND', 'not yet'));
      const details = await client.createSwap(PARAMS);
      expect(details).toMatchObject({ partial: true, swap: { id: LIVE_ID, status: 'created' } });
      expect(details.deposit_actions).toBeUndefined();
      await client.close();
    });

    it('is still unconfirmed when the 2xx names no usable swap id', async () => {
      const server = await serve();
      const { client } = testClient(server.url);
      server.script(ok({ swap: { id: '550e8400-...', status: 'created' } }), ok(null));
      expect(await rejectionOf(client.createSwap(PARAMS))).toBeInstanceOf(UnconfirmedCreateError);
      expect(await rejectionOf(client.createSwap(PARAMS))).toBeInstanceOf(UnconfirmedCreateError);
      expect(server.count('GET')).toBe(0);
      await client.close();
    });
  });
});

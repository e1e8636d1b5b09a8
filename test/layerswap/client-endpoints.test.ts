import { describe, expect, it } from 'vitest';
import { loadDepositActions } from '../../src/layerswap/deposit-actions.js';
import { ApiError, InvalidRequestError, ResponseShapeError } from '../../src/layerswap/errors.js';
import { fixtureEnvelope } from '../support/fixtures.js';
import { apiError, json, ok } from './fault-server.js';
import { rejectionOf, testClient, useFaultServer } from './harness.js';
import { ARBITRUM, SWAP_DETAILS, SWAP_ID } from './samples.js';

/** The endpoints beyond quote/create/status, over a real socket: path, query, body, answer, errors. */

const ROUTE = {
  source_network: 'ETHEREUM_MAINNET',
  source_token: 'USDC',
  destination_network: 'ARBITRUM_MAINNET',
  destination_token: 'USDC',
};
const TX = '0x01885c930c698370b82f2614692eab5305e3d493238eb9750c88f80e172d0884';

const server = useFaultServer();

describe('getLimits', () => {
  it('asks for the route without an amount and reads min and max', async () => {
    const { client } = testClient(server.url);
    server.script(json(200, fixtureEnvelope('docs.limits.lifi.json')));
    const limits = await client.getLimits({ ...ROUTE, refuel: false, use_deposit_address: true });
    expect(limits).toEqual({ min_amount: 10, min_amount_in_usd: 10, max_amount: 500000, max_amount_in_usd: 500000 });
    expect(server.requests[0]?.path).toBe('/api/v2/limits');
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({ ...ROUTE, refuel: 'false', use_deposit_address: 'true' });
    await client.close();
  });

  it('fails an answer without a max amount, and passes service errors through typed', async () => {
    const { client } = testClient(server.url);
    server.script(ok({ min_amount: 10 }), apiError(400, 'ROUTE_NOT_FOUND_ERROR', 'No route'));
    expect(await rejectionOf(client.getLimits(ROUTE))).toMatchObject({
      name: 'ResponseShapeError',
      path: 'data.max_amount',
      request: 'GET /api/v2/limits',
    });
    expect(await rejectionOf(client.getLimits(ROUTE))).toMatchObject({ name: 'ApiError', code: 'ROUTE_NOT_FOUND_ERROR', status: 400 });
    await client.close();
  });
});

describe('getSources', () => {
  it('sends the destination filter and reads route networks', async () => {
    const { client } = testClient(server.url);
    server.script(json(200, fixtureEnvelope('app.destinations.fuse-item.json')));
    const sources = await client.getSources({
      destination_network: 'ARBITRUM_MAINNET',
      destination_token: 'USDC',
      has_deposit_address: true,
      network_types: ['evm', 'fuel'],
    });
    expect(sources[0]?.name).toBe('FUSE_MAINNET');
    expect(sources[0]?.tokens[0]).toMatchObject({ symbol: 'USDC', status: 'active' });
    const req = server.requests[0];
    expect(req?.path).toBe('/api/v2/sources');
    expect(Object.fromEntries(req?.query ?? [])).toEqual({
      destination_network: 'ARBITRUM_MAINNET',
      destination_token: 'USDC',
      has_deposit_address: 'true',
      network_types: 'evm,fuel',
    });
    await client.close();
  });

  it('retries a 503 like every GET', async () => {
    const { client, waits } = testClient(server.url);
    server.script(apiError(503, 'UNAVAILABLE', 'busy'), ok([ARBITRUM]));
    expect((await client.getSources()).map((n) => n.name)).toEqual(['ARBITRUM_MAINNET']);
    expect(waits).toEqual([500]);
    await client.close();
  });
});

describe('getSwapByTransactionHash', () => {
  it('looks the swap up by hash and reads it; errors name the route, not the hash', async () => {
    const { client } = testClient(server.url, { maxRetries: 0 });
    server.script(json(200, fixtureEnvelope('docs.get-swap.refunded.json')), apiError(404, 'NOT_FOUND', 'Swap not found'));
    const details = await client.getSwapByTransactionHash(TX);
    expect(details.swap).toMatchObject({ id: 'd0050d05-4e75-4e9c-8b89-c1c8cbee4a62', status: 'refunded' });
    expect(server.requests[0]?.path).toBe(`/api/v2/swaps/by_transaction_hash/${TX}`);
    const err = (await rejectionOf(client.getSwapByTransactionHash(TX))) as ApiError;
    expect(err).toMatchObject({ name: 'ApiError', code: 'NOT_FOUND', request: 'GET /api/v2/swaps/by_transaction_hash/{hash}' });
    expect(err.message).not.toContain(TX);
    await client.close();
  });

  it('encodes a base64 (TON) hash as one path segment', async () => {
    const { client } = testClient(server.url);
    server.script(ok(SWAP_DETAILS));
    await client.getSwapByTransactionHash('te6cckEBAQEA/+xyz=');
    expect(server.requests[0]?.path).toBe('/api/v2/swaps/by_transaction_hash/te6cckEBAQEA%2F%2Bxyz%3D');
    await client.close();
  });

  it.each(['', '   ', '........', 'abc def 0123', '0x12?x=1'])('refuses hash %j without a request', async (hash) => {
    const { client } = testClient(server.url);
    const err = await rejectionOf(client.getSwapByTransactionHash(hash));
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).message).toContain('is not a transaction hash');
    expect(server.requests).toHaveLength(0);
    await client.close();
  });
});

describe('listSwaps', () => {
  it('sends address, page and include_expired, and reads the SDK shape ({swap, quote}[])', async () => {
    const { client } = testClient(server.url);
    server.script(ok([SWAP_DETAILS, { swap: { id: 'elided-...', status: 'completed' } }]), ok(null));
    const list = await client.listSwaps({ address: ' 0x1111111111111111111111111111111111111111 ', page: 2, include_expired: true });
    expect(list.map((d) => d.swap.id)).toEqual([SWAP_ID]);
    expect(list[0]?.quote?.receive_amount).toBe(9.55772);
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({
      address: '0x1111111111111111111111111111111111111111',
      page: '2',
      include_expired: 'true',
    });
    expect(await client.listSwaps({ address: '0x1' })).toEqual([]);
    await client.close();
  });

  it('repeats address, statuses (PascalCase) and networks, one value each, as GET /swaps reads them', async () => {
    const { client } = testClient(server.url);
    server.script(ok([]));
    await client.listSwaps({ address: ['0xa', '0xb'], statuses: ['PendingDeposit', 'PendingWithdrawal'], networks: ['BASE_MAINNET'] });
    const q = server.requests[0]?.query;
    expect(q?.getAll('address')).toEqual(['0xa', '0xb']);
    expect(q?.getAll('statuses')).toEqual(['PendingDeposit', 'PendingWithdrawal']);
    expect(q?.getAll('networks')).toEqual(['BASE_MAINNET']);
    await client.close();
  });

  it('refuses a missing address or a bad page before sending', async () => {
    const { client } = testClient(server.url);
    expect(await rejectionOf(client.listSwaps({ address: [] }))).toMatchObject({ name: 'InvalidRequestError', field: 'address' });
    expect(await rejectionOf(client.listSwaps({ address: ' ' }))).toMatchObject({ name: 'InvalidRequestError', field: 'address' });
    expect(await rejectionOf(client.listSwaps({ address: '0x1', page: -1 }))).toMatchObject({ name: 'InvalidRequestError', field: 'page' });
    expect(server.requests).toHaveLength(0);
    await client.close();
  });
});

describe('speedUpDeposit', () => {
  it('posts the transaction id as JSON to the swap', async () => {
    const { client } = testClient(server.url);
    server.script(ok(null));
    await expect(client.speedUpDeposit(SWAP_ID, { transaction_id: TX })).resolves.toBeUndefined();
    const req = server.requests[0];
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe(`/api/v2/swaps/${SWAP_ID}/deposit_speedup`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req?.body ?? 'null')).toEqual({ transaction_id: TX });
    await client.close();
  });

  it('rejects with typed errors the caller may ignore', async () => {
    const { client } = testClient(server.url, { maxRetries: 0 });
    server.script(apiError(400, 'VALIDATION_ERROR', 'Transaction not found'));
    expect(await rejectionOf(client.speedUpDeposit(SWAP_ID, { transaction_id: TX }))).toMatchObject({
      name: 'ApiError',
      code: 'VALIDATION_ERROR',
    });
    expect(await rejectionOf(client.speedUpDeposit('nope', { transaction_id: TX }))).toMatchObject({
      name: 'InvalidRequestError',
      field: 'swapId',
    });
    expect(await rejectionOf(client.speedUpDeposit(SWAP_ID, { transaction_id: '' }))).toMatchObject({
      name: 'InvalidRequestError',
      field: 'transaction_id',
    });
    expect(server.requests).toHaveLength(1);
    await client.close();
  });
});

describe('getTransactionStatus', () => {
  it('sends network and transaction_id and reads the SDK shape', async () => {
    const { client } = testClient(server.url);
    server.script(
      ok({ network: 'ETHEREUM_MAINNET', transaction_id: TX, is_found: true, is_completed: false, confirmations: 3, max_confirmations: 12 }),
    );
    const status = await client.getTransactionStatus({ network: 'ETHEREUM_MAINNET', transaction_id: TX });
    expect(status).toMatchObject({ is_found: true, is_completed: false, confirmations: 3, max_confirmations: 12 });
    expect(server.requests[0]?.path).toBe('/api/v2/transaction_status');
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({ network: 'ETHEREUM_MAINNET', transaction_id: TX });
    await client.close();
  });

  it('reads a cut-down answer, and fails one that is not an object', async () => {
    const { client } = testClient(server.url);
    server.script(ok({ is_found: 'maybe' }), ok('found'));
    expect((await client.getTransactionStatus({ network: 'ETHEREUM_MAINNET', transaction_id: TX })).is_found).toBeUndefined();
    expect(await rejectionOf(client.getTransactionStatus({ network: 'ETHEREUM_MAINNET', transaction_id: TX }))).toBeInstanceOf(
      ResponseShapeError,
    );
    expect(await rejectionOf(client.getTransactionStatus({ network: '', transaction_id: TX }))).toMatchObject({ field: 'network' });
    await client.close();
  });
});

describe('loadDepositActions', () => {
  const ACTIONS = SWAP_DETAILS.deposit_actions;

  it('asks again while the list is empty or 404, then returns the actions', async () => {
    const { client } = testClient(server.url, { maxRetries: 0 });
    const pauses: number[] = [];
    server.script(apiError(404, 'NOT_FOUND', 'Swap not found'), ok([]), ok(ACTIONS));
    const actions = await loadDepositActions(client, SWAP_ID, { source_address: '0xabc' }, { sleep: async (ms) => void pauses.push(ms) });
    expect(actions[0]?.to_address).toBe(ACTIONS[0]?.to_address);
    expect(pauses).toEqual([1000, 1000]);
    expect(server.requests.map((r) => r.query.get('source_address'))).toEqual(['0xabc', '0xabc', '0xabc']);
    await client.close();
  });

  it('gives up with an empty list after its attempts (about 3 s)', async () => {
    const { client } = testClient(server.url, { maxRetries: 0 });
    const pauses: number[] = [];
    server.script(ok([]), ok([]), apiError(404, 'NOT_FOUND', 'x'), ok([]));
    expect(await loadDepositActions(client, SWAP_ID, {}, { sleep: async (ms) => void pauses.push(ms) })).toEqual([]);
    expect(pauses.reduce((a, b) => a + b, 0)).toBe(3000);
    expect(server.requests).toHaveLength(4);
    await client.close();
  });

  it('passes any other error through at once', async () => {
    const { client } = testClient(server.url, { maxRetries: 0 });
    server.script(apiError(401, 'INVALID_CREDENTIALS', 'bad key'), ok(ACTIONS));
    const err = await rejectionOf(loadDepositActions(client, SWAP_ID, {}, { sleep: async () => undefined }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(server.requests).toHaveLength(1);
    await client.close();
  });
});

describe('exchanges', () => {
  const COINBASE = { name: 'COINBASE', display_name: 'Coinbase', logo: 'https://x/coinbase.png', metadata: { o_auth: null } };
  const ON_ETHEREUM = {
    network: { name: 'ETHEREUM_MAINNET', display_name: 'Ethereum' },
    token: { symbol: 'USDC', decimals: 6 },
    fee: { total_fee: 0.41, total_fee_in_usd: 0.41 },
  };

  it('lists source exchanges with the app’s filter; an unreadable entry drops only itself', async () => {
    const { client } = testClient(server.url);
    server.script(ok([COINBASE, { display_name: 'no name' }]));
    const list = await client.getSourceExchanges({ source_network: 'BASE_MAINNET', source_token: 'USDC', include_swaps: false });
    expect(list.map((e) => e.name)).toEqual(['COINBASE']);
    expect(server.requests[0]?.path).toBe('/api/v2/source_exchanges');
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({
      source_network: 'BASE_MAINNET',
      source_token: 'USDC',
      include_swaps: 'false',
    });
    await client.close();
  });

  it('lists destination exchanges seen from the source, retrying a 503 like every GET', async () => {
    const { client, waits } = testClient(server.url);
    server.script(apiError(503, 'UNAVAILABLE', 'busy'), ok([COINBASE]));
    expect((await client.getDestinationExchanges({ source_network: 'ARBITRUM_MAINNET', source_token: 'USDC' })).map((e) => e.name)).toEqual(
      ['COINBASE'],
    );
    expect(waits).toEqual([500]);
    expect(server.requests[1]?.path).toBe('/api/v2/destination_exchanges');
    await client.close();
  });

  it('reads withdrawal and deposit networks as {network, token, fee}; entries without a network are dropped', async () => {
    const { client } = testClient(server.url);
    server.script(ok([ON_ETHEREUM, { token: { symbol: 'USDC' } }]), ok([{ ...ON_ETHEREUM, fee: null }]));
    const out = await client.getExchangeWithdrawalNetworks({
      source_exchange: 'COINBASE',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
    });
    expect(out).toEqual([
      expect.objectContaining({
        network: expect.objectContaining({ name: 'ETHEREUM_MAINNET' }),
        token: expect.objectContaining({ symbol: 'USDC' }),
        fee: { total_fee: 0.41, total_fee_in_usd: 0.41 },
      }),
    ]);
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({
      source_exchange: 'COINBASE',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
    });
    const into = await client.getExchangeDepositNetworks({
      destination_exchange: 'COINBASE',
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
    });
    expect(into[0]?.fee ?? undefined).toBeUndefined();
    expect(server.requests[1]?.path).toBe('/api/v2/exchange_deposit_networks');
    await client.close();
  });

  it('refuses a missing exchange before sending anything, naming the field', async () => {
    const { client } = testClient(server.url);
    const err = await rejectionOf(
      client.getExchangeWithdrawalNetworks({ source_exchange: ' ', destination_network: 'BASE_MAINNET', destination_token: 'USDC' }),
    );
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err).toMatchObject({ field: 'source_exchange' });
    expect(server.requests).toHaveLength(0);
    await client.close();
  });
});

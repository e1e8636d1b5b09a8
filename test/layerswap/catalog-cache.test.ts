import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogCache } from '../../src/layerswap/catalog-cache.js';
import { ApiError } from '../../src/layerswap/errors.js';
import type { LayerswapClient } from '../../src/layerswap/client.js';
import { apiError, ok, startFaultServer, type FaultServer } from './fault-server.js';
import { memoryLogger } from '../support/log.js';
import { rejectionOf, testClient } from './harness.js';
import { waitFor } from '../support/wait.js';
import { ARBITRUM, SOLANA, TON } from './samples.js';

let server: FaultServer;
let client: LayerswapClient;
let t: number;
const now = () => t;
beforeEach(async () => {
  server = await startFaultServer();
  // No retries: every failure the cache sees is one request the server counted.
  client = testClient(server.url, { maxRetries: 0 }).client;
  t = 1_000_000;
});
afterEach(async () => {
  await client.close();
  await server.close();
});

describe('CatalogCache', () => {
  it('answers 100 concurrent lookups with one request', async () => {
    const cache = new CatalogCache(client, { now });
    server.script(ok([ARBITRUM, SOLANA]));
    const results = await Promise.all(Array.from({ length: 100 }, () => cache.networks()));
    expect(results.filter((r) => !(r.length === 2))).toEqual([]);
    expect(server.count('GET', '/api/v2/networks')).toBe(1);
    expect((await cache.networkByName('SOLANA_MAINNET'))?.display_name).toBe('Solana');
    expect(await cache.networkByName('solana_mainnet')).toBeUndefined();
    expect(server.count('GET')).toBe(1);
  });

  it('peeks without waiting: nothing before the first load, the list after', async () => {
    const cache = new CatalogCache(client, { now });
    expect(cache.peekNetworks()).toBeUndefined();
    server.script(ok([TON]));
    await cache.networks();
    expect(cache.peekNetworks()?.map((n) => n.name)).toEqual(['TON_MAINNET']);
  });

  it('refetches after the TTL, serving the stale list while the refresh runs', async () => {
    const cache = new CatalogCache(client, { now, ttlMs: 60_000 });
    server.script(ok([ARBITRUM]));
    await cache.networks();
    t += 59_999;
    expect(await cache.networks()).toHaveLength(1);
    expect(server.count('GET')).toBe(1);

    t += 1;
    server.script(ok([ARBITRUM, SOLANA]));
    expect(await cache.networks()).toHaveLength(1); // stale, at once
    await waitFor(() => server.count('GET') === 2, 'the background refresh');
    await waitFor(() => cache.peekNetworks()?.length === 2, 'the refreshed list');
    expect(await cache.networks()).toHaveLength(2);
    expect(server.count('GET')).toBe(2);
  });

  it('keeps serving the stale list when the refresh fails, logs it, and tries again later', async () => {
    const { logger, lines } = memoryLogger();
    const cache = new CatalogCache(client, { now, ttlMs: 60_000, retryAfterFailureMs: 10_000, logger });
    server.script(ok([ARBITRUM]));
    await cache.networks();
    t += 60_000;
    server.script(apiError(503, 'UNAVAILABLE', 'down'));
    expect(await cache.networks()).toHaveLength(1);
    await waitFor(() => lines.some((l) => l.includes('could not refresh networks')), 'the failed refresh logged');
    expect(lines.find((l) => l.includes('could not refresh'))).toContain('"level":40');

    // Within the back-off, the stale list is served without asking again.
    t += 5_000;
    expect(await cache.networks()).toHaveLength(1);
    expect(server.count('GET')).toBe(2);

    t += 5_000;
    server.script(ok([ARBITRUM, SOLANA, TON]));
    await cache.networks();
    await waitFor(() => cache.peekNetworks()?.length === 3, 'the list refreshed after the back-off');
    expect(server.count('GET')).toBe(3);
  });

  it('lets a failing first load reach the caller, and the next call tries again', async () => {
    const cache = new CatalogCache(client, { now });
    server.script(apiError(500, 'INTERNAL', 'boom'));
    const errors = await Promise.all([rejectionOf(cache.networks()), rejectionOf(cache.networks())]);
    expect(errors.filter((e) => !(e instanceof ApiError))).toEqual([]);
    expect(server.count('GET')).toBe(1);
    server.script(ok([ARBITRUM]));
    expect(await cache.networks()).toHaveLength(1);
    expect(server.count('GET')).toBe(2);
  });

  it('caches destinations per source network and token', async () => {
    const cache = new CatalogCache(client, { now });
    server.script(ok([ARBITRUM]), ok([SOLANA]));
    const [a, b, c] = await Promise.all([
      cache.destinations({ source_network: 'SOLANA_MAINNET', source_token: 'USDC' }),
      cache.destinations({ source_network: 'SOLANA_MAINNET', source_token: 'USDC' }),
      cache.destinations({ source_network: 'ARBITRUM_MAINNET' }),
    ]);
    expect(a?.[0]?.name).toBe('ARBITRUM_MAINNET');
    expect(b).toBe(a);
    expect(c?.[0]?.name).toBe('SOLANA_MAINNET');
    expect(server.count('GET', '/api/v2/destinations')).toBe(2);
    expect(Object.fromEntries(server.requests[0]?.query ?? [])).toEqual({
      source_network: 'SOLANA_MAINNET',
      source_token: 'USDC',
      include_swaps: 'true',
    });
    expect(Object.fromEntries(server.requests[1]?.query ?? [])).toEqual({ source_network: 'ARBITRUM_MAINNET', include_swaps: 'true' });
  });

  it('keeps a bounded number of route lists', async () => {
    const cache = new CatalogCache(client, { now, maxDestinationEntries: 2 });
    server.script(ok([]), ok([]), ok([]), ok([]));
    await cache.destinations({ source_network: 'A' });
    await cache.destinations({ source_network: 'B' });
    await cache.destinations({ source_network: 'C' }); // evicts A
    await cache.destinations({ source_network: 'B' }); // cached
    await cache.destinations({ source_network: 'A' }); // fetched again
    expect(server.requests.map((r) => r.query.get('source_network'))).toEqual(['A', 'B', 'C', 'A']);
  });

  it('exchange networks: cached per exchange and route; "unknown" after a failure is not "none"', async () => {
    const cache = new CatalogCache(client, { now });
    const onEthereum = { network: { name: 'ETHEREUM_MAINNET' }, token: { symbol: 'USDC' } };
    server.script(ok([onEthereum]), apiError(503, 'UNAVAILABLE', 'busy'), ok([]));
    const to = { network: 'BASE_MAINNET', token: 'USDC' };
    expect((await cache.exchangeNetworks('source', 'COINBASE', to))?.map((x) => x.network.name)).toEqual(['ETHEREUM_MAINNET']);
    expect((await cache.exchangeNetworks('source', 'COINBASE', to))?.length).toBe(1);
    expect(server.count('GET', '/api/v2/exchange_withdrawal_networks')).toBe(1);
    expect(await cache.exchangeNetworks('destination', 'COINBASE', { network: 'ARBITRUM_MAINNET', token: 'USDC' })).toBeUndefined();
    expect(await cache.exchangeNetworks('destination', 'KRAKEN', { network: 'ARBITRUM_MAINNET', token: 'USDC' })).toEqual([]);
    expect(server.count('GET', '/api/v2/exchange_deposit_networks')).toBe(2);
  });

  it('exchanges: the unfiltered list can be peeked without a request once loaded; a failure means none', async () => {
    const cache = new CatalogCache(client, { now });
    server.script(apiError(503, 'UNAVAILABLE', 'busy'), ok([{ name: 'COINBASE', display_name: 'Coinbase' }]));
    expect(await cache.exchanges('source')).toEqual([]);
    expect(cache.peekExchanges('source')).toBeUndefined();
    t += 60_000;
    expect((await cache.exchanges('source')).map((e) => e.name)).toEqual(['COINBASE']);
    expect(cache.peekExchanges('source')?.map((e) => e.name)).toEqual(['COINBASE']);
    expect(cache.peekExchanges('destination')).toBeUndefined();
    expect(server.count('GET', '/api/v2/source_exchanges')).toBe(2);
  });
});

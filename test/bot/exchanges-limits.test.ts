import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCore } from '../../src/bot/create-core.js';
import { replyButtons } from '../../src/contracts/reply.js';
import { CatalogCache } from '../../src/layerswap/catalog-cache.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import type { CreatedSwap } from '../../src/layerswap/schemas.js';
import type { CreateSwapParams } from '../../src/layerswap/params.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { testRedis, uniquePrefix } from '../support/redis.js';
import { allText, card, ChatUser, type Harness } from './support/conversation.js';
import { MemoryTracking } from './support/memory-tracking.js';
import { WAIT_MS } from '../support/wait.js';

/**
 * Exchanges and amount limits as users meet them, against the sandbox over HTTP: /limits,
 * /source_exchanges, /destination_exchanges, /exchange_withdrawal_networks and
 * /exchange_deposit_networks are read the way the official app reads them. Sandbox exchanges:
 * Coinbase moves USDC on Ethereum, Base, Solana and Polygon; Kraken moves ETH on Ethereum and
 * Arbitrum only.
 */
let sandbox: SandboxServer;
let client: LayerswapClient;
let h: Harness;
const created: Array<{ params: CreateSwapParams; swap: CreatedSwap }> = [];

beforeAll(async () => {
  const clock = new ManualClock();
  sandbox = await startSandbox({ clock, timings: { depositDelayMs: 'off' } });
  client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, timeoutMs: WAIT_MS, maxRetries: 0 });
  // The real client throughout; creates are also noted so a test can look the swap up afterwards.
  const api = Object.assign(Object.create(client) as LayerswapClient, {
    createSwap: async (p: CreateSwapParams) => {
      const swap = await client.createSwap(p);
      created.push({ params: p, swap });
      return swap;
    },
  });
  const prefix = uniquePrefix('exlim');
  const redis = testRedis(prefix);
  // A zero TTL for limits: every step asks again, so a test can make one read fail.
  const catalog = new CatalogCache(api, { ttlMs: 60_000, limitsTtlMs: 0, now: () => clock.now() });
  const tracking = new MemoryTracking();
  const core = createCore({
    api,
    catalog,
    redis,
    keyPrefix: prefix,
    tracking,
    limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 },
    now: () => clock.now(),
  });
  h = { sandbox, clock, core, redis, prefix, tracking, api: client, close: async () => undefined };
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe('amount limits', () => {
  test('the amount step shows min and max before a number is typed; outside them names the limit', async () => {
    const u = new ChatUser(h, { userId: 'l1' });
    card(await u.says('/quote USDC arbitrum base'), { contains: ['How much USDC', 'You can send between 5.01 USDC and 500,117 USDC.'] });
    card(await u.says('4'), {
      title: 'New quote',
      contains: ['4 USDC is below the minimum of 5.001171 USDC for this route.', 'How much USDC'],
    });
    card(await u.says('600000'), { contains: ['600000 USDC is above the maximum of 500117.027384 USDC for this route.'] });
    card(await u.says('25'), { title: 'Quote: USDC Arbitrum One → USDC Base', contains: ['You send: 25 USDC on Arbitrum One'] });
  });

  test('a one-line amount below the minimum is asked again, naming the minimum, before any quote', async () => {
    const u = new ChatUser(h, { userId: 'l2' });
    const r = card(await u.says('/quote 4 USDC arbitrum base'), {
      title: 'New quote',
      contains: ['below the minimum of 5.001171 USDC', 'You can send between 5.01 USDC and 500,117 USDC.'],
    });
    expect(allText([r])).not.toContain('Quote:');
  });

  test('when limits cannot be loaded the amount step still works, showing less', async () => {
    const u = new ChatUser(h, { userId: 'l3' });
    const before = sandbox.requestCount('getLimits');
    sandbox.injectFault({ status: 503, count: 1, pathPrefix: '/api/v2/limits' });
    const ask = card(await u.says('/quote USDC arbitrum base'), { contains: ['How much USDC'] });
    expect(allText([ask])).not.toContain('You can send');
    card(await u.says('25'), { title: 'Quote: USDC Arbitrum One → USDC Base' });
    expect(sandbox.requestCount('getLimits')).toBeGreaterThan(before);
  });

  test('/routes with a token shows each route’s limits', async () => {
    const u = new ChatUser(h, { userId: 'l4' });
    card(await u.says('/routes arbitrum USDC'), { contains: [/Base: .*USDC.* · 5\.01–500,117 USDC/] });
  });
});

describe('exchanges', () => {
  test('"/quote 100 USDC coinbase base": offers only the networks Coinbase withdraws on to reach Base, then quotes one', async () => {
    const u = new ChatUser(h, { userId: 'e1' });
    const before = sandbox.requestCount('getExchangeWithdrawalNetworks');
    const ask = card(await u.says('/quote 100 USDC coinbase base'), {
      title: 'New quote',
      contains: ['So far: 100 USDC from Coinbase → Base', 'Which network do you withdraw USDC from Coinbase on?'],
    });
    // Arbitrum has USDC and a route to Base, but Coinbase does not withdraw USDC there.
    expect(replyButtons(ask).map((b) => b.label)).toEqual(['Ethereum', 'Solana', 'Polygon', 'Cancel']);
    expect(sandbox.requestCount('getExchangeWithdrawalNetworks')).toBeGreaterThan(before);
    card(await u.presses('Ethereum'), { title: 'Quote: USDC Coinbase via Ethereum → USDC Base', contains: ['You send: 100 USDC'] });
  });

  test('a network the exchange does not withdraw on is refused, naming both', async () => {
    const u = new ChatUser(h, { userId: 'e2' });
    card(await u.says('/quote 1 ETH from kraken to base'), { buttons: ['Ethereum', 'Arbitrum One'] });
    card(await u.says('optimism'), {
      contains: [
        /Kraken does not withdraw ETH on OP Mainnet|Kraken does not withdraw ETH on Optimism/,
        'Which network do you withdraw ETH from Kraken on?',
      ],
    });
  });

  test('a misspelt exchange gets did-you-mean; the wizard offers exchanges after the networks', async () => {
    const u = new ChatUser(h, { userId: 'e3' });
    card(await u.says('/quote 100 USDC coinbsae base'), {
      contains: ['There is no network called "coinbsae".', 'Did you mean Coinbase?'],
      buttons: ['Coinbase (exchange)'],
    });
    const u2 = new ChatUser(h, { userId: 'e3b' });
    await u2.says('/quote');
    let page = u2.last;
    while (!page.flatMap(replyButtons).some((b) => b.label === 'Coinbase (exchange)')) page = await u2.presses('Next ›');
    card(await u2.presses('Coinbase (exchange)'), {
      contains: ['So far: From Coinbase', 'Which network do you withdraw the tokens from Coinbase on?'],
    });
  });

  test('/swap from Coinbase: the service records the swap from Coinbase, withdrawn on the chosen network', async () => {
    const u = new ChatUser(h, { userId: 'e4' });
    await u.says('/swap 100 USDC from Coinbase to Base');
    await u.says('ethereum');
    card(u.last, { contains: ['So far: 100 USDC from Coinbase via Ethereum → USDC on Base', 'address on Base'] });
    await u.says('0x8ba1f109551bD432803012645Ac136ddd64DBA72');
    await u.presses(/Skip/);
    if (allText(u.last).includes('Refuel')) await u.presses('No refuel');
    card(u.last, { title: 'Confirm your swap', buttons: ['Confirm'] });
    await u.presses('Confirm');
    const last = created.at(-1);
    expect(last?.params).toMatchObject({
      source_exchange: 'COINBASE',
      source_network: 'ETHEREUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      amount: 100,
    });
    expect(last?.params.destination_exchange).toBeUndefined();
    const stored = await client.getSwap(last?.swap.swap.id ?? '');
    expect(stored.swap).toMatchObject({
      source_exchange: { name: 'COINBASE' },
      use_deposit_address: true,
      source_network: { name: 'ETHEREUM_MAINNET' },
    });
  });

  test('to an exchange: offers only the networks it takes the deposit on, then the user’s deposit address for that network', async () => {
    const u = new ChatUser(h, { userId: 'e5' });
    const ask = card(await u.says('/swap 100 USDC arbitrum to coinbase'), {
      contains: ['On which network should Coinbase receive the USDC?'],
    });
    expect(replyButtons(ask).map((b) => b.label)).toEqual(['Ethereum', 'Base', 'Solana', 'Polygon', 'Cancel']);
    card(await u.presses('Base'), { contains: ['Send your Coinbase deposit address for USDC on Base'] });
    card(await u.says('not-an-address'), { contains: ['Base'] });
    await u.says('0x8ba1f109551bD432803012645Ac136ddd64DBA72');
    await u.presses(/Skip/);
    if (allText(u.last).includes('Refuel')) await u.presses('No refuel');
    await u.presses('Confirm');
    const last = created.at(-1);
    expect(last?.params).toMatchObject({
      destination_exchange: 'COINBASE',
      destination_network: 'BASE_MAINNET',
      destination_address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    });
    expect((await client.getSwap(last?.swap.swap.id ?? '')).swap).toMatchObject({ destination_exchange: { name: 'COINBASE' } });
  });

  test('to an exchange on a network it does not take the token on is refused, naming both', async () => {
    const u = new ChatUser(h, { userId: 'e6' });
    await u.says('/swap 100 USDC arbitrum to coinbase');
    card(await u.says('optimism'), {
      contains: [/Coinbase does not take USDC deposits on (OP Mainnet|Optimism)\./, 'On which network should Coinbase receive the USDC?'],
    });
  });

  test('autocomplete offers exchanges where a swap starts or ends, not where only networks fit', async () => {
    const coinbase = { label: 'Coinbase (exchange)', value: 'COINBASE' };
    await expect.poll(() => h.core.suggest('source_network', 'coin'), { timeout: WAIT_MS }).toContainEqual(coinbase);
    await expect.poll(() => h.core.suggest('destination_network', 'coinb'), { timeout: WAIT_MS }).toContainEqual(coinbase);
    expect(await h.core.suggest('network', 'coin')).not.toContainEqual(coinbase);
    // Networks keep their place ahead of exchanges of the same rank.
    expect((await h.core.suggest('source_network', 'base'))[0]?.value).toBe('BASE_MAINNET');
  });
});

describe('an address at the end of /swap', () => {
  test('is the destination address, not a token', async () => {
    const u = new ChatUser(h, { userId: 'a1' });
    const r = await u.says('/swap 100 USDC arbitrum base 0x8ba1f109551bD432803012645Ac136ddd64DBA72');
    expect(allText(r)).not.toContain('has no token');
    card(r, { title: 'New swap', contains: ['Recommended: an address on Arbitrum One for refunds'] });
  });

  test('a wrong one is reported for the destination network and asked for', async () => {
    const u = new ChatUser(h, { userId: 'a2' });
    card(await u.says('/swap 100 USDC arbitrum solana EQD4FPq-PRDieyQKkizFTRtSDyucUIqrj0v_zXJmqaDp6_0t'), {
      contains: ['Solana', 'address on Solana'],
    });
  });
});

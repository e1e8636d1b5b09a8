import { describe, expect, test } from 'vitest';
import { createCore } from '../../src/bot/create-core.js';
import { CatalogCache } from '../../src/layerswap/catalog-cache.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { apiKeyRefused } from '../../src/metrics.js';
import { memoryLogger } from '../support/log.js';
import { testRedis, uniquePrefix } from '../support/redis.js';
import { allText, card, ChatUser, useHarness, type Harness } from './support/conversation.js';
import { MemoryTracking } from './support/memory-tracking.js';

/**
 * Layerswap's answers as its 2026 docs describe them (wallet-deposits.md §6), through the real
 * client, the sandbox over HTTP and the core: an empty-body 400 is a refusal, a refused key is the
 * operator's problem, and a bot without a key still quotes.
 */

const h = useHarness();
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const SWAP_ID = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';

/** A core over the same sandbox with another client (a wrong key, or none). */
function coreWith(harness: Harness, apiKey: string | undefined) {
  const { logger, lines } = memoryLogger();
  const api = new LayerswapClient({ baseUrl: harness.sandbox.url, apiKey, maxRetries: 0, logger });
  const prefix = uniquePrefix('real');
  const core = createCore({
    api,
    catalog: new CatalogCache(api, { ttlMs: 60_000 }),
    redis: testRedis(prefix),
    keyPrefix: prefix,
    tracking: new MemoryTracking(),
    limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 },
    logger,
  });
  return { core, lines, close: () => api.close() };
}

describe('an empty-body 400', () => {
  test('at Confirm is a refusal: never "may exist", the draft is unlocked and Confirm then creates the swap', async () => {
    const u = new ChatUser(h, { userId: 'e1' });
    const confirm = await u.toConfirmation('/swap 20 usdc base optimism', EVM);
    const before = h.sandbox.requestCount('createSwap');
    h.sandbox.injectFault({ status: 400, count: 1, pathPrefix: '/api/v2/swaps' });
    const refused = await u.presses('Confirm', confirm);
    card(refused, { title: 'The swap service refused the request', contains: ['without saying why'] });
    expect(allText(refused)).not.toMatch(/may (exist|have been created)|pay (only )?once|\/history/i);
    // Unlocked: the same confirmation creates the swap now.
    const created = await u.presses('Confirm', confirm);
    expect(h.sandbox.requestCount('createSwap')).toBe(before + 2);
    card(created, { title: 'Deposit for swap' });
  });

  test('on a read says the request was refused, not that the service is not answering', async () => {
    const u = new ChatUser(h, { userId: 'e2' });
    h.sandbox.injectFault({ status: 400, count: 1, pathPrefix: '/api/v2/swaps/' });
    const text = allText(await u.says(`/status ${SWAP_ID}`));
    expect(text).toContain('The swap service refused the request');
    expect(text).not.toContain('not answering');
  });

  test('an EIP-7702 delegated destination refused at creation gets words for it, and nothing was created', async () => {
    const u = new ChatUser(h, { userId: 'e4' });
    await u.toConfirmation('/swap 0.1 ETH arbitrum base', '0x7702000000000000000000000000000000007702');
    card(await u.presses('Confirm'), { title: 'This address cannot receive ETH', contains: ['EIP-7702', 'Nothing was created'] });
  });

  test('UNEXPECTED_ERROR has its own words', async () => {
    const u = new ChatUser(h, { userId: 'e3' });
    h.sandbox.injectFault({ status: 400, count: 1, pathPrefix: '/api/v2/quote', code: 'UNEXPECTED_ERROR' });
    card(await u.says('/quote 100 USDC arbitrum base'), { title: 'The swap service hit a problem', contains: ['Nothing was created'] });
  });
});

describe('the API key', () => {
  test('a wrong key (403 API_KEY_FORBIDDEN): users hear the bot is misconfigured, the operator gets one error line and a count per refusal', async () => {
    const wrong = coreWith(h, 'not-the-operators-key');
    try {
      const counted = (await apiKeyRefused.get()).values[0]?.value ?? 0;
      const u = new ChatUser({ core: wrong.core }, { userId: 'k1' });
      for (const cmd of ['/quote 100 USDC arbitrum base', '/networks', `/status ${SWAP_ID}`]) {
        const text = allText(await u.says(cmd));
        expect(text).toContain('The bot is not set up correctly');
        expect(text).toContain('Its operator has been told');
        expect(text).not.toMatch(/check what you sent/i);
      }
      const errors = wrong.lines.filter((l) => l.includes('"level":50') || l.includes('"level":"error"'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('refuses LAYERSWAP_API_KEY');
      expect(errors.join('')).not.toContain('not-the-operators-key');
      expect((await apiKeyRefused.get()).values[0]?.value ?? 0).toBeGreaterThanOrEqual(counted + 3);
    } finally {
      await wrong.close();
    }
  });

  test('no key: real quotes, and /swap says a key is needed before asking anything', async () => {
    const keyless = coreWith(h, undefined);
    try {
      const u = new ChatUser({ core: keyless.core }, { userId: 'k2' });
      card(await u.says('/quote 100 USDC arbitrum base'), { contains: ['You receive'] });
      const before = h.sandbox.requestCount('createSwap');
      card(await u.says('/swap 100 USDC arbitrum base'), {
        title: 'This bot can quote, not swap',
        contains: ['needs a Layerswap API key'],
      });
      expect(h.sandbox.requestCount('createSwap')).toBe(before);
    } finally {
      await keyless.close();
    }
  });
});

describe('the confirmation is quoted with the destination address', () => {
  test('when the address changes the figures (a contract account costs more gas to pay), the card says so', async () => {
    const u = new ChatUser(h, { userId: 'q1' });
    const plain = allText(await u.toConfirmation('/swap 100 USDC arbitrum base', EVM));
    const was = /You receive:?\s*([\d.]+) USDC/.exec(plain)?.[1];
    expect(was, plain).toBeDefined();
    expect(plain).not.toContain('Quoted again');
    const u2 = new ChatUser(h, { userId: 'q2' });
    const confirm = card(await u2.toConfirmation('/swap 100 USDC arbitrum base', '0xc0de00000000000000000000000000000000c0de'), {
      title: 'Confirm your swap',
      contains: [`(it was ${was} USDC)`, 'Quoted again with your address: you now receive'],
    });
    const now = /you now receive ([\d.]+) USDC/.exec(allText([confirm]))?.[1];
    expect(Number(now)).toBeLessThan(Number(was));
  });
});

describe('the refund address', () => {
  test('is recommended, with the address just given offered when it is of the source family; skipping stays an explicit choice', async () => {
    const u = new ChatUser(h, { userId: 'r1' });
    await u.says('/swap 20 usdc base optimism');
    const ask = card(await u.says(EVM), {
      contains: ['Recommended: an address on Base for refunds', 'minus gas fees', 'no automatic refund'],
      buttons: ['Use 0xd8dA…6045 (recommended)', 'Skip (no refund address)'],
    });
    expect(ask.prompt).toBeDefined();
    const next = await u.presses('Use 0xd8dA…6045 (recommended)');
    const confirm = next.some((r) => r.title?.includes('Confirm')) ? next : await u.presses('No refuel');
    card(confirm, { title: 'Confirm your swap', contains: [`Refund address: ${EVM}`] });
  });

  test('through a swap provider (one asset to another) it is required: no Skip, and "skip" is answered with why', async () => {
    const u = new ChatUser(h, { userId: 'r2' });
    await u.says('/swap 1 SOL solana arbitrum ETH');
    const ask = await u.says(EVM);
    card(ask, { contains: ['goes through a swap provider', 'cannot be skipped'] });
    expect(allText(ask)).not.toContain('Skip (no refund address)');
    card(await u.says('skip'), { contains: ['cannot be skipped', 'Recommended: an address on Solana'] });
  });
});

describe('the first hour', () => {
  test('a token typed in lower case on an exchange route reads as a symbol ("100 USDC from Coinbase")', async () => {
    const u = new ChatUser(h, { userId: 'f1' });
    const text = allText(await u.says('/quote 100 usdc from coinbase to base'));
    expect(text).toContain('So far: 100 USDC from Coinbase → Base');
    expect(text).toContain('Which network do you withdraw USDC from Coinbase on?');
    expect(text).not.toMatch(/usdc/);
  });

  test('/cancel of a step-by-step quote says a quote was dropped, not a swap', async () => {
    const u = new ChatUser(h, { userId: 'f3' });
    await u.says('/quote 100 USDC arbitrum');
    card(await u.says('/cancel'), { title: 'Cancelled', contains: ['Your unfinished quote was dropped.'] });
  });
});

import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { listen, type Listening } from '../../src/http.js';
import type { LayerswapApi } from '../../src/layerswap/api.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { AddressWatch, WATCH_BATCH, type WatchSettings } from '../../src/tracking/address-watch.js';
import { memoryLogger } from '../support/log.js';
import { testRedis } from '../support/redis.js';
import { startHarness, type Harness } from './support/harness.js';

/**
 * Watched addresses across workers (issue 33): the share of the API budget is kept by all workers
 * together (two workers on one Redis prefix check no more than one would), an answer longer than
 * any window of remembered ids never turns old swaps into new ones, and a malformed list answer is
 * one warning, not a stack trace per address per tick.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const settings: WatchSettings = { minMs: 1_000, maxMs: 8_000, share: 0.1, apiPerSecond: 50, tickMs: 1_000 };
const worker = (over: Partial<WatchSettings> = {}) => new AddressWatch(testRedis(), h.keys, () => h.clock.now(), { ...settings, ...over });
const lists = () => h.sandbox.requestCount('listSwaps');
const addr = (i: number) => `0x${i.toString(16).padStart(4, '0')}${'5'.repeat(36)}`;
const route = {
  source_network: 'OPTIMISM_MAINNET',
  source_token: 'USDC',
  destination_network: 'BASE_MAINNET',
  destination_token: 'USDC',
  amount: 40,
};
const swapTo = (destination_address: string) => h.sandbox.injectSwap({ ...route, destination_address });

describe('watched addresses across workers', () => {
  it('two workers on one Redis prefix make no more requests than the share of the budget between them', async () => {
    const a = worker();
    const b = worker();
    // 50 requests/s over a 1 s tick at 10%: 5 requests per window, whatever the number of workers.
    expect(a.perTick).toBe(5);
    const n = 5 * WATCH_BATCH + 20;
    const me = (i: number): ChatTarget => ({ platform: 'console', chatId: `budget-${i}`, chatKind: 'private' });
    for (let i = 0; i < n; i++) await a.set(addr(i), me(i), { userId: `budget-${i}` }, true);
    const before = lists();
    const log = memoryLogger();
    const checked = await Promise.all([a.tick(h.api, h.tracking.service, log.logger), b.tick(h.api, h.tracking.service, log.logger)]);
    // Five requests of up to ten addresses each (two racing workers may split a batch); the rest still due.
    expect(lists() - before).toBe(5);
    const first = checked[0] + checked[1];
    expect(first).toBeGreaterThan(5 * (WATCH_BATCH - 3));
    expect(first).toBeLessThanOrEqual(5 * WATCH_BATCH);
    // The next window has its own share: the rest are checked in it.
    h.clock.advance(1_000);
    const next = await Promise.all([a.tick(h.api, h.tracking.service, log.logger), b.tick(h.api, h.tracking.service, log.logger)]);
    expect(next[0] + next[1]).toBe(n - first);
    expect(lists() - before).toBeLessThanOrEqual(10);
    for (let i = 0; i < n; i++) await a.set(addr(i), me(i), { userId: '' }, false);
  });

  it('thirty watched addresses take three requests a round instead of thirty, and a new swap of any of them is followed', async () => {
    const w = worker({ share: 1, apiPerSecond: 1000 });
    const me = (i: number): ChatTarget => ({ platform: 'console', chatId: `batch-${i}`, chatKind: 'private' });
    const watched = Array.from({ length: 30 }, (_, i) => addr(200 + i));
    // One address already has swaps of its own; a second user watches the same address as the first.
    swapTo(watched[7]!);
    for (const [i, a] of watched.entries()) await w.set(a, me(i), { userId: `batch-${i}` }, true);
    await w.set(watched[0]!, me(99), { userId: 'batch-99' }, true);
    const log = memoryLogger();
    let before = lists();
    expect(await w.tick(h.api, h.tracking.service, log.logger)).toBe(31);
    expect(lists() - before).toBe(3);
    // A swap to the 17th address and one to the first (watched twice) after the watch began.
    const to17 = swapTo(watched[16]!);
    const to1 = swapTo(watched[0]!);
    // Nothing new at the first check: the next is due after twice the shortest interval.
    h.clock.advance(2_000);
    before = lists();
    expect(await w.tick(h.api, h.tracking.service, log.logger)).toBe(31);
    expect(lists() - before).toBe(3);
    const followed = async (i: number) => (await h.tracking.service.listFollowed(me(i))).map((f) => f.swapId);
    expect(await followed(16)).toEqual([to17]);
    expect(await followed(0)).toEqual([to1]);
    expect(await followed(99)).toEqual([to1]);
    // Nobody else's swap leaks into another watcher's chat (the batch's answer is split by address).
    expect(await followed(7)).toEqual([]);
    expect(await followed(15)).toEqual([]);
    for (const [i, a] of watched.entries()) await w.set(a, me(i), { userId: '' }, false);
    await w.set(watched[0]!, me(99), { userId: '' }, false);
  });

  it('a full first page is followed by one request for the open swaps, so new swaps beyond it are still followed', async () => {
    const w = worker({ share: 1, apiPerSecond: 1000 });
    const address = addr(400);
    const me: ChatTarget = { platform: 'console', chatId: 'overflow', chatKind: 'private' };
    await w.set(address, me, { userId: 'overflow' }, true);
    const log = memoryLogger();
    await w.tick(h.api, h.tracking.service, log.logger);
    // Between two checks: two swaps still waiting for their deposit, then twenty that finish (newer,
    // so they fill the service's page of 20 and push the two open ones off it).
    const open = [swapTo(address), swapTo(address)];
    for (let i = 0; i < 20; i++) {
      const hash = `0x${(i + 1).toString(16).padStart(64, 'a')}`;
      h.sandbox.injectSwap({ ...route, destination_address: address, deposit_tx_hash: hash });
    }
    h.clock.advance(600_000);
    const before = lists();
    await w.tick(h.api, h.tracking.service, log.logger);
    // The full page, then one request for the open swaps: the two are found without paging.
    expect(lists() - before).toBe(2);
    const followed = (await h.tracking.service.listFollowed(me)).map((f) => f.swapId);
    expect(followed).toEqual(expect.arrayContaining(open));
    await w.set(address, me, { userId: '' }, false);
  });

  it('an answer longer than 50 swaps never makes old swaps new', async () => {
    const address = '0x7777777777777777777777777777777777777777';
    for (let i = 0; i < 60; i++) swapTo(address);
    // A service whose first page holds 80 swaps: the sandbox's pages of 20, joined.
    const longPages: Pick<LayerswapApi, 'listSwaps'> = {
      listSwaps: async (p, o) => (await Promise.all([1, 2, 3, 4].map((page) => h.client.listSwaps({ ...p, page }, o)))).flat(),
    };
    expect((await longPages.listSwaps({ address, page: 1 })).length).toBe(60);
    const w = worker({ share: 1, apiPerSecond: 1000 });
    const me: ChatTarget = { platform: 'console', chatId: 'long-list', chatKind: 'private' };
    await w.set(address, me, { userId: 'long-list' }, true);
    const log = memoryLogger();
    await w.tick(longPages, h.tracking.service, log.logger);
    h.clock.advance(2_000);
    await w.tick(longPages, h.tracking.service, log.logger);
    expect(await h.tracking.service.listFollowed(me)).toEqual([]);
    // A swap made after the watch began is new, and only it.
    const fresh = swapTo(address);
    h.clock.advance(4_000);
    await w.tick(longPages, h.tracking.service, log.logger);
    expect((await h.tracking.service.listFollowed(me)).map((f) => f.swapId)).toEqual([fresh]);
    await w.set(address, me, { userId: 'long-list' }, false);
  });

  it('a malformed list answer is one warning without a stack, not one per address per tick', async () => {
    // A service whose swap list is not what the API documents (an object where a list belongs).
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { swaps: 'none' }, error: null }));
    });
    const bad: Listening = await listen(server, { port: 0, host: '127.0.0.1' });
    try {
      const api = new LayerswapClient({ baseUrl: bad.url, apiKey: 'k', maxRetries: 0, timeoutMs: 5_000 });
      const w = worker({ share: 1, apiPerSecond: 1000 });
      for (let i = 0; i < 10; i++)
        await w.set(addr(100 + i), { platform: 'console', chatId: `bad-${i}`, chatKind: 'private' }, { userId: `bad-${i}` }, true);
      const log = memoryLogger();
      expect(await w.tick(api, h.tracking.service, log.logger)).toBe(10);
      h.clock.advance(10_000);
      expect(await w.tick(api, h.tracking.service, log.logger)).toBe(10);
      const warnings = log.lines.filter((l) => l.includes('"level":40'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("the service's swap list is malformed");
      // The error under `err` as every logged error is, without a stack trace.
      expect(JSON.parse(warnings[0] ?? '{}')).toMatchObject({ err: { type: 'ResponseShapeError', stack: '' } });
    } finally {
      await bad.close({ force: true });
    }
  });
});

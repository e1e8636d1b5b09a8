import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingRenderer } from '../../src/bot/renderer.js';
import type { BotCore } from '../../src/bot/core.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { routeTimesId } from '../../src/contracts/route-times.js';
import { readRouteTimes } from '../../src/tracking/route-times.js';
import { RouteTimesStore } from '../../src/tracking/route-times.js';
import { testRedis } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { coreOver, startHarness as startTracking, type Harness as TrackingHarness } from '../tracking/support/harness.js';
import { card, ChatUser } from './support/conversation.js';

/**
 * Observed arrival times per route, end to end: swaps followed by the real tracker on the sandbox
 * (manual clock: each duration is exactly the clock moves between the poll that saw the deposit
 * and the poll that saw the completion), then the core's quote card reading what it recorded.
 */
let h: TrackingHarness;
let core: BotCore;

beforeAll(async () => {
  // Polls only when pulled (pollNow, as a webhook hint does): none is in flight when the test
  // moves the clock, so each duration is exactly the clock moves between two polls.
  h = await startTracking({ fastMs: 600_000, slowMs: 600_000, tracking: { pacing: () => undefined } });
  await h.startWorkers({ render: trackingRenderer });
  core = coreOver(h);
});
afterAll(async () => {
  await h?.close();
});

const chat = (chatId: string): ChatTarget => ({ platform: 'console', chatId, chatKind: 'private' });

/** Moves the clock, then polls these swaps once and waits until every chat has what they saw. */
async function step(ids: string[], ms: number): Promise<void> {
  h.clock.advance(ms);
  for (const id of ids) await h.tracking.pollNow(id);
  await h.settle(ids);
}

/** Swaps followed and polled once, then deposited and seen; then `ms` of sandbox time until each is seen completed. */
async function completeAfter(ids: string[], ms: number): Promise<void> {
  for (const id of ids) await h.tracking.service.follow(id, chat('watcher'), { userId: 'watcher' });
  await step(ids, 1_000);
  for (const id of ids) h.sandbox.deposit(id);
  await step(ids, 1_000);
  for (const id of ids) expect((await h.tracking.swapState(id))?.depositSeenAt, 'deposit seen').toBeDefined();
  await step(ids, ms);
  for (const id of ids) expect((await h.tracking.swapState(id))?.status).toBe('completed');
  // The chats may hear of a completion a moment before the poller has recorded its duration.
  recorded += ids.length;
  await waitFor(
    async () => (await readRouteTimes(reader, h.prefix, ARB_BASE, h.clock.now())).seen?.count === recorded,
    `${recorded} durations recorded`,
  );
}
let recorded = 0;
const reader = testRedis();
const ARB_BASE = routeTimesId({
  sourceNetwork: 'ARBITRUM_MAINNET',
  sourceToken: 'USDC',
  destinationNetwork: 'BASE_MAINNET',
  destinationToken: 'USDC',
});

const timeField = async (u: ChatUser) => {
  const quote = card(await u.says('/quote 100 USDC arbitrum base'), { title: 'Quote' });
  return (
    quote.fields
      ?.find((f) => f.id === 'time')
      ?.value.map((s) => (typeof s === 'string' ? s : s.text))
      .join('') ?? ''
  );
};

describe('observed arrival times on the quote card', () => {
  it('fewer than 5 completed swaps: the service estimate; 10 known durations: "9 of the last 10 ... within 2 minutes"', async () => {
    const u = new ChatUser({ core }, { userId: 'u-times' });
    const before = await timeField(u);
    expect(before).toMatch(/^about /);

    // One slow swap (150 s from the deposit seen to completion), then quick ones (75 s each).
    await completeAfter([await h.createSwap()], 150_000);
    await completeAfter(await Promise.all([1, 2, 3].map(() => h.createSwap())), 75_000);
    expect(await timeField(u), 'four swaps behind the figure: the estimate').toBe(before);

    await completeAfter([await h.createSwap()], 75_000);
    expect(await timeField(u)).toBe('5 of the last 5 swaps on this route arrived within 3 minutes');

    await completeAfter(await Promise.all([1, 2, 3, 4, 5].map(() => h.createSwap())), 75_000);
    expect(await timeField(u)).toBe('9 of the last 10 swaps on this route arrived within 2 minutes');
  });
});

describe("the status card and the route's distribution", () => {
  it('a swap past the route\'s p90 gets "slower than usual on this route" on its card, and the route\'s p50/p90', async () => {
    const route = routeTimesId({
      sourceNetwork: 'ARBITRUM_MAINNET',
      sourceToken: 'USDC',
      destinationNetwork: 'OPTIMISM_MAINNET',
      destinationToken: 'USDC',
    });
    const times = new RouteTimesStore(testRedis(h.prefix), h.prefix);
    // Five swaps on this route arrived 15 s after their deposit was seen.
    for (let i = 0; i < 5; i++) await times.recordCompleted(route, { depositSeenAt: h.clock.now() - 15_000, history: [] }, h.clock.now());
    const created = await h.client.createSwap({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'OPTIMISM_MAINNET',
      destination_token: 'USDC',
      destination_address: `0x${'c'.repeat(40)}`,
      amount: 100,
      use_deposit_address: true,
    });
    const id = created.swap.id;
    await h.tracking.service.follow(id, chat('slow'), { userId: 'slow' });
    await step([id], 1_000);
    h.sandbox.deposit(id);
    await step([id], 1_000);
    const lastCard = () =>
      replyText(
        h.messengers.console
          .forChat('slow')
          .filter((r) => (r.reply.title ?? '').startsWith(`Swap ${id.slice(0, 8)}`))
          .at(-1)!.reply,
      );
    expect(lastCard()).toContain('On this route half the swaps arrive within 20 seconds, 9 in 10 within 20 seconds (5 recent swaps).');
    expect(lastCard()).not.toContain('Slower than usual');

    // 25 s after the deposit was seen, still confirming (3 confirmations 10 s apart): past the route's p90.
    await step([id], 25_000);
    expect((await h.tracking.swapState(id))?.status).toBe('user_transfer_pending');
    await waitFor(
      async () => lastCard().includes('Slower than usual on this route: 9 in 10 swaps arrived within 20 seconds.'),
      'the slower note on the card',
    );
  });
});

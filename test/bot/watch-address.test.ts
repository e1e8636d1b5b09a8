import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingRenderer } from '../../src/bot/renderer.js';
import type { BotCore } from '../../src/bot/core.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { AddressWatch } from '../../src/tracking/address-watch.js';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { testRedis } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { coreOver, startHarness as startTracking, type Harness as TrackingHarness } from '../tracking/support/harness.js';
import { card, ChatUser } from './support/conversation.js';

/**
 * A watched address: a swap made outside the chat (the sandbox's inject endpoint, as another app
 * would) to a saved address is followed in its user's private chat by the real tracker.
 */
let h: TrackingHarness;
let core: BotCore;

beforeAll(async () => {
  h = await startTracking({ tracking: { pacing: () => undefined, watch: { tickMs: 50, minMs: 1_000, maxMs: 8_000 } } });
  await h.startWorkers({ render: trackingRenderer });
  core = coreOver(h);
});
afterAll(async () => {
  await h?.close();
});

const DEST = '0x3333333333333333333333333333333333333333';
const me: ChatTarget = { platform: 'console', chatId: 'u-watch', chatKind: 'private' };

describe('watched addresses', () => {
  it('a swap made in another app to a watched address is followed in the private chat; unwatch stops it', async () => {
    const u = new ChatUser({ core }, { userId: 'u-watch' });
    const { id: own } = await u.createsSwap('/swap 30 USDC arbitrum base', DEST);
    const lists = () => h.sandbox.requestCount('listSwaps');
    const before = lists();
    card(await u.says('/addresses watch 1'), { contains: ['Watching it', `1. EVM · ${DEST} · watched`] });
    // The first check notes what exists (the swap made here) and follows nothing new.
    await waitFor(() => lists() > before, 'the first check of the address');

    const outside = h.sandbox.injectSwap({
      source_network: 'OPTIMISM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: DEST,
      amount: 40,
    });
    h.clock.advance(2_500);
    await waitFor(async () => (await h.tracking.service.listFollowed(me)).some((f) => f.swapId === outside), 'the outside swap followed');
    expect((await h.tracking.service.listFollowed(me)).map((f) => f.swapId).sort()).toEqual([own, outside].sort());
    // Its status card comes to the private chat like any followed swap's.
    h.clock.advance(1_000);
    await waitFor(
      () => h.messengers.console.forChat('u-watch').some((r) => (r.reply.title ?? '').startsWith(`Swap ${outside.slice(0, 8)}`)),
      "the outside swap's card",
    );

    card(await u.says('/addresses unwatch 1'), { contains: ['No longer watched.'] });
    const keys = new TrackingKeys(h.prefix);
    const redis = testRedis();
    expect(await redis.zcard(keys.watchDue)).toBe(0);
  });

  it('each tick checks at most its share of the API budget', () => {
    const w = new AddressWatch(testRedis(), new TrackingKeys('x'), Date.now, {
      minMs: 60_000,
      maxMs: 900_000,
      share: 0.1,
      apiPerSecond: 50,
      tickMs: 5_000,
    });
    // 50 requests/s over 5 s is 250; a tenth of it.
    expect(w.perTick).toBe(25);
  });
});

describe('a watched address at the follow limit', () => {
  let full: TrackingHarness;
  let fullCore: BotCore;
  beforeAll(async () => {
    // Two swaps per user at most.
    full = await startTracking({
      tracking: { pacing: () => undefined, limits: { maxPerChat: 1000, maxPerUser: 2 }, watch: { tickMs: 50, minMs: 1_000, maxMs: 1_000 } },
    });
    await full.startWorkers({ render: trackingRenderer });
    fullCore = coreOver(full);
  });
  afterAll(async () => {
    await full?.close();
  });

  it('the user is told once, in their language, what was not followed and what to do; told again only after making room and filling it', async () => {
    const chatId = 'u-full';
    const target: ChatTarget = { platform: 'console', chatId, chatKind: 'private' };
    const u = new ChatUser({ core: fullCore }, { userId: chatId });
    const { id: own } = await u.createsSwap('/swap 30 USDC arbitrum base', DEST);
    // Watched in Spanish: the notice comes in it.
    await u.says('/language es');
    const lists = () => full.sandbox.requestCount('listSwaps');
    const before = lists();
    await u.says('/addresses watch 1');
    await waitFor(() => lists() > before, 'the first check of the address');
    const inject = () =>
      full.sandbox.injectSwap({
        source_network: 'OPTIMISM_MAINNET',
        source_token: 'USDC',
        destination_network: 'BASE_MAINNET',
        destination_token: 'USDC',
        destination_address: DEST,
        amount: 40,
      });
    const followed = async () => (await full.tracking.service.listFollowed(target)).map((f) => f.swapId);
    const notices = () =>
      full.messengers.console.forChat(chatId).filter((r) => r.reply.title === 'Dirección vigilada: un intercambio sin seguir');
    /** Moves the clock past the check interval and waits for the check to be made. */
    const checked = async () => {
      const n = lists();
      full.clock.advance(1_500);
      await waitFor(() => lists() > n, 'a check of the address');
    };

    // The second swap fits (2 of 2); the third does not: one notice, with the swap to /track.
    const second = inject();
    await checked();
    await waitFor(async () => (await followed()).includes(second), 'the second swap followed');
    const third = inject();
    await checked();
    await waitFor(() => notices().length === 1, 'the notice');
    const text = replyText(notices()[0]!.reply);
    expect(text).toContain(DEST);
    expect(text).toContain('Sigues 2 intercambios, el máximo permitido.');
    expect(text).toContain(`/track ${third}`);
    expect(text).toContain('Solo lo digo una vez.');
    expect(await followed()).not.toContain(third);

    // A fourth refused swap: no second notice.
    inject();
    await checked();
    await checked();
    expect(notices()).toHaveLength(1);

    // Room made (/untrack), filled by the next swap; the one after it is told again.
    await u.says(`/untrack ${own}`);
    expect(await followed()).not.toContain(own);
    const fifth = inject();
    await checked();
    await waitFor(async () => (await followed()).includes(fifth), 'the fifth swap followed');
    const sixth = inject();
    await checked();
    await waitFor(() => notices().length === 2, 'the second notice');
    expect(replyText(notices()[1]!.reply)).toContain(`/track ${sixth}`);
  });
});

import { expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { routeTimesId } from '../../src/contracts/route-times.js';
import { readRouteTimes } from '../../src/tracking/route-times.js';
import { RouteTimesStore } from '../../src/tracking/route-times.js';
import { waitFor } from '../support/wait.js';
import { driveToCompletion, type LiveStack } from './live-stack.js';

/**
 * Honest times and one-tap repeats (issue 28), one scenario list driven on every surface: the
 * terminal chat, Telegram and Discord each give a RepeatSurface over their real adapter and fake
 * platform, and `repeatScenarios` registers the same tests on it. The scenarios run in order in
 * one private chat (the saved address of one is used by the next).
 */
export interface RepeatSurface {
  live: LiveStack;
  /** The user's private chat, as tracking addresses it. */
  me: ChatTarget;
  /** Sends a command line in the private chat; resolves with the text of the first bot message, new or edited since, that matches. */
  says(line: string, until: string | RegExp): Promise<string>;
  /** Presses the newest button with this label in the private chat, then waits as `says` does. */
  presses(label: string, until: string | RegExp): Promise<string>;
  /** Answers the open free-text question (an address), then waits as `says` does. */
  answers(text: string, until: string | RegExp): Promise<string>;
  /** Waits for a bot message in the private chat (any time, new or edited) that matches; its text. */
  sees(match: string | RegExp): Promise<string>;
  /**
   * Says a line in a group the user is in; resolves with everything the group shows after it,
   * once `until` is there, or null when the platform does not offer the command in groups.
   * Absent: the surface has no groups.
   */
  saysInGroup?(line: string, until: string | RegExp): Promise<string | null>;
}

const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const SHORT = '0xd8dA…6045';
/** The observed line's route (no other scenario completes a swap on it). */
const OBSERVED = {
  source_network: 'OPTIMISM_MAINNET',
  source_token: 'USDC',
  destination_network: 'ARBITRUM_MAINNET',
  destination_token: 'USDC',
};
/** The slow swap's route: 3 confirmations 10 s apart on Arbitrum, so it is still confirming 25 s after its deposit was seen. */
const SLOW = {
  source_network: 'ARBITRUM_MAINNET',
  source_token: 'USDC',
  destination_network: 'OPTIMISM_MAINNET',
  destination_token: 'USDC',
};
const idOf = (r: typeof OBSERVED) =>
  routeTimesId({
    sourceNetwork: r.source_network,
    sourceToken: r.source_token,
    destinationNetwork: r.destination_network,
    destinationToken: r.destination_token,
  });

/** Swaps made on the service, followed in the chat by the real tracker, deposited and driven to completion: their durations recorded. */
async function completedByTracker(s: RepeatSurface, n: number, recordedBefore: number): Promise<void> {
  const { live } = s;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const d = await live.api.createSwap({
      ...OBSERVED,
      destination_address: `0x${(recordedBefore + i + 1).toString(16).padStart(40, 'e')}`,
      amount: 50,
      use_deposit_address: true,
    });
    ids.push(d.swap.id);
    await live.tracking.service.follow(d.swap.id, s.me, { userId: s.me.chatId });
  }
  for (const id of ids) live.sandbox.deposit(id);
  // Each deposit seen by a poll before the clock moves: the durations start there.
  await waitFor(
    async () => (await Promise.all(ids.map((id) => live.tracking.swapState(id)))).every((st) => st?.depositSeenAt !== undefined),
    'the deposits seen',
  );
  for (const id of ids) await driveToCompletion(live, id);
  const want = recordedBefore + n;
  await waitFor(
    async () => (await readRouteTimes(live.redis, live.prefix, idOf(OBSERVED), live.clock.now())).seen?.count === want,
    `${want} durations recorded`,
  );
}

export function repeatScenarios(surface: () => RepeatSurface): void {
  it("a route quoted after five completed swaps shows what they took; with four, the service's estimate", async () => {
    const s = surface();
    const quote = '/quote 100 USDC OPTIMISM_MAINNET ARBITRUM_MAINNET';
    expect(await s.says(quote, /Expected time/)).toMatch(/Expected time\W+about /);
    await completedByTracker(s, 4, 0);
    const four = await s.says(quote, /Expected time/);
    expect(four).toMatch(/Expected time\W+about /);
    expect(four).not.toContain('of the last');
    await completedByTracker(s, 1, 4);
    expect(await s.says(quote, /Expected time/)).toMatch(/5 of the last 5 swaps on this route arrived within \d+ (seconds|minutes?)/);
  });

  it('a swap past its route\'s p90 gets "slower than usual on this route" on its card', async () => {
    const s = surface();
    const { live } = s;
    // Five swaps on this route arrived 15 s after their deposit was seen.
    const times = new RouteTimesStore(live.redis, live.prefix);
    for (let i = 0; i < 5; i++)
      await times.recordCompleted(idOf(SLOW), { depositSeenAt: live.clock.now() - 15_000, history: [] }, live.clock.now());
    const id = (await live.api.createSwap({ ...SLOW, destination_address: EVM, amount: 100, use_deposit_address: true })).swap.id;
    await live.tracking.service.follow(id, s.me, { userId: s.me.chatId });
    const title = new RegExp(`Swap ${id.slice(0, 8)}: `);
    await s.sees(title);
    live.sandbox.deposit(id);
    await waitFor(async () => (await live.tracking.swapState(id))?.depositSeenAt !== undefined, 'the deposit seen');
    expect(await s.sees(new RegExp(`Swap ${id.slice(0, 8)}: [\\s\\S]*9 in 10 within 20 seconds`))).not.toContain('Slower than usual');
    // 25 s after the deposit was seen, still confirming: past the route's p90 (20 s).
    live.clock.advance(25_000);
    const at = live.clock.now();
    await waitFor(async () => ((await live.tracking.swapState(id))?.lastPolledAt ?? 0) >= at, 'a poll after the clock moved');
    expect((await live.tracking.swapState(id))?.status).toBe('user_transfer_pending');
    await s.sees(new RegExp(`Swap ${id.slice(0, 8)}: [\\s\\S]*Slower than usual on this route: 9 in 10 swaps arrived within 20 seconds`));
  });

  it('"Swap again" on a completed swap\'s message reaches the confirmation with the same destination and a fresh quote', async () => {
    const s = surface();
    const { live } = s;
    await s.says('/swap 20 USDC ARBITRUM_MAINNET BASE_MAINNET', /address on Base/);
    await s.answers(EVM, 'Skip (no refund address)');
    await s.presses('Skip (no refund address)', 'No refuel');
    await s.presses('No refuel', 'Confirm your swap');
    const deposit = await s.presses('Confirm', /Swap id: \S*[0-9a-f-]{36}/);
    const id = /Swap id: \W*([0-9a-f-]{36})/.exec(deposit)?.[1] ?? '';
    live.sandbox.deposit(id);
    await driveToCompletion(live, id);
    await s.sees('Swap completed');
    const quotes = live.sandbox.requestCount('getQuote');
    const confirm = await s.presses('Swap again', 'Confirm your swap');
    expect(confirm).toContain(EVM);
    expect(confirm).toContain('20 USDC');
    expect(live.sandbox.requestCount('getQuote'), 'a quote asked for now').toBeGreaterThan(quotes);
  });

  it("a watched address picks up a swap made outside the chat (the sandbox's inject endpoint)", async () => {
    const s = surface();
    const { live } = s;
    expect(await s.says('/addresses', 'Saved addresses')).toContain(EVM);
    const lists = live.sandbox.requestCount('listSwaps');
    expect(await s.says('/addresses watch 1', 'Watching it')).toContain('watched');
    // The first check notes what exists; a swap made after it is new.
    await waitFor(() => live.sandbox.requestCount('listSwaps') > lists, 'the first check of the address');
    const outside = live.sandbox.injectSwap({
      source_network: 'OPTIMISM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: EVM,
      amount: 40,
    });
    live.clock.advance(2_000);
    await waitFor(
      async () => (await live.tracking.service.listFollowed(s.me)).some((f) => f.swapId === outside),
      'the outside swap followed',
    );
    await s.sees(new RegExp(`Swap ${outside.slice(0, 8)}: `));
    expect(await s.says('/addresses unwatch 1', 'No longer watched.')).not.toContain('· watched');
  });

  it('a saved address is offered at the address step, never shown in a group, and removed with /addresses', async () => {
    const s = surface();
    await s.says('/swap 10 USDC ARBITRUM_MAINNET OPTIMISM_MAINNET', 'Or pick one you used before:');
    await s.presses(SHORT, 'Skip (no refund address)');
    await s.says('/cancel', /./);
    if (s.saysInGroup) {
      const inGroup = await s.saysInGroup('/addresses', 'only in your private chat');
      if (inGroup !== null) expect(inGroup).not.toContain(EVM.slice(2, 10));
      const ask = await s.saysInGroup('/swap 10 USDC ARBITRUM_MAINNET OPTIMISM_MAINNET', /address on Optimism/);
      expect(ask).not.toContain(SHORT);
      expect(ask).not.toContain('Or pick one you used before');
    }
    const list = await s.says('/addresses', 'Saved addresses');
    expect(list).toContain('1. EVM · ');
    expect(list).toContain(EVM);
    await s.presses(`Remove 1: ${SHORT}`, 'No saved addresses yet.');
    await s.says('/swap 10 USDC ARBITRUM_MAINNET OPTIMISM_MAINNET', /address on Optimism/);
    await s.says('/cancel', /./);
  });
}

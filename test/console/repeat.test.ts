import { describe, expect, test } from 'vitest';
import { routeTimesId } from '../../src/contracts/route-times.js';
import { RouteTimesStore } from '../../src/tracking/route-times.js';
import { useHarness } from '../bot/support/conversation.js';
import { startPipeChat } from './pipe-chat.js';

/**
 * Honest times and one-tap repeats in the terminal chat, pressed by label as a user reading the
 * screen would: the observed line on a quote, Swap again from /history, a saved address offered
 * at the address step and removed with /addresses.
 */
const h = useHarness();
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

describe('terminal chat: observed times, Swap again, saved addresses', () => {
  test('a route quoted after five completed swaps shows what they took', async () => {
    const times = new RouteTimesStore(h.redis, h.prefix);
    const route = routeTimesId({
      sourceNetwork: 'ARBITRUM_MAINNET',
      sourceToken: 'USDC',
      destinationNetwork: 'OPTIMISM_MAINNET',
      destinationToken: 'USDC',
    });
    const c = startPipeChat(h);
    c.type('/quote 100 USDC arbitrum optimism');
    expect(await c.waitFor('[2] Refresh')).toMatch(/Expected time: about /);
    for (const ms of [40_000, 50_000, 70_000, 80_000, 100_000])
      await times.recordCompleted(route, { depositSeenAt: h.clock.now() - ms, history: [] }, h.clock.now());
    const at = c.text.length;
    c.type('/quote 100 USDC arbitrum optimism');
    expect(await c.waitFor('Refresh', at)).toContain('Expected time: 5 of the last 5 swaps on this route arrived within 2 minutes');
    c.end();
    await c.chat.done;
  });

  test('a saved address is offered at the next address step, Swap again from /history reaches the confirmation, and /addresses removes it', async () => {
    const c = startPipeChat(h);
    await c.says(`/swap 20 USDC arbitrum base ${EVM}`, 'Skip (no refund address)');
    await c.presses('Skip (no refund address)', 'No refuel');
    await c.presses('No refuel', 'Confirm your swap');
    const deposit = await c.presses('Confirm', /Swap id: ([0-9a-f-]{36})/);
    const id = /Swap id: ([0-9a-f-]{36})/.exec(deposit)?.[1] ?? '';

    // The address step of another EVM swap offers it.
    await c.says('/swap 20 USDC arbitrum optimism', 'Or pick one you used before:');
    await c.presses('0xd8dA…6045', 'Skip (no refund address)');

    // Swap again from /history: the same route, amount and destination, at the confirmation.
    await c.says('/history', `Again: ${id.slice(0, 8)}`);
    const again = await c.presses(`Again: ${id.slice(0, 8)}`, 'Confirm your swap');
    expect(again).toContain(EVM);
    expect(again).toContain('20 USDC on Arbitrum One');

    expect(await c.says('/addresses', 'Remove 1: 0xd8dA…6045')).toContain(`1. EVM · ${EVM}`);
    await c.presses('Remove 1: 0xd8dA…6045', 'No saved addresses yet.');
    c.end();
    await c.chat.done;
  });
});

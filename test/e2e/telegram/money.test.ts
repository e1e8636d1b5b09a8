import { describe, expect, it } from 'vitest';
import { newUser } from './harness.js';
import { driveToCompletion } from '../live-stack.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';

/**
 * The user's money through Telegram (real grammY against the fake Bot API, the sandbox on a
 * ManualClock, real Redis, the tracking engine): an under-payment is said at once, every later
 * message uses what arrived, nothing says "send" once the deposit is seen, and the completion
 * carries a receipt that adds up.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const SEND = /Send exactly|Send the exact amount|Send it before/;
const world = useWorld('tg-money');

describe('what the bot tells you about your money, on Telegram', () => {
  it('80 of 100 USDC arrives: said at once with the new expected amount, then a receipt that adds up', async () => {
    const alice = newUser('Alice');
    const a = new TgUser(world.fake, alice, world.fake.privateChat(alice));
    a.says('/swap 100 USDC arbitrum base');
    const { confirm } = await a.toConfirmation(EVM);
    // The confirm card adds up before the swap exists.
    expect(confirm.text).toMatch(/How it adds up\nYou send: 100 USDC/);
    await a.presses('Confirm');
    const deposit = await waitFor(() => a.messages().find((m) => m.photoSize), 'the deposit card');
    expect(deposit.caption).toContain('Send exactly 100 USDC on Arbitrum One');
    const swapId = /Swap id: ([0-9a-f-]{36})/.exec(deposit.caption ?? '')![1]!;

    world.sandbox.deposit(swapId, { amount: 80 });
    // Said at once, in a message of its own (the deposit card, edited, says it too).
    const seen = await waitFor(
      () => a.messages().find((m) => (m.text ?? '').includes('You sent 80 USDC: 20 USDC less than the 100 USDC asked.')),
      'the under-payment said',
    );
    expect(seen.text).toMatch(/you now receive about 7\d\.\d+ USDC \(estimate\)/);
    const after = a.messages().filter((m) => m.message_id > deposit.message_id);
    for (const m of after) expect(m.text ?? m.caption ?? '').not.toMatch(SEND);

    await driveToCompletion(world, swapId);
    const done = await waitFor(() => a.messages().find((m) => (m.text ?? '').startsWith('Swap completed')), 'the completion message');
    const text = done.text ?? '';
    const received = /= Received: (7\d\.\d+) USDC/.exec(text)?.[1];
    expect(text).toContain('Sent: 80 USDC');
    const deductions = [...text.matchAll(/^− [^:]+: (-?[\d.]+) USDC/gm)].map((m) => Math.round(Number(m[1]) * 1e6));
    expect(80_000_000 - deductions.reduce((x, y) => x + y, 0)).toBe(Math.round(Number(received) * 1e6));
  });
});

import { describe, expect, it } from 'vitest';
import type { StoredMessage } from './fake-rules.js';
import { newUser } from './harness.js';
import { driveToCompletion } from '../live-stack.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';

/**
 * The creator's deposit card through Telegram (real grammY against the fake Bot API, the sandbox on
 * a ManualClock, real Redis, the tracking engine): the live status card is there as soon as the
 * swap exists, below the deposit card, and the deposit card itself (the photo message with the
 * QR) is edited in place as the swap moves on: no QR, Copy or "I've sent it" once they no longer
 * apply, and never a second deposit card.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const world = useWorld('tg-deposit-life');

const labels = (m: StoredMessage): string[] =>
  ((m.markup?.inline_keyboard ?? []) as Array<Array<{ text: string }>>).flat().map((b) => b.text);

async function createSwap(u: TgUser): Promise<{ deposit: StoredMessage; swapId: string }> {
  u.says('/swap 100 USDC arbitrum base');
  await u.toConfirmation(EVM);
  await u.presses('Confirm');
  const deposit = await waitFor(() => u.messages().find((m) => m.photoSize), 'the deposit card');
  const swapId = /Swap id: ([0-9a-f-]{36})/.exec(deposit.caption ?? '')![1]!;
  return { deposit, swapId };
}

/** The deposit card as it is now (the fake keeps one record per message, edits included). */
const now = (u: TgUser, m: StoredMessage): StoredMessage => u.messages().find((x) => x.message_id === m.message_id)!;

describe('the deposit card has a lifecycle, on Telegram', () => {
  it('a status card at once; deposit seen, then completed: the same photo message edited, its QR and buttons gone', async () => {
    const alice = newUser('Alice');
    const a = new TgUser(world.fake, alice, world.fake.privateChat(alice));
    const { deposit, swapId } = await createSwap(a);
    expect(labels(deposit)).toEqual(expect.arrayContaining(['Copy address', "I've sent it"]));
    const qr = deposit.photoBytes;

    // The live status card is there before anything happens to the swap, below the deposit card.
    const card = await waitFor(
      () => a.messages().find((m) => m.message_id > deposit.message_id && (m.text ?? '').startsWith(`Swap ${swapId.slice(0, 8)}`)),
      'the status card',
    );
    expect(card.text).toMatch(/Waiting for (your|the) deposit/i);

    world.sandbox.deposit(swapId, { amount: 80 });
    const seen = await waitFor(() => {
      const m = now(a, deposit);
      return /Deposit seen: 80 USDC at .*Do not send again/.test(m.caption ?? '') ? m : undefined;
    }, 'the deposit card edited to "Deposit seen"');
    expect(seen.caption).not.toMatch(/Send exactly/);
    expect(labels(seen)).not.toContain("I've sent it");
    expect(labels(seen).filter((l) => l.startsWith('Copy'))).toEqual([]);
    // The QR is replaced by a plain picture: nothing left to scan and pay again.
    expect(seen.photoBytes).toBeDefined();
    expect(Buffer.from(seen.photoBytes!).equals(Buffer.from(qr!))).toBe(false);

    await driveToCompletion(world, swapId);
    const closed = await waitFor(() => {
      const m = now(a, deposit);
      return /Deposit closed/.test(m.caption ?? '') ? m : undefined;
    }, 'the deposit card closed');
    expect(closed.caption).toMatch(/Received: 7\d\.\d+ USDC/);
    expect(closed.caption).toContain('This deposit address is no longer for this swap. Do not send to it.');
    // One deposit card, ever: every photo in the chat is that one message.
    expect(
      a
        .messages()
        .filter((m) => m.photoSize !== undefined)
        .map((m) => m.message_id),
    ).toEqual([deposit.message_id]);
    // Each edit of the photo card was the one a photo takes: never an editMessageText Telegram refuses.
    const onCard = world.fake.calls.filter((c) => Number(c.payload.message_id) === deposit.message_id && c.method.startsWith('edit'));
    expect(onCard.length).toBeGreaterThanOrEqual(2);
    expect(onCard.filter((c) => c.method === 'editMessageText')).toEqual([]);
    expect(onCard.every((c) => c.ok)).toBe(true);
  });

  it('a deposit card the user deleted is left deleted: no second deposit card, the status card still moves', async () => {
    const carol = newUser('Carol');
    const c = new TgUser(world.fake, carol, world.fake.privateChat(carol));
    const { deposit, swapId } = await createSwap(c);
    const card = await waitFor(
      () => c.messages().find((m) => m.message_id > deposit.message_id && (m.text ?? '').startsWith(`Swap ${swapId.slice(0, 8)}`)),
      'the status card',
    );
    world.fake.userDeletes(c.chat.id, deposit.message_id);
    world.sandbox.deposit(swapId, { amount: 100 });
    await waitFor(
      () => /Deposit seen|confirm/i.test(c.messages().find((m) => m.message_id === card.message_id)?.text ?? '') || undefined,
      'the status card at the deposit',
    );
    await waitFor(
      () => world.logLines.some((l) => l.includes('the deposit card could not be edited')) || undefined,
      'the refused edit logged',
    );
    expect(c.messages().filter((m) => m.photoSize !== undefined)).toHaveLength(0);
    expect(
      c
        .messages()
        .map((m) => m.text ?? m.caption ?? '')
        .join('\n'),
    ).not.toMatch(/Send exactly/);
  });

  it('expiry closes the deposit card with the path for someone who already sent', async () => {
    const bob = newUser('Bob');
    const b = new TgUser(world.fake, bob, world.fake.privateChat(bob));
    const { deposit, swapId } = await createSwap(b);
    await waitFor(
      () => b.messages().find((m) => m.message_id > deposit.message_id && (m.text ?? '').startsWith(`Swap ${swapId.slice(0, 8)}`)),
      'the status card',
    );
    world.clock.advance(3 * 3_600_000);
    const closed = await waitFor(() => {
      const m = now(b, deposit);
      return /Deposit closed/.test(m.caption ?? '') ? m : undefined;
    }, 'the deposit card closed at expiry');
    expect(closed.caption).toContain(
      'Already sent funds to it? They are not lost: contact Layerswap support with the swap id and your transaction hash.',
    );
    expect(closed.caption).not.toMatch(/Send exactly|Send it before/);
    expect(labels(closed)).not.toContain("I've sent it");
    expect(b.messages().filter((m) => m.photoSize !== undefined)).toHaveLength(1);
  });
});

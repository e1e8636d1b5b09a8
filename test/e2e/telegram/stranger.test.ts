import { describe, expect, it } from 'vitest';
import { maskAddress } from '../../../src/bot/kernel/format.js';
import type { StoredMessage } from './fake-rules.js';
import { newUser } from './harness.js';
import { driveToCompletion } from '../live-stack.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';

/**
 * The destination address is the creator's business (issue 33): Alice creates a swap through the
 * bot; Bob and Carol only know its id (it is on group cards and guest answers). Whatever way they
 * follow it in their private chats (/track, the Track button of a /status card), what tracking
 * pushes them, the card a pressed Mute redraws, and the completion message show the destination
 * masked as groups see it, and a forged Swap again refuses. Alice's own cards keep it in full.
 */
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const MASKED = maskAddress(DEST);
const world = useWorld('tg-stranger');

const textOf = (m: StoredMessage): string => `${m.text ?? ''}${m.caption ?? ''}`;
/** Everything the bot ever showed in this chat, edits included (the fake keeps the last version of each message). */
const everything = (u: TgUser): string => u.messages().map(textOf).join('\n').toLowerCase();

async function createSwap(u: TgUser): Promise<string> {
  u.says('/swap 100 USDC arbitrum base');
  await u.toConfirmation(DEST);
  await u.presses('Confirm');
  const deposit = await waitFor(() => u.messages().find((m) => m.photoSize), 'the deposit card');
  return /Swap id: ([0-9a-f-]{36})/.exec(deposit.caption ?? '')![1]!;
}

const statusCardOf = (u: TgUser, swapId: string) =>
  waitFor(
    () => u.messages().find((m) => (m.text ?? '').startsWith(`Swap ${swapId.slice(0, 8)}`) && /Mute/.test(JSON.stringify(m.markup))),
    'the live status card',
  );

describe('a swap followed by someone who is not its creator, on Telegram', () => {
  it('every card they get masks the destination; the creator sees it in full; a forged Swap again is refused', async () => {
    const aliceUser = newUser('Alice');
    const alice = new TgUser(world.fake, aliceUser, world.fake.privateChat(aliceUser));
    const swapId = await createSwap(alice);
    const aliceCard = await statusCardOf(alice, swapId);
    expect(textOf(aliceCard)).toContain(DEST);

    // Bob: /track <id> in his private chat.
    const bobUser = newUser('Bob');
    const bob = new TgUser(world.fake, bobUser, world.fake.privateChat(bobUser));
    bob.says(`/track ${swapId}`);
    const bobCard = await statusCardOf(bob, swapId);
    expect(textOf(bobCard)).toContain(MASKED);

    // Carol: /status <id> (masked: she is not the creator), then its Track button.
    const carolUser = newUser('Carol');
    const carol = new TgUser(world.fake, carolUser, world.fake.privateChat(carolUser));
    carol.says(`/status ${swapId}`);
    await carol.sees(MASKED);
    await carol.presses('Track');
    const carolCard = await statusCardOf(carol, swapId);
    expect(textOf(carolCard)).toContain(MASKED);

    // Bob mutes: the pressed card is redrawn for him (Unmute in place of Mute), still masked.
    await bob.presses('Mute');
    const muted = await waitFor(() => {
      const m = world.fake.message(bob.chat.id, bobCard.message_id);
      return m && JSON.stringify(m.markup).includes('Unmute') ? m : undefined;
    }, 'the muted card');
    expect(textOf(muted)).toContain(MASKED);

    // A forged Swap again with Alice's swap id.
    const pressId = world.fake.press(bobUser, bob.chat.id, bobCard.message_id, `sa:${swapId}`);
    await waitFor(
      () => world.fake.callsTo('answerCallbackQuery').some((c) => c.payload.callback_query_id === pressId),
      'the forged press answered',
    );
    await waitFor(
      () =>
        world.fake
          .callsTo('answerCallbackQuery')
          .some((c) => c.payload.callback_query_id === pressId && /not yours/.test(String(c.payload.text ?? ''))) ||
        /not yours/.test(everything(bob)) ||
        undefined,
      'Swap again refused',
    );

    world.sandbox.deposit(swapId);
    await driveToCompletion(world, swapId);
    const done = await carol.sees('Swap completed');
    expect(JSON.stringify(done.markup ?? {})).not.toContain('Swap again');
    await alice.sees('Swap completed');

    for (const stranger of [bob, carol]) {
      expect(everything(stranger)).not.toContain(DEST.toLowerCase());
      expect(everything(stranger)).not.toContain(DEST.slice(2, 12).toLowerCase());
    }
    expect(everything(alice)).toContain(DEST.toLowerCase());
  });
});

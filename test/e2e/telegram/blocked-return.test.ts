import { describe, expect, it } from 'vitest';
import type { StoredMessage } from './fake-rules.js';
import { newUser } from './harness.js';
import { driveToCompletion } from '../live-stack.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';
import { swapRequest } from '../../support/swaps.js';

/**
 * A user who blocks the bot is unsubscribed from everything at the first refused delivery (403).
 * When they come back, the first thing they hear is which swaps stopped being followed meanwhile,
 * with the outcome of the finished ones, and one button follows them all again. Real grammY, the
 * fake Bot API, the tracking engine on real Redis.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

const world = useWorld('tg-blocked');

const isStatusCard = (m: StoredMessage) => /^Swap [0-9a-f]+: /.test(m.text ?? '');
const newSwap = async () => (await world.api.createSwap(swapRequest(EVM))).swap.id;

describe('a user who blocked the bot and comes back', () => {
  it('hears once which swaps stopped being followed, with outcomes, and can follow them all again', async () => {
    const alice = newUser('Alice');
    const dm = new TgUser(world.fake, alice, world.fake.openDm(alice));
    const [waiting, done] = [await newSwap(), await newSwap()];
    dm.says(`/track ${waiting}`);
    dm.says(`/track ${done}`);
    await waitFor(() => dm.messages().filter(isStatusCard).length >= 2, 'both status cards');
    world.sandbox.deposit(done);
    await driveToCompletion(world, done);
    await dm.sees('Swap completed');

    world.fake.blockBy(alice.id);
    world.sandbox.deposit(waiting);
    await waitFor(
      () => world.fake.calls.some((c) => Number(c.payload.chat_id) === alice.id && c.errorCode === 403),
      'a delivery refused with 403',
    );
    await waitFor(
      async () =>
        (await world.tracking.service.listFollowed({ platform: 'telegram', chatId: String(alice.id), chatKind: 'private' })).length === 0,
      'the chat unsubscribed',
    );

    dm.says('/start');
    const back = await dm.sees('Welcome back');
    expect(back.text).toContain('While you had blocked me, I stopped following 2 swaps for you:');
    expect(back.text).toContain(`${done}: Completed`);
    expect(back.text).toContain(`${waiting}: not finished yet`);

    // Told once.
    dm.says('/help');
    await dm.sees('/quote');
    expect(dm.messages().filter((m) => (m.text ?? '').startsWith('Welcome back'))).toHaveLength(1);

    const cardsBefore = dm.messages().filter(isStatusCard).length;
    await dm.presses('Follow again');
    await dm.sees('Following 2 swaps again');
    await waitFor(() => dm.messages().filter(isStatusCard).length > cardsBefore, 'a fresh status card');
    const followed = await world.tracking.service.listFollowed({ platform: 'telegram', chatId: String(alice.id), chatKind: 'private' });
    expect(followed.map((f) => f.swapId).sort()).toEqual([waiting, done].sort());
  });
});

import type { Chat } from 'grammy/types';
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from './fake-rules.js';
import { newUser } from './harness.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';
import { swapRequest } from '../../support/swaps.js';

/**
 * A basic group upgraded to a supergroup (Telegram gives it a new id) keeps what it followed: its
 * follows, settings and cards move to the new chat, whether the bot hears it from the service
 * messages (migrate_to_chat_id / migrate_from_chat_id) or from a send refused with 400 "group chat
 * was upgraded to a supergroup chat" (parameters.migrate_to_chat_id). Real grammY, the fake Bot
 * API, the tracking engine on real Redis.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

const world = useWorld('tg-upgrade');

let nextGroup = -4_100_000_001;
const basicGroup = (title: string): Chat => ({ id: nextGroup--, type: 'group', title }) as Chat;
const isStatusCard = (m: StoredMessage) => /^Swap [0-9a-f]+: /.test(m.text ?? '');

async function followedInGroup(title: string): Promise<{ admin: TgUser; id: string; group: Chat }> {
  const group = basicGroup(title);
  const admin = new TgUser(world.fake, newUser('Grace'), group);
  world.fake.setMember(group.id, admin.user.id, 'administrator');
  admin.says('/settings min 250');
  await admin.sees('Minimum swap size for messages: $250');
  const swap = await world.api.createSwap(swapRequest(EVM, { amount: 1000 }));
  const id = swap.swap.id;
  admin.says(`/track ${id}`);
  await waitFor(() => admin.messages().find(isStatusCard), 'the status card in the group');
  return { admin, id, group };
}

/** After the upgrade: the card and the next key moment arrive in the supergroup, which still follows the swap with its settings. */
async function expectMoved(admin: TgUser, supergroup: Chat, id: string): Promise<void> {
  const there = new TgUser(world.fake, admin.user, supergroup);
  await waitFor(() => there.messages().find(isStatusCard), 'the status card in the supergroup');
  world.sandbox.deposit(id);
  await there.sees('Deposit seen');
  there.says('/tracking');
  await there.sees(id.slice(0, 8));
  there.says('/settings');
  await there.sees('Minimum swap size for messages: $250');
  expect(world.logLines.filter((l) => l.includes('chat is gone'))).toEqual([]);
}

describe('a group upgraded to a supergroup', () => {
  it('moves its follows and settings when Telegram announces the upgrade', async () => {
    const { admin, id, group } = await followedInGroup('Announced');
    const supergroup = world.fake.upgradeGroup(group, admin.user, { announce: true });
    await expectMoved(admin, supergroup, id);
  });

  it('moves them when a send is refused with migrate_to_chat_id, and delivers that message in the new chat', async () => {
    const { admin, id, group } = await followedInGroup('Silent');
    const supergroup = world.fake.upgradeGroup(group, admin.user, { announce: false });
    world.sandbox.deposit(id);
    const there = new TgUser(world.fake, admin.user, supergroup);
    await there.sees('Deposit seen');
    expect(
      world.fake.calls
        .filter((c) => Number(c.payload.chat_id) === group.id)
        .map((c) => c.description)
        .join('\n'),
    ).toContain('upgraded to a supergroup');
    await waitFor(() => there.messages().find(isStatusCard), 'the status card in the supergroup');
    there.says('/tracking');
    await there.sees(id.slice(0, 8));
    there.says('/settings');
    await there.sees('Minimum swap size for messages: $250');
    expect(world.logLines.filter((l) => l.includes('chat is gone'))).toEqual([]);
  });
});

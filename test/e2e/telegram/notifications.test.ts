import { describe, expect, it } from 'vitest';
import type { StoredMessage } from './fake-rules.js';
import { newForum, newUser } from './harness.js';
import { driveToCompletion } from '../live-stack.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';
import { swapRequest } from '../../support/swaps.js';

/**
 * Notification settings through Telegram (real grammY and TelegramMessenger against the fake Bot
 * API, the core, the tracking engine, the sandbox on a ManualClock): in a forum supergroup, /track
 * in a topic puts the cards in that topic (message_thread_id); quiet hours send with
 * disable_notification; quiet mode puts a reaction on the card instead of "Swap completed".
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

const world = useWorld('tg-notify');

const isStatusCard = (m: StoredMessage) => /^Swap [0-9a-f]+: /.test(m.text ?? '');

/** The label of the newest button matching `re` in the chat. */
function label(u: TgUser, re: RegExp): string {
  for (const m of [...u.messages()].reverse())
    for (const b of ((m.markup?.inline_keyboard ?? []) as Array<Array<{ text: string }>>).flat()) if (re.test(b.text)) return b.text;
  throw new Error(`no button ${String(re)} in chat ${u.chat.id}`);
}

describe('a forum topic with quiet hours and quiet mode', () => {
  it('cards and messages go to the topic /track was used in, silently in quiet hours, and completion is a reaction', async () => {
    const forum = newForum();
    const topic = world.fake.createTopic(forum, 'Swaps');
    const admin = new TgUser(world.fake, newUser('Grace'), forum);
    world.fake.setMember(forum.id, admin.user.id, 'administrator');

    // Quiet hours typed with a time zone: the sandbox clock reads 00:00 UTC, 09:00 in Tokyo.
    admin.says('/settings quiet 9-11 Asia/Tokyo', { threadId: topic });
    const card = await admin.sees('Quiet hours (sent without sound): 09:00–11:00 (Asia/Tokyo)');
    expect(card.threadId).toBe(topic);
    await admin.presses(label(admin, /^✅ Quiet mode/));
    await waitFor(
      () => /Quiet mode \(✅ on the card when completed\): on/.test(world.fake.message(forum.id, card.message_id)?.text ?? ''),
      'quiet mode on',
    );

    const swap = await world.api.createSwap(swapRequest(EVM));
    const id = swap.swap.id;
    admin.says(`/track ${id}`, { threadId: topic });
    const statusCard = await waitFor(() => admin.messages().find(isStatusCard), 'the status card');
    expect(statusCard.threadId).toBe(topic);
    expect(statusCard.silent).toBe(true);

    world.sandbox.deposit(id);
    const deposit = await admin.sees('Deposit seen');
    expect(deposit.threadId).toBe(topic);
    expect(deposit.silent).toBe(true);

    await driveToCompletion(world, id);
    await waitFor(() => world.fake.message(forum.id, statusCard.message_id)?.reactions?.length, 'the reaction on the card');
    // ✅ is not a reaction the Bot API lists: the card gets 👍, and no "Swap completed" message.
    expect(world.fake.message(forum.id, statusCard.message_id)?.reactions).toEqual(['👍']);
    expect(world.fake.message(forum.id, statusCard.message_id)?.text).toMatch(/complete/i);
    expect(admin.messages().filter((m) => (m.text ?? '').startsWith('Swap completed'))).toEqual([]);
    expect(world.fake.callsTo('setMessageReaction').filter((c) => !c.ok)).toEqual([]);

    // Every message the bot sent to the forum went to the topic (answers and tracking alike).
    const sends = world.fake.calls.filter(
      (c) => c.method.startsWith('send') && c.method !== 'sendChatAction' && Number(c.payload.chat_id) === forum.id,
    );
    expect(sends.length).toBeGreaterThanOrEqual(4);
    for (const s of sends) expect(s.payload.message_thread_id).toBe(topic);
    expect(admin.messages().filter((m) => m.threadId !== topic)).toEqual([]);
  });
});

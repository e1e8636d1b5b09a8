import { describe, expect, it } from 'vitest';
import type { Json } from '../../fakes/bodies.js';
import { waitFor } from '../../support/wait.js';
import type { EphemeralMessage } from './fake-ephemeral.js';
import { newGroup, newUser } from './harness.js';
import { TgUser, useWorld } from './world.js';
import { t } from '../../../src/i18n/index.js';

/**
 * Ephemeral messages in groups (Bot API 10.3, ephemeral_message_parameters) through real grammY
 * and the real core: what is meant for one member goes to that member alone, as an ephemeral
 * message only where Telegram delivers one (tied to their button press, or from a bot that
 * administers the group), else an alert to their press, else a private message, else a neutral
 * pointer in the group; nothing meant for them ever reaches the group, and it is in their language.
 */
const world = useWorld('tg-ephemeral');
const botIsAdmin = (group: { id: number }) => world.fake.setMember(group.id, world.fake.bot.id, 'administrator');
const ephemeralTries = () => world.fake.callsTo('sendMessage').filter((c) => c.payload.ephemeral_message_parameters !== undefined);

const privately = (u: TgUser, match: string | RegExp): Promise<EphemeralMessage> =>
  waitFor(
    () =>
      world.fake.ephemeral.to(u.chat.id, u.user.id).find((m) => (typeof match === 'string' ? m.text.includes(match) : match.test(m.text))),
    `an ephemeral "${String(match)}" for ${u.user.first_name}`,
  );
const buttons = (m: { markup?: Json }): Json[] => ((m.markup?.inline_keyboard ?? []) as Json[][]).flat();
const REFUSED = {
  method: 'sendMessage',
  ephemeral: true,
  code: 400,
  description: 'Bad Request: ephemeral messages are not available in this chat',
} as const;

describe('Telegram ephemeral messages in a group', () => {
  it('/track, /untrack and /settings by a member where the bot is an admin: ephemeral, to that member only', async () => {
    const group = world.fake.chat(newGroup('Eph club'));
    botIsAdmin(group);
    const eve = new TgUser(world.fake, newUser('Eve'), group);
    eve.says('/track 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b');
    const track = await privately(eve, 'Only admins can do that here');
    expect(track.text).toContain("only the chat's admins can start or stop tracking");
    expect(track.callbackQueryId).toBeUndefined();
    eve.says('/untrack 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b');
    await waitFor(() => (world.fake.ephemeral.to(group.id, eve.user.id).length >= 2 ? true : undefined), 'the /untrack refusal');
    eve.says('/settings');
    await privately(eve, 'notification settings');
    expect(world.fake.ephemeral.to(group.id, eve.user.id)).toHaveLength(3);
    // Other members see nothing of it.
    expect(eve.messages()).toHaveLength(0);
  });

  it('an input error goes to the one who typed it', async () => {
    const group = world.fake.chat(newGroup('Typos'));
    botIsAdmin(group);
    const fay = new TgUser(world.fake, newUser('Fay'), group);
    world.fake.setMember(group.id, fay.user.id, 'administrator');
    fay.says('/track not-a-swap');
    const error = await privately(fay, /.+/);
    expect(error.text).toMatch(/swap id|transaction|address/i);
    expect(fay.messages()).toHaveLength(0);
  });

  it('an anonymous admin (no user to show it to) gets the input error in the group, as before', async () => {
    const group = world.fake.chat(newGroup('Anonymous'));
    world.fake.sendText(group, newUser('GroupAnonymousBot'), '/track not-a-swap', { senderChat: group });
    const error = await waitFor(() => world.fake.botMessages(group.id)[0], 'the input error in the group');
    expect(error.text).toMatch(/swap id|transaction|address/i);
  });

  it("a press on someone else's button: an ephemeral answer tied to that press; the pressed message is untouched", async () => {
    const group = newGroup('Buttons');
    const gil = new TgUser(world.fake, newUser('Gil'), group);
    gil.says('/swap 12 usdc arbitrum base');
    const question = await gil.sees('address on Base');
    const before = question.html;
    const hal = new TgUser(world.fake, newUser('Hal'), group);
    const { button } = gil.button('Cancel');
    const queryId = world.fake.press(hal.user, group.id, question.message_id, String(button.callback_data));
    const answer = await privately(hal, /.+/);
    expect(answer.callbackQueryId).toBe(queryId);
    expect(world.fake.message(group.id, question.message_id)?.html).toBe(before);
    await waitFor(
      () => world.fake.callsTo('answerCallbackQuery').find((c) => c.payload.callback_query_id === queryId),
      'the press answered',
    );
    expect(
      world.fake.callsTo('answerCallbackQuery').find((c) => c.payload.callback_query_id === queryId)?.payload.show_alert,
    ).toBeUndefined();
  });

  it('"Swap this" pressed by a member: the question and "Continue privately" for that member alone, no ForceReply in the group', async () => {
    const group = newGroup('Quotes');
    const ivy = new TgUser(world.fake, newUser('Ivy'), group);
    ivy.says('/quote 100 usdc arbitrum base');
    await ivy.sees('You send: 100 USDC on Arbitrum One');
    const joe = new TgUser(world.fake, newUser('Joe'), group);
    const publicBefore = ivy.messages().length;
    const { message, button } = ivy.button('Swap this');
    const queryId = world.fake.press(joe.user, group.id, message.message_id, String(button.callback_data));
    const ask = await privately(joe, 'address on Base');
    expect(ask.callbackQueryId).toBe(queryId);
    const go = buttons(ask).find((b) => b.text === 'Continue privately');
    expect(String(go?.url)).toMatch(/^https:\/\/t\.me\/swap_test_bot\?start=d_/);
    expect(JSON.stringify(ask.markup)).not.toContain('force_reply');
    expect(ivy.messages()).toHaveLength(publicBefore);
    // Cancel on it changes that ephemeral message in place; the group still sees nothing.
    const cancel = buttons(ask).find((b) => b.text === 'Cancel');
    const cancelled = world.fake.pressEphemeral(ask, String(cancel?.callback_data));
    await waitFor(() => (ask.versions.length > 0 ? true : undefined), 'the ephemeral question edited');
    expect(ask.text).not.toContain('address on Base');
    await waitFor(
      () => world.fake.callsTo('answerCallbackQuery').find((c) => c.payload.callback_query_id === cancelled),
      'the Cancel press answered',
    );
    expect(ivy.messages()).toHaveLength(publicBefore);
    // Swap this again; the link resumes Joe's new draft privately.
    const again = world.fake.press(joe.user, group.id, message.message_id, String(button.callback_data));
    const ask2 = await waitFor(
      () => world.fake.ephemeral.to(group.id, joe.user.id).find((m) => m.callbackQueryId === again),
      'the second question',
    );
    const go2 = buttons(ask2).find((b) => b.text === 'Continue privately');
    const dm = new TgUser(world.fake, joe.user, world.fake.privateChat(joe.user));
    expect(String(go2?.url)).not.toBe(String(go?.url));
    dm.says(`/start ${String(go2?.url).split('start=')[1]}`);
    await dm.sees('Continuing where you left off');
  });

  it("where Telegram refuses: a neutral pointer in the group, an alert for a press (in the presser's language); never the refusal itself", async () => {
    const group = world.fake.chat(newGroup('Old clients'));
    botIsAdmin(group);
    const kim = new TgUser(world.fake, newUser('Kim'), group);
    world.fake.failNext({ ...REFUSED, chatId: group.id });
    kim.says('/track 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b');
    const pointer = await kim.sees('I can only send this privately');
    expect(pointer.text).not.toContain('Only admins');
    expect(world.fake.ephemeral.to(group.id, kim.user.id)).toHaveLength(0);

    kim.says('/swap 12 usdc arbitrum base');
    const question = await kim.sees('Send the address on Base');
    // The question comes in two messages (the card with Cancel, then the force-reply prompt): wait for both.
    const prompt = await kim.sees('Your address on Base');
    const lee = { ...newUser('Lee'), language_code: 'pt' };
    world.fake.failNext({ ...REFUSED, chatId: group.id });
    const queryId = world.fake.press(lee, group.id, question.message_id, String(kim.button('Cancel').button.callback_data));
    const alert = await waitFor(
      () => world.fake.callsTo('answerCallbackQuery').find((c) => c.payload.callback_query_id === queryId),
      'the alert',
    );
    expect(alert.payload.show_alert).toBe(true);
    expect(String(alert.payload.text)).toContain(t('pt-BR', 'cancel.nothing.title'));
    expect(kim.messages().filter((m) => m.message_id > prompt.message_id)).toHaveLength(0);
  });

  it("the fake holds Telegram's documented limits: groups only, no login_url buttons, the receiver's own press", async () => {
    const api = world.telegram.bot.api;
    const group = world.fake.chat(newGroup('Limits'));
    const mia = newUser('Mia');
    const dm = world.fake.openDm(mia);
    await expect(api.sendMessage(dm.id, 'hi', { ephemeral_message_parameters: { receiver_user_id: mia.id } })).rejects.toThrow(
      /only to group chats/,
    );
    await expect(
      api.sendMessage(group.id, 'hi', {
        ephemeral_message_parameters: { receiver_user_id: mia.id },
        reply_markup: { inline_keyboard: [[{ text: 'Log in', login_url: { url: 'https://example.com/login' } }]] },
      }),
    ).rejects.toThrow(/login_url/);
    await expect(
      api.sendMessage(group.id, 'hi', { ephemeral_message_parameters: { receiver_user_id: mia.id, callback_query_id: 'q-none' } }),
    ).rejects.toThrow(/callback query/);
    // A bot that is a plain member: only tied to the receiver's press; an admin bot may send one unasked.
    await expect(api.sendMessage(group.id, 'hi', { ephemeral_message_parameters: { receiver_user_id: mia.id } })).rejects.toThrow(
      /not enough rights/,
    );
    botIsAdmin(group);
    const sent = await api.sendMessage(group.id, 'hi', { ephemeral_message_parameters: { receiver_user_id: mia.id } });
    expect(sent.message_id).toBe(0);
  });
});

describe('Telegram: a typed command in a group where the bot is a plain member (no ephemeral message possible)', () => {
  it('the refusal goes privately to a member who started the bot, in their own language; the group sees nothing', async () => {
    const group = world.fake.chat(newGroup('Members only'));
    const nia = { ...newUser('Nia'), language_code: 'es' };
    const dm = new TgUser(world.fake, nia, world.fake.openDm(nia));
    const inGroup = new TgUser(world.fake, nia, group);
    inGroup.says('/track 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b');
    const refusal = await dm.sees(t('es', 'follow.adminsOnly.title'));
    expect(refusal.text).not.toContain('Only admins');
    inGroup.says('/track not-a-swap');
    await waitFor(() => (dm.messages().length >= 2 ? true : undefined), 'the input error in private');
    expect(inGroup.messages()).toHaveLength(0);
    // Not even tried: Telegram refuses an unasked ephemeral message from a bot that is not an admin.
    expect(ephemeralTries().filter((c) => Number(c.payload.chat_id) === group.id)).toHaveLength(0);
  });

  it('a member who never started the bot: one neutral line with a link to the private chat, in their language, nothing of the refusal', async () => {
    const group = world.fake.chat(newGroup('Strangers'));
    const oli = new TgUser(world.fake, { ...newUser('Oli'), language_code: 'pt' }, group);
    oli.says('/track 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b');
    const pointer = await oli.sees(t('pt-BR', 'platform.telegram.privateOnly.text'));
    expect(pointer.text).not.toContain(t('pt-BR', 'follow.adminsOnly.title'));
    expect(buttons(pointer).map((b) => String(b.url))).toEqual(['https://t.me/swap_test_bot']);
    expect(oli.messages()).toHaveLength(1);
  });

  it("the group's language stays for the group: a public answer in English, the member's refusal in Spanish", async () => {
    const group = world.fake.chat(newGroup('Mixed'));
    const pia = { ...newUser('Pia'), language_code: 'es' };
    const dm = new TgUser(world.fake, pia, world.fake.openDm(pia));
    const inGroup = new TgUser(world.fake, pia, group);
    inGroup.says('/quote 100 usdc arbitrum base');
    await inGroup.sees('You send: 100 USDC on Arbitrum One');
    inGroup.says('/untrack 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b');
    await dm.sees(t('es', 'follow.adminsOnly.title'));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Incoming } from '../../../src/contracts/incoming.js';
import { actionButton, bold, code, copyButton, deeplinkButton, line, type Reply } from '../../../src/contracts/reply.js';
import { t } from '../../../src/i18n/index.js';
import { testRedis, uniquePrefix } from '../../support/redis.js';
import { ScriptedCore, newGroup, newUser, startHarness, type Harness } from './harness.js';
import { waitFor } from '../../support/wait.js';

/**
 * The real grammY bot against the fake Bot API, with a scripted core: how updates become
 * Incoming and how Replies land (targets, edits, alerts, prompts, fallbacks, retries).
 */
const prefix = uniquePrefix('tg-adapter');
const redis = testRedis(prefix);

const card = (title: string, extra: Partial<Reply> = {}): Reply => ({
  title,
  lines: [line('for ', bold('<you> & "them"'))],
  target: 'here',
  ...extra,
});

let gate: Promise<void> | undefined;
const core = new ScriptedCore(async (i: Incoming) => {
  const t = i.text ?? '';
  if (t.startsWith('/slow')) {
    await gate;
    return [card('slow done')];
  }
  if (t.startsWith('/boom')) throw new Error('core exploded');
  if (t.startsWith('/track')) return [card((await i.isChatAdmin?.()) ? 'admin ok' : 'admins only')];
  if (t.startsWith('/ask'))
    return [{ lines: [line('Send the address')], target: 'here', prompt: { label: 'Destination address', placeholder: '0x…' } }];
  if (t.startsWith('/secret')) {
    return [
      {
        title: 'Deposit',
        lines: [line('Send to ', code('0xabc'))],
        buttons: [[copyButton('Copy address', '0xabc')]],
        image: { png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]), alt: 'QR' },
        target: 'dm',
        dmFallback: {
          lines: [line('Open a private chat to get it')],
          buttons: [[deeplinkButton('Get details', 'dep_123')]],
          target: 'here',
        },
      },
    ];
  }
  if (t.startsWith('/mine')) return [{ lines: [line('only for you: your draft 0xfeed')], target: 'ephemeral' }];
  if (i.action === 'mine') return [{ lines: [line(`only for you: ${'your draft 0xfeed. '.repeat(15)}`)], target: 'ephemeral' }];
  if (i.action === 'next') return [card('step two', { mode: 'edit', buttons: [[actionButton('Back', 'back')]] })];
  if (i.action === 'same')
    return [card('step one', { mode: 'edit', buttons: [[actionButton('Next', 'next'), actionButton('Same', 'same')]] })];
  if (i.action !== undefined)
    return [{ title: 'This button has expired', tone: 'warning', lines: [line('Start again with /quote.')], target: 'here' }];
  if (t.startsWith('/start')) return [card(`started ${t.slice(7)}`)];
  return [card('step one', { buttons: [[actionButton('Next', 'next'), actionButton('Same', 'same')]] })];
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness(core, redis, prefix);
});
afterAll(async () => {
  await h?.close();
});

describe('Telegram adapter (real grammY, fake Bot API)', () => {
  it('answers a private command with escaped HTML and an inline keyboard', async () => {
    const alice = newUser();
    const chat = h.fake.privateChat(alice);
    h.fake.sendText(chat, alice, '/quote 100 usdc arb base');
    const [msg] = await waitFor(() => (h.fake.botMessages(chat.id).length ? h.fake.botMessages(chat.id) : undefined), 'a reply');
    expect(msg!.text).toContain('for <you> & "them"');
    expect(msg!.html).toContain('<b>step one</b>');
    expect(msg!.html).toContain('&lt;you&gt; &amp; &quot;them&quot;');
    expect(msg!.markup).toEqual({
      inline_keyboard: [
        [
          { text: 'Next', callback_data: 'next' },
          { text: 'Same', callback_data: 'same' },
        ],
      ],
    });
    const seen = core.seen.at(-1)!;
    expect(seen).toMatchObject({
      platform: 'telegram',
      userId: String(alice.id),
      userName: 'Alice',
      chatId: String(chat.id),
      chatKind: 'private',
      text: '/quote 100 usdc arb base',
    });
  });

  it('takes /cmd@thisbot in groups, ignores /cmd@otherbot and chatter', async () => {
    const bob = newUser('Bob');
    const group = newGroup();
    const before = core.seen.length;
    h.fake.sendText(group, bob, '/quote@other_bot 1 eth');
    h.fake.sendText(group, bob, 'hello everyone');
    h.fake.sendText(group, bob, `/quote@${h.fake.bot.username} 5 usdc arb base`);
    await waitFor(() => h.fake.botMessages(group.id).length === 1, 'the group reply');
    const seen = core.seen.slice(before);
    expect(seen.map((s) => s.text)).toEqual(['/quote 5 usdc arb base']);
    expect(seen[0]!.chatKind).toBe('group');
    // In a group the reply quotes the command, so it is clear whom it answers.
    expect(h.fake.botMessages(group.id)[0]!.replyTo).toBeGreaterThan(0);
  });

  it('edits the pressed message in place; identical content counts as success', async () => {
    const alice = newUser();
    const chat = h.fake.privateChat(alice);
    h.fake.sendText(chat, alice, '/swap');
    const first = await waitFor(() => h.fake.botMessages(chat.id)[0], 'the card');
    const q1 = h.fake.press(alice, chat.id, first.message_id, 'same');
    await waitFor(() => h.fake.callsTo('answerCallbackQuery').some((c) => c.payload.callback_query_id === q1), 'answer 1');
    const q2 = h.fake.press(alice, chat.id, first.message_id, 'next');
    await waitFor(() => h.fake.callsTo('answerCallbackQuery').some((c) => c.payload.callback_query_id === q2), 'answer 2');
    const msgs = h.fake.botMessages(chat.id);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]!.html).toContain('step two');
    expect(msgs[0]!.versions).toHaveLength(1);
    expect(core.seen.at(-1)).toMatchObject({
      action: 'next',
      messageRef: { platform: 'telegram', chatId: String(chat.id), messageId: String(first.message_id) },
    });
    // The 'same' press was refused by Telegram as "not modified", and answered quietly all the same.
    expect(h.fake.callsTo('editMessageText').find((c) => !c.ok)?.description).toMatch(/not modified/);
    expect(h.fake.callsTo('answerCallbackQuery').filter((c) => c.payload.callback_query_id === q1)[0]!.payload.show_alert).toBeUndefined();
  });

  it('a forged button gets a short alert, no message and no error', async () => {
    const alice = newUser();
    const chat = h.fake.privateChat(alice);
    h.fake.sendText(chat, alice, '/swap');
    const first = await waitFor(() => h.fake.botMessages(chat.id)[0], 'the card');
    const q = h.fake.press(alice, chat.id, first.message_id, 'x:forged:' + 'z'.repeat(40));
    const answer = await waitFor(() => h.fake.callsTo('answerCallbackQuery').find((c) => c.payload.callback_query_id === q), 'the alert');
    expect(answer.payload).toMatchObject({ show_alert: true });
    expect(String(answer.payload.text)).toMatch(/expired/);
    expect(h.fake.botMessages(chat.id)).toHaveLength(1);
    expect(h.logLines.join('')).not.toMatch(/"level":50/);
  });

  it('asks for free text with a ForceReply and a placeholder', async () => {
    const alice = newUser();
    const chat = h.fake.privateChat(alice);
    h.fake.sendText(chat, alice, '/ask');
    const msg = await waitFor(() => h.fake.botMessages(chat.id)[0], 'the prompt');
    expect(msg.markup).toEqual({ force_reply: true, input_field_placeholder: '0x…' });
  });

  it('in a group, a reply to the bot reaches the core as text; the prompt targets its asker', async () => {
    const bob = newUser('Bob');
    const group = newGroup();
    const cmd = h.fake.sendText(group, bob, '/ask');
    const prompt = await waitFor(() => h.fake.botMessages(group.id)[0], 'the prompt');
    expect(prompt.markup).toMatchObject({ force_reply: true, selective: true });
    expect(prompt.replyTo).toBe(cmd.message_id);
    h.fake.sendText(group, bob, '0xabc', { replyTo: prompt.message_id });
    await waitFor(() => core.seen.some((s) => s.text === '0xabc' && s.chatId === String(group.id)), 'the answer');
  });

  it('private details go by DM; a user who never opened one gets the deeplink in the group', async () => {
    const group = newGroup();
    const stranger = newUser('Stranger');
    h.fake.sendText(group, stranger, '/secret');
    const fb = await waitFor(() => h.fake.botMessages(group.id)[0], 'the fallback');
    expect(fb.text).toBe('Open a private chat to get it');
    expect(fb.markup).toEqual({ inline_keyboard: [[{ text: 'Get details', url: `https://t.me/${h.fake.bot.username}?start=dep_123` }]] });
    expect(h.fake.callsTo('sendPhoto').map((c) => [c.payload.chat_id, c.errorCode])).toContainEqual([String(stranger.id), 403]);
    expect(h.fake.botMessages(stranger.id)).toHaveLength(0);

    // The same user opens the private chat through the link; now the DM arrives with its QR.
    const dm = h.fake.privateChat(stranger);
    h.fake.sendText(dm, stranger, '/start dep_123');
    await waitFor(() => core.seen.some((s) => s.text === '/start dep_123' && s.chatKind === 'private'), '/start with payload');
    h.fake.sendText(group, stranger, '/secret');
    const photo = await waitFor(() => h.fake.botMessages(stranger.id).find((m) => m.photoSize), 'the DM photo');
    expect(photo.caption).toContain('Send to 0xabc');
    expect(photo.photoSize).toBe(8);
    expect(photo.markup).toEqual({ inline_keyboard: [[{ text: 'Copy address', copy_text: { text: '0xabc' } }]] });
    expect(h.fake.botMessages(group.id)).toHaveLength(1);
  });

  it('in a group, a reply meant for one person never lands in the group, even when no DM is possible', async () => {
    const group = newGroup();
    const stranger = newUser('Stranger');
    // The bot administers the group, so Telegram takes an unasked ephemeral message from it.
    h.fake.setMember(group.id, h.fake.bot.id, 'administrator');
    // Telegram shows it to the stranger alone (an ephemeral message): nothing in the group.
    h.fake.sendText(group, stranger, '/mine');
    await waitFor(() => h.fake.ephemeral.to(group.id, stranger.id)[0], 'the ephemeral answer');
    expect(h.fake.botMessages(group.id)).toHaveLength(0);
    // Where Telegram refuses ephemeral messages (old clients), a DM, else a pointer to the private chat.
    const refuse = () =>
      h.fake.failNext({
        method: 'sendMessage',
        chatId: group.id,
        code: 400,
        description: 'Bad Request: ephemeral messages are not available',
      });
    refuse();
    h.fake.sendText(group, stranger, '/mine');
    const notice = await waitFor(() => h.fake.botMessages(group.id)[0], 'the pointer to the private chat');
    expect(notice.text).toMatch(/only send this privately/);
    expect(
      h.fake
        .botMessages(group.id)
        .map((m) => m.text)
        .join(' '),
    ).not.toContain('0xfeed');

    // A button press: too long for an alert, no DM: an alert points to the private chat.
    h.fake.sendText(group, stranger, '/swap');
    const card = await waitFor(() => h.fake.botMessages(group.id).find((m) => m.text?.includes('step one')), 'a card with buttons');
    refuse();
    const q = h.fake.press(stranger, group.id, card.message_id, 'mine');
    const alert = await waitFor(() => h.fake.callsTo('answerCallbackQuery').find((c) => c.payload.callback_query_id === q), 'the alert');
    expect(alert.payload).toMatchObject({ show_alert: true });
    expect(String(alert.payload.text)).toMatch(/privately/);
    expect(
      h.fake
        .botMessages(group.id)
        .map((m) => m.text)
        .join(' '),
    ).not.toContain('0xfeed');
    expect(h.fake.botMessages(group.id)).toHaveLength(2);

    // With the private chat open, the long answer to the press goes there.
    h.fake.openDm(stranger);
    refuse();
    h.fake.press(stranger, group.id, card.message_id, 'mine');
    const dm = await waitFor(() => h.fake.botMessages(stranger.id)[0], 'the private answer');
    expect(dm.text).toContain('0xfeed');
    expect(h.fake.botMessages(group.id)).toHaveLength(2);
  });

  it("what the adapter says itself is in the presser's language: the pointer to the private chat", async () => {
    const group = newGroup();
    const sasha = { ...newUser('Sasha'), language_code: 'ru' };
    h.fake.sendText(group, sasha, '/swap');
    const card = await waitFor(() => h.fake.botMessages(group.id).find((m) => m.text?.includes('step one')), 'a card with buttons');
    h.fake.failNext({
      method: 'sendMessage',
      chatId: group.id,
      code: 400,
      description: 'Bad Request: ephemeral messages are not available',
    });
    const q = h.fake.press(sasha, group.id, card.message_id, 'mine');
    const alert = await waitFor(() => h.fake.callsTo('answerCallbackQuery').find((c) => c.payload.callback_query_id === q), 'the alert');
    expect(alert.payload).toMatchObject({
      show_alert: true,
      text: t('ru', 'platform.telegram.privateOnly.alert', { bot: `@${h.fake.bot.username}` }),
    });
    expect(String(alert.payload.text)).toMatch(/личном чате/);
  });

  it('group admins pass the admin check, members do not (asked once, then cached)', async () => {
    const group = newGroup();
    const admin = newUser('Ada');
    const member = newUser('Max');
    h.fake.setMember(group.id, admin.id, 'administrator');
    h.fake.sendText(group, admin, '/track abc');
    h.fake.sendText(group, member, '/track abc');
    h.fake.sendText(group, admin, '/track abc');
    await waitFor(() => h.fake.botMessages(group.id).length === 3, 'three replies');
    expect(h.fake.botMessages(group.id).map((m) => m.text?.split('\n')[0])).toEqual(['admin ok', 'admins only', 'admin ok']);
    expect(h.fake.callsTo('getChatMember').filter((c) => Number(c.payload.chat_id) === group.id)).toHaveLength(2);
  });

  it('channel posts with commands reach the core as the channel, an admin', async () => {
    const channel = { id: -1009990001, type: 'channel', title: 'Swap news' } as const;
    h.fake.sendText(channel, undefined, '/track abc', { senderChat: channel });
    const msg = await waitFor(() => h.fake.botMessages(channel.id)[0], 'the channel reply');
    expect(msg.text).toContain('admin ok');
    expect(core.seen.at(-1)).toMatchObject({ chatKind: 'channel', userName: 'Swap news' });
  });

  it('a failing core gives the user a polite message and the log no token', async () => {
    const alice = newUser();
    const chat = h.fake.privateChat(alice);
    h.fake.sendText(chat, alice, '/boom');
    const msg = await waitFor(() => h.fake.botMessages(chat.id)[0], 'the apology');
    expect(msg.text).toBe(t('en', 'error.bug.reason'));
    expect(h.logLines.join('')).toContain('core exploded');
    expect(h.logLines.join('')).not.toContain(h.fake.token.split(':')[1]!);
  });

  it('a 429 storm: every wait is obeyed and the reply still arrives', async () => {
    const alice = newUser();
    const chat = h.fake.privateChat(alice);
    h.fake.failNext({
      method: 'sendMessage',
      chatId: chat.id,
      times: 2,
      code: 429,
      description: 'Too Many Requests: retry after 1',
      retryAfter: 1,
    });
    h.fake.sendText(chat, alice, '/help');
    await waitFor(() => h.fake.botMessages(chat.id)[0], 'the reply after the storm');
    const attempts = h.fake.callsTo('sendMessage').filter((c) => Number(c.payload.chat_id) === chat.id);
    expect(attempts.map((a) => a.errorCode ?? 200)).toEqual([429, 429, 200]);
    // retry_after is a floor: no attempt came sooner than the server asked.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(950);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(950);
  });

  it('a long 429 is not waited out in an interactive reply: the user is told, nothing hangs', async () => {
    const alice = newUser();
    const chat = h.fake.privateChat(alice);
    h.fake.failNext({
      method: 'sendMessage',
      chatId: chat.id,
      times: 1,
      code: 429,
      description: 'Too Many Requests: retry after 600',
      retryAfter: 600,
    });
    h.fake.sendText(chat, alice, '/help');
    const msg = await waitFor(() => h.fake.botMessages(chat.id)[0], 'the apology');
    expect(msg.text).toBe(t('en', 'error.bug.reason'));
  });

  it('stop() lets the update in hand finish before it resolves', async () => {
    let release!: () => void;
    gate = new Promise<void>((r) => (release = r));
    const alice = newUser();
    const chat = h.fake.privateChat(alice);
    h.fake.sendText(chat, alice, '/slow');
    await waitFor(() => core.seen.some((s) => s.text === '/slow' && s.chatId === String(chat.id)), 'the slow command to start');
    let stopped = false;
    const stopping = h.telegram.stop().then(() => (stopped = true));
    // "Not yet" has no event to wait for: a short real pause, then stop() must still be waiting.
    await new Promise((r) => setTimeout(r, 100));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(h.fake.botMessages(chat.id)[0]?.text).toContain('slow done');
    // Polling again afterwards works (a restart in the same process).
    await h.telegram.start();
  });
});

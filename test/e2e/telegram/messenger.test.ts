import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../../src/contracts/incoming.js';
import { actionButton, deeplinkButton, line, type Reply } from '../../../src/contracts/reply.js';
import { TelegramMessenger } from '../../../src/platforms/telegram/messenger.js';
import { FakeBotApi } from './fake-bot-api.js';
import { newGroup, newUser } from './harness.js';
import { deliveryFailure } from '../../support/delivery.js';

/** The worker's Messenger over the Bot API alone: sends, edits, and failures normalised. */
let fake: FakeBotApi;
let messenger: TelegramMessenger;

beforeAll(async () => {
  fake = await FakeBotApi.start();
  messenger = new TelegramMessenger({ token: fake.token, apiRoot: fake.apiRoot });
});
afterAll(async () => {
  await fake?.close();
});

const status = (s: string): Reply => ({
  title: 'Swap 1a2b',
  lines: [line(`Status: ${s}`)],
  buttons: [[actionButton('Refresh', 'st:1')]],
  target: 'here',
});

function privateTarget(): ChatTarget {
  const u = newUser();
  fake.openDm(u);
  return { platform: 'telegram', chatId: String(u.id), chatKind: 'private' };
}

describe('TelegramMessenger', () => {
  it('sends a card and edits it in place; an identical edit succeeds', async () => {
    const target = privateTarget();
    const ref = await messenger.send(target, status('waiting for deposit'));
    expect(ref).toMatchObject({ platform: 'telegram', chatId: target.chatId });
    expect(await messenger.edit(ref, status('deposit seen'))).toEqual(ref);
    expect(await messenger.edit(ref, status('deposit seen'))).toEqual(ref);
    const msgs = fake.botMessages(Number(target.chatId));
    expect(msgs).toHaveLength(1);
    expect(msgs[0]!.text).toContain('Status: deposit seen');
    expect(msgs[0]!.versions).toHaveLength(1);
  });

  it('sends a photo with its caption, and replaces a photo it cannot edit to text', async () => {
    const target = privateTarget();
    const png = new Uint8Array(300).fill(7);
    const ref = await messenger.send(target, { ...status('new'), image: { png, alt: 'QR code' } });
    const photo = fake.message(Number(target.chatId), Number(ref.messageId))!;
    expect(photo.photoSize).toBe(300);
    expect(photo.caption).toContain('Status: new');
    const next = await messenger.edit(ref, status('completed'));
    expect(next.messageId).not.toBe(ref.messageId);
    expect(fake.message(Number(target.chatId), Number(next.messageId))!.text).toContain('completed');
  });

  it('builds deeplinks with the bot username from getMe', async () => {
    const target = privateTarget();
    const ref = await messenger.send(target, { lines: [line('Continue')], buttons: [[deeplinkButton('Open', 'd_abc')]], target: 'here' });
    expect(fake.message(Number(target.chatId), Number(ref.messageId))!.markup).toEqual({
      inline_keyboard: [[{ text: 'Open', url: `https://t.me/${fake.bot.username}?start=d_abc` }]],
    });
  });

  it('429 -> rate_limited with retry_after, and no retry inside the messenger', async () => {
    const target = privateTarget();
    fake.failNext({
      method: 'sendMessage',
      chatId: Number(target.chatId),
      code: 429,
      description: 'Too Many Requests: retry after 7',
      retryAfter: 7,
    });
    const e = await deliveryFailure(messenger.send(target, status('x')));
    expect(e.failure).toBe('rate_limited');
    expect(e.retryAfterMs).toBe(7000);
    expect(fake.callsTo('sendMessage').filter((c) => c.payload.chat_id === target.chatId)).toHaveLength(1);
  });

  it('blocked, kicked or unknown chats are gone; a deleted message is message_gone', async () => {
    const blocked = privateTarget();
    fake.blockBy(Number(blocked.chatId));
    expect((await deliveryFailure(messenger.send(blocked, status('x')))).failure).toBe('gone');
    expect(
      (await deliveryFailure(messenger.send({ platform: 'telegram', chatId: '-100424242', chatKind: 'group' }, status('x')))).failure,
    ).toBe('gone');
    const group = newGroup();
    fake.chat(group);
    fake.failNext({
      method: 'sendMessage',
      chatId: group.id,
      code: 403,
      description: 'Forbidden: bot was kicked from the supergroup chat',
    });
    expect(
      (await deliveryFailure(messenger.send({ platform: 'telegram', chatId: String(group.id), chatKind: 'group' }, status('x')))).failure,
    ).toBe('gone');
    const target = privateTarget();
    expect(
      (await deliveryFailure(messenger.edit({ platform: 'telegram', chatId: target.chatId, messageId: '999' }, status('x')))).failure,
    ).toBe('message_gone');
  });

  it('other 400s are rejected, 5xx transient; the token never shows in the error', async () => {
    const target = privateTarget();
    fake.failNext({ method: 'sendMessage', chatId: Number(target.chatId), code: 400, description: "Bad Request: can't parse entities" });
    const rejected = await deliveryFailure(messenger.send(target, status('x')));
    expect(rejected.failure).toBe('rejected');
    fake.failNext({ method: 'sendMessage', chatId: Number(target.chatId), code: 502, description: 'Bad Gateway' });
    const transient = await deliveryFailure(messenger.send(target, status('x')));
    expect(transient.failure).toBe('transient');
    const down = new TelegramMessenger({ token: fake.token, apiRoot: 'http://127.0.0.1:1' });
    const network = await deliveryFailure(down.send(target, status('x')));
    expect(network.failure).toBe('transient');
    for (const e of [rejected, transient, network]) {
      expect(JSON.stringify({ m: e.message, s: e.stack })).not.toContain(fake.token.split(':')[1]!);
      expect(e.cause).toBeUndefined();
    }
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Api } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { line, type Reply } from '../../src/contracts/reply.js';
import { DiscordMessenger } from '../../src/platforms/discord/messenger.js';
import { TelegramMessenger } from '../../src/platforms/telegram/messenger.js';
import { FakeBotApi } from '../e2e/telegram/fake-bot-api.js';
import { newUser } from '../e2e/telegram/harness.js';
import { startHarness, type Harness } from './support/harness.js';
import { deliveryFailure } from '../support/delivery.js';

/**
 * A send whose answer never comes (a timeout, a connection cut after the request was written) may
 * have been delivered: it is "in doubt". A key moment in doubt is not sent again (at most once: a
 * second "Swap completed" is a false alarm about money); a request that never connected is safe to
 * retry. Real grammY and discord.js over real sockets; the fake Telegram loses one answer.
 */

const note: Reply = { title: 'Swap 1a2b', lines: [line('a test message')], target: 'here' };

/** A port nothing listens on (connection refused). */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('a send with no answer', () => {
  let fake: FakeBotApi;
  let h: Harness;
  beforeAll(async () => {
    fake = await FakeBotApi.start();
    h = await startHarness({ tracking: { workers: { notifyBackoffMs: 50, notifyBackoffMaxMs: 200 } } });
    // Telegram answers within a second here, or the send counts as timed out.
    const telegram = new TelegramMessenger({ token: fake.token, api: new Api(fake.token, { apiRoot: fake.apiRoot, timeoutSeconds: 1 }) });
    await h.startWorkers({ messengers: { telegram } });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('"Swap completed" whose send timed out after Telegram took it is not sent again', async () => {
    const user = newUser('Timeout');
    fake.openDm(user);
    const chat: ChatTarget = { platform: 'telegram', chatId: String(user.id), chatKind: 'private' };
    const id = await h.createSwap();
    await h.tracking.service.follow(id, chat, { userId: chat.chatId, creator: true });
    await h.settle([id]);
    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    await h.settle([id]);
    expect(fake.botMessages(user.id).filter((m) => (m.text ?? '').startsWith('Deposit seen'))).toHaveLength(1);

    // The next new message (the card is edited in place) is "Swap completed": Telegram posts it,
    // and its answer is lost.
    fake.loseAnswers({ method: 'sendMessage', chatId: user.id });
    await h.settleUntilCompleted(id, 12);
    await h.settle([id]);

    const lost = fake.callsTo('sendMessage').filter((c) => c.held && Number(c.payload.chat_id) === user.id);
    expect(lost.map((c) => String(c.payload.text).split('\n')[0])).toEqual(['<b>Swap completed</b>']);
    expect(fake.botMessages(user.id).filter((m) => (m.text ?? '').startsWith('Swap completed'))).toHaveLength(1);
  });

  it('a status card whose send timed out is sent again (at least once): the chat keeps a live card', async () => {
    const user = newUser('CardTimeout');
    fake.openDm(user);
    const chat: ChatTarget = { platform: 'telegram', chatId: String(user.id), chatKind: 'private' };
    const id = await h.createSwap();
    fake.loseAnswers({ method: 'sendMessage', chatId: user.id });
    // Not the creator: the first poll sends this chat its card at once (and loses the answer).
    await h.tracking.service.follow(id, chat, { userId: chat.chatId });
    await h.settle([id]);
    const cards = () => fake.botMessages(user.id).filter((m) => (m.text ?? '').startsWith('Status card'));
    // Telegram cannot say whether the first one arrived (no id came back): one more, never a third.
    expect(cards().length).toBeGreaterThanOrEqual(1);
    expect(cards().length).toBeLessThanOrEqual(2);

    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    await h.settle([id]);
    // The card the record knows is the one kept current.
    expect(cards().at(-1)?.text).toContain('input pending');
    expect(fake.botMessages(user.id).filter((m) => (m.text ?? '').startsWith('Deposit seen'))).toHaveLength(1);
  });

  it('tells "never reached Telegram" (safe to retry) from "no answer" (in doubt)', async () => {
    const user = newUser('Classify');
    fake.openDm(user);
    const target: ChatTarget = { platform: 'telegram', chatId: String(user.id), chatKind: 'private' };
    const quick = (apiRoot: string) =>
      new TelegramMessenger({ token: fake.token, api: new Api(fake.token, { apiRoot, timeoutSeconds: 1 }) });

    const refused = await deliveryFailure(quick(`http://127.0.0.1:${await closedPort()}`).send(target, note));
    expect(refused.failure).toBe('transient');
    expect(refused.inDoubt).toBe(false);

    fake.loseAnswers({ method: 'sendMessage', chatId: user.id });
    const timedOut = await deliveryFailure(quick(fake.apiRoot).send(target, note));
    expect(timedOut.failure).toBe('transient');
    expect(timedOut.inDoubt).toBe(true);
    // It did arrive: exactly why it must not be sent blindly again.
    expect(fake.botMessages(user.id)).toHaveLength(1);
  });

  it('does the same on Discord (whose nonce makes a resend safe anyway)', async () => {
    const channel: ChatTarget = { platform: 'discord', chatId: '123456789012345678', chatKind: 'channel' };
    const refused = await deliveryFailure(
      new DiscordMessenger({ token: 'x.y.z', api: `http://127.0.0.1:${await closedPort()}/api`, timeoutMs: 1_000 }).send(channel, note),
    );
    expect(refused.failure).toBe('transient');
    expect(refused.inDoubt).toBe(false);

    // A Discord that reads the request and never answers.
    const silent = http.createServer((req) => req.resume());
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = silent.address() as AddressInfo;
      const timedOut = await deliveryFailure(
        new DiscordMessenger({ token: 'x.y.z', api: `http://127.0.0.1:${port}/api`, timeoutMs: 500 }).send(channel, note),
      );
      expect(timedOut.failure).toBe('transient');
      expect(timedOut.inDoubt).toBe(true);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});

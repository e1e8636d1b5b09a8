import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../../src/contracts/incoming.js';
import { DeliveryError } from '../../../src/contracts/messenger.js';
import { code, line, type Reply } from '../../../src/contracts/reply.js';
import { DiscordMessenger } from '../../../src/platforms/discord/messenger.js';
import { FakeDiscord } from './fake-discord.js';
import type { FakeGuild, FakeUser } from './fake-world.js';
import { embedOf, unescape } from './harness.js';

/** DiscordMessenger (REST alone, as the tracking worker uses it) against the fake Discord. */
let fake: FakeDiscord;
let messenger: DiscordMessenger;
let guild: FakeGuild;
let alice: FakeUser;
let closedDms: FakeUser;
const token = 'MTEw.messenger.test-token-abcdef';
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

const card = (status: string): Reply => ({
  title: `Swap 1234abcd: ${status}`,
  tone: 'pending',
  lines: [line('Deposit ', code('0xabc')), line('ping @everyone <@&1>')],
  target: 'here',
});

beforeAll(async () => {
  fake = await FakeDiscord.start({ token, applicationId: '1100000000000000009' });
  alice = fake.world.addUser({ id: '2200000000000000001', username: 'alice' });
  closedDms = fake.world.addUser({ id: '2200000000000000002', username: 'closed', dmClosed: true });
  guild = fake.world.addGuild({ name: 'G', ownerId: alice.id, channels: ['general', 'locked'] });
  const locked = fake.world.channels.get(guild.channelIds[1] ?? '');
  if (locked) locked.missingAccess = true;
  messenger = new DiscordMessenger({ token, api: fake.apiUrl });
});
afterAll(async () => fake?.close());

const channel = (): ChatTarget => ({ platform: 'discord', chatId: guild.channelIds[0] ?? '', chatKind: 'group' });
const dmOf = (u: FakeUser): ChatTarget => ({ platform: 'discord', chatId: u.id, chatKind: 'private' });

async function failure(p: Promise<unknown>): Promise<DeliveryError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  const d = error as DeliveryError;
  expect(d.message).not.toContain(token);
  return d;
}

describe('DiscordMessenger', () => {
  it('posts a card to a server channel and edits it in place, with mentions disabled', async () => {
    const ref = await messenger.send(channel(), card('Waiting for your deposit'));
    expect(ref).toMatchObject({ platform: 'discord', chatId: channel().chatId });
    await messenger.edit(ref, card('Completed'));
    const message = fake.message(ref.messageId);
    expect(message.history).toHaveLength(2);
    expect(unescape(String(embedOf(message).title))).toBe('Swap 1234abcd: Completed');
    expect(String(embedOf(message).description)).toContain('\\@everyone \\<\\@\\&1\\>');
    const writes = fake.requests.filter((r) => r.path.startsWith(`/channels/${ref.chatId}/messages`));
    expect(writes.map((r) => r.method)).toEqual(['POST', 'PATCH']);
    for (const w of writes) expect((w.body as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });
  });

  it('opens a DM channel once per user and uploads the image as an attachment the embed shows', async () => {
    const opened = () => fake.requests.filter((r) => r.path === '/users/@me/channels').length;
    const before = opened();
    const first = await messenger.send(dmOf(alice), { ...card('Waiting'), image: { png, alt: 'QR code', filename: 'deposit-qr.png' } });
    const second = await messenger.send(dmOf(alice), card('Deposit received'));
    expect(opened() - before).toBe(1);
    const dm = fake.world.dmChannel(alice.id);
    expect(first.chatId).toBe(dm.id);
    expect(second.chatId).toBe(dm.id);
    const withImage = fake.message(first.messageId);
    expect(withImage.attachments.map((a) => a.filename)).toEqual(['deposit-qr.png']);
    expect(withImage.attachments[0]?.bytes.equals(Buffer.from(png))).toBe(true);
    expect((embedOf(withImage).image as { url: string }).url).toBe('attachment://deposit-qr.png');
    // An edit without an image drops the old one: the card never shows a stale QR.
    await messenger.edit(first, card('Completed'));
    expect(fake.message(first.messageId).attachments).toEqual([]);
  });

  it('reports a 429 as rate_limited with the wait, without waiting itself, and succeeds after it', async () => {
    fake.fail({ method: 'POST', path: /^\/channels\/\d+\/messages$/, status: 429, retryAfter: 0.3 });
    const posts = () => fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${channel().chatId}/messages`).length;
    const before = posts();
    const limited = await failure(messenger.send(channel(), card('Waiting')));
    expect(limited.failure).toBe('rate_limited');
    expect(limited.retryAfterMs).toBeGreaterThanOrEqual(300);
    expect(limited.retryAfterMs).toBeLessThan(2_000);
    expect(posts() - before).toBe(1); // the REST client did not retry on its own
    // discord.js keeps the bucket's reset on the real clock (nothing to inject): wait it out, as the caller would.
    await new Promise((r) => setTimeout(r, limited.retryAfterMs));
    const ref = await messenger.send(channel(), card('Waiting'));
    expect(fake.message(ref.messageId).deleted).toBe(false);
  });

  it('reports a global 429 as rate_limited too', async () => {
    fake.fail({ path: /^\/channels\//, status: 429, retryAfter: 0.2, global: true });
    const limited = await failure(messenger.send(channel(), card('Waiting')));
    expect(limited.failure).toBe('rate_limited');
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    // The global limit lives in discord.js on the real clock: let it pass so the next test starts clean.
    await new Promise((r) => setTimeout(r, limited.retryAfterMs));
  });

  it('sorts refusals: gone chats, gone messages, bad content, outages', async () => {
    expect(
      (await failure(messenger.send({ platform: 'discord', chatId: '999999999999999999', chatKind: 'group' }, card('x')))).failure,
    ).toBe('gone'); // 10003
    expect(
      (await failure(messenger.send({ platform: 'discord', chatId: guild.channelIds[1] ?? '', chatKind: 'group' }, card('x')))).failure,
    ).toBe('gone'); // 50001
    expect((await failure(messenger.send(dmOf(closedDms), card('x')))).failure).toBe('gone'); // 50007
    expect((await failure(messenger.send(dmOf({ id: '2299999999999999999', username: 'nobody' }), card('x')))).failure).toBe('gone'); // unknown user
    expect(
      (await failure(messenger.edit({ platform: 'discord', chatId: channel().chatId, messageId: '1234567890123456789' }, card('x'))))
        .failure,
    ).toBe('message_gone'); // 10008

    const tooManyFields: Reply = { ...card('x'), fields: Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, value: line('v') })) };
    const ref = await messenger.send(channel(), tooManyFields); // fitted to 25 fields, so Discord accepts it
    expect((embedOf(fake.message(ref.messageId)).fields as unknown[]).length).toBe(25);
    fake.fail({ path: /^\/channels\//, status: 400, code: 50035, message: 'Invalid Form Body' });
    expect((await failure(messenger.send(channel(), card('x')))).failure).toBe('rejected');

    fake.fail({ path: /^\/channels\//, status: 502 });
    const posts = fake.requests.length;
    expect((await failure(messenger.send(channel(), card('x')))).failure).toBe('transient');
    expect(fake.requests.length - posts).toBe(1); // no retries here: the queue's backoff owns them
  });

  it('reports an unreachable Discord as transient', async () => {
    const offline = new DiscordMessenger({ token, api: 'http://127.0.0.1:9/api', timeoutMs: 2_000 });
    const error = await failure(offline.send(channel(), card('x')));
    expect(error.failure).toBe('transient');
  });
});

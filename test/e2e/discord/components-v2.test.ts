import { REST, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { code, line, link, urlButton, actionButton, type Reply } from '../../../src/contracts/reply.js';
import { DiscordMessenger } from '../../../src/platforms/discord/messenger.js';
import { renderReply } from '../../../src/platforms/discord/render.js';
import { countComponents, V2_LIMITS } from '../../../src/platforms/discord/render-v2.js';
import type { Json } from '../../fakes/bodies.js';
import { FakeDiscord } from './fake-discord.js';
import type { FakeGuild } from './fake-world.js';

/**
 * Components V2 cards (Reply.layout 'card') within Discord's documented limits, and the fake that
 * refuses what Discord refuses: content or embeds with the flag, more than 40 components, an edit
 * that drops the flag.
 */
let fake: FakeDiscord;
let rest: REST;
let messenger: DiscordMessenger;
let guild: FakeGuild;
const token = 'MTEw.components-v2.token-abcdef';
const channel = () => guild.channelIds[0] ?? '';
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

beforeAll(async () => {
  fake = await FakeDiscord.start({ token, applicationId: '1100000000000000009' });
  const owner = fake.world.addUser({ id: '2400000000000000001', username: 'owner' });
  guild = fake.world.addGuild({ name: 'V2', ownerId: owner.id, channels: ['general'] });
  rest = new REST({ api: fake.apiUrl }).setToken(token);
  messenger = new DiscordMessenger({ token, api: fake.apiUrl });
});
afterAll(async () => fake?.close());

/** A status card as big as they come: many transaction lines with explorer links, every field. */
function bigCard(): Reply {
  const tx = (n: number) =>
    line(`Transaction ${n}: 2/3 confirmations `, link('explorer', `https://explorer.example/tx/0x${String(n).padStart(64, '0')}`));
  return {
    layout: 'card',
    title: 'Swap 1234abcd: Deposit seen, confirming',
    tone: 'pending',
    lines: [line('x'.repeat(1500)), ...Array.from({ length: 12 }, (_, i) => tx(i)), line('y'.repeat(3000))],
    fields: Array.from({ length: 12 }, (_, i) => ({ name: `Field ${i}`, value: line(code('0x'.padEnd(42, 'a'))) })),
    buttons: [
      Array.from({ length: 8 }, (_, i) => actionButton(`Action ${i}`, `act:${i}`)),
      [urlButton('Open', 'https://layerswap.io')],
      Array.from({ length: 5 }, (_, i) => actionButton(`More ${i}`, `more:${i}`)),
    ],
    image: { png, alt: 'QR', filename: 'qr.png' },
    target: 'here',
  };
}

describe('Components V2 cards', () => {
  it('a big card renders within the limits and the fake accepts it; edits keep the flag', async () => {
    const rendered = renderReply(bigCard());
    const v2 = rendered.v2 ?? [];
    expect(countComponents(v2)).toBeLessThanOrEqual(V2_LIMITS.components);
    const texts: string[] = [];
    const walk = (c: Json) => {
      if (c.type === 10) texts.push(String(c.content));
      for (const k of (c.components ?? []) as Json[]) walk(k);
    };
    (v2 as unknown as Json[]).forEach(walk);
    expect(texts.join('').length).toBeLessThanOrEqual(V2_LIMITS.text);
    expect(texts.join('')).toContain('Swap 1234abcd');
    expect(((v2[0] as unknown as Json).components as Json[]).length).toBeLessThanOrEqual(V2_LIMITS.containerChildren);
    const ref = await messenger.send({ platform: 'discord', chatId: channel(), chatKind: 'group' }, bigCard());
    const stored = fake.message(ref.messageId);
    expect(Number(stored.body.flags) & (1 << 15)).toBe(1 << 15);
    expect(stored.body.embeds ?? []).toEqual([]);
    await messenger.edit(ref, { ...bigCard(), tone: 'success', title: 'Swap 1234abcd: Completed' });
    expect(((fake.message(ref.messageId).body.components as Json[])[0] as Json).accent_color).toBe(0x57f287);
  });

  it('an embed message (the "which swap?" list) edited into a V2 card: the flag with embeds cleared, accepted once', async () => {
    const list: Reply = { title: 'Which swap?', lines: [line('Pick one.')], buttons: [[actionButton('1234abcd', 'st:1')]], target: 'here' };
    const ref = await messenger.send({ platform: 'discord', chatId: channel(), chatKind: 'group' }, list);
    const before = fake.requests.length;
    await messenger.edit(ref, bigCard());
    const edits = fake.requests.slice(before).filter((c) => c.method === 'PATCH');
    expect(edits).toHaveLength(1);
    expect(edits[0]?.status).toBe(200);
    const stored = fake.world.messages.get(ref.messageId);
    expect(stored?.body.embeds ?? []).toEqual([]);
    expect(Number(stored?.body.flags) & (1 << 15)).not.toBe(0);
  });

  it('the fake refuses content or embeds with the flag, more than 40 components, and an edit that drops the flag', async () => {
    const text = (content: string) => ({ type: 10, content });
    const post = (body: Json) => rest.post(Routes.channelMessages(channel()), { body });
    await expect(post({ flags: 1 << 15, content: 'hi', components: [text('a')] })).rejects.toThrow(/Invalid Form Body/);
    await expect(post({ flags: 1 << 15, embeds: [{ title: 'x' }], components: [text('a')] })).rejects.toThrow(/Invalid Form Body/);
    const many = {
      type: 17,
      components: Array.from({ length: 10 }, () => ({
        type: 1,
        components: Array.from({ length: 5 }, (_, i) => ({ type: 2, style: 5, label: `L${i}`, url: `https://x.example/${i}` })),
      })),
    };
    await expect(post({ flags: 1 << 15, components: [many] })).rejects.toThrow(/Invalid Form Body/);
    await expect(post({ flags: 1 << 15, components: [{ type: 11, media: { url: 'https://x.example/a.png' } }] })).rejects.toThrow(
      /Invalid Form Body/,
    );
    const ok = (await post({ flags: 1 << 15, components: [text('fine')] })) as { id: string };
    await expect(
      rest.patch(Routes.channelMessage(channel(), ok.id), { body: { flags: 0, embeds: [{ title: 'back to an embed' }] } }),
    ).rejects.toThrow(/Invalid Form Body/);
  });
});

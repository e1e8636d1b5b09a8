import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Incoming } from '../../../src/contracts/incoming.js';
import { actionButton, line, type Reply } from '../../../src/contracts/reply.js';
import type { Json } from '../../fakes/bodies.js';
import type { Where } from './fake-discord.js';
import type { FakeGuild, InteractionState, StoredMessage } from './fake-world.js';
import { connectBot, embedText, ScriptedCore, startDiscordWorld, unescape, type DiscordHarness } from './harness.js';
import { waitFor } from '../../support/wait.js';

/**
 * The app installed on a user's account, used in a server that never added the bot: the bot can
 * only answer the interaction. /quote is answered there; /swap continues in the bot DM; nothing is
 * posted to the channel (the fake refuses it: Missing Access) and nobody may make it follow a swap.
 */
let h: DiscordHarness;
let elsewhere: FakeGuild;
let visitor: Where;

const core = new ScriptedCore(async (i: Incoming): Promise<Reply[]> => {
  const cmd = i.text ?? i.action ?? '';
  if (cmd.startsWith('/quote'))
    return [
      { title: 'Quote: 100 USDC', lines: [line('You receive 99.5 USDC')], buttons: [[actionButton('Refresh', 'qr:1')]], target: 'here' },
    ];
  if (cmd.startsWith('/swap'))
    return [{ title: 'Your address on Base?', lines: [line('So far: 100 USDC on Arbitrum One → USDC on Base')], target: 'here' }];
  if (cmd.startsWith('/status')) return [{ lines: [line(`admin: ${String(await i.isChatAdmin?.())}`)], target: 'here' }];
  return [];
});

beforeAll(async () => {
  const world = await startDiscordWorld();
  const owner = world.fake.world.addUser({ id: '2100000000000000009', username: 'stranger' });
  elsewhere = world.fake.world.addGuild({ name: 'Elsewhere', ownerId: owner.id, channels: ['chat'], withBot: false });
  world.fake.world.addMember(elsewhere, world.alice.user.id);
  visitor = { user: world.alice.user, guild: elsewhere, userInstall: true };
  h = await connectBot(world, core);
});
afterAll(async () => h?.close());

async function answerOf(it: InteractionState): Promise<StoredMessage> {
  const id = await waitFor(() => (it.originalId && !h.fake.message(it.originalId).loading ? it.originalId : undefined), 'an answer');
  return h.fake.message(id);
}
const lastSeen = () => core.seen[core.seen.length - 1];
const channelPosts = () => h.fake.requests.filter((r) => r.method === 'POST' && /^\/channels\/\d+\/messages$/.test(r.path));

describe('a user-installed app where the bot is not a member', () => {
  it('answers /quote through the interaction, as a public chat, without posting to the channel', async () => {
    const posts = channelPosts().length;
    const answer = await answerOf(
      h.fake.slashCommand(visitor, 'quote', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET' }),
    );
    expect(answer.ephemeral).toBe(false);
    expect(answer.interactionId).toBeDefined();
    expect(unescape(embedText(answer))).toContain('You receive 99.5 USDC');
    expect(lastSeen()).toMatchObject({ chatKind: 'group', chatId: elsewhere.channelIds[0] });
    expect(channelPosts()).toHaveLength(posts);
  });

  it('nobody administers the chat there, so nothing can be made to follow a swap in it', async () => {
    const answer = await answerOf(h.fake.slashCommand(visitor, 'status', { swap_id: 'abc' }));
    expect(unescape(embedText(answer))).toBe('admin: false');
  });

  it('continues /swap in the bot DM: the wizard there, an ephemeral answer here with a button to it', async () => {
    const it1 = h.fake.slashCommand(visitor, 'swap', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET' });
    const answer = await answerOf(it1);
    expect(answer.ephemeral).toBe(true);
    expect(unescape(embedText(answer))).toContain('I continued there');
    const dm = h.fake.world.dmChannel(h.alice.user.id);
    const link = ((answer.body.components as Json[])[0]?.components as Json[])[0];
    expect(link).toMatchObject({ label: 'Continue in DM', url: `https://discord.com/channels/@me/${dm.id}` });
    // The core ran it as the user's private chat, and its question went to the DM.
    expect(lastSeen()).toMatchObject({
      text: '/swap 100 USDC ARBITRUM_MAINNET BASE_MAINNET',
      chatKind: 'private',
      chatId: h.alice.user.id,
    });
    const inDm = h.fake.messagesIn(dm.id).at(-1) as StoredMessage;
    expect(unescape(embedText(inDm))).toContain('So far: 100 USDC on Arbitrum One → USDC on Base');
    expect(h.fake.messagesIn(elsewhere.channelIds[0] as string).filter((m) => !(m.interactionId !== undefined))).toEqual([]);
  });

  it('the same /swap in a server that added the bot runs there as before', async () => {
    await answerOf(h.fake.slashCommand(h.alice, 'swap', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET' }));
    expect(lastSeen()).toMatchObject({ chatKind: 'group', chatId: h.guild.channelIds[0] });
  });

  it('the fake refuses channel messages where the bot is not a member (Missing Access)', async () => {
    const res = await fetch(`${h.fake.apiUrl}/v10/channels/${elsewhere.channelIds[0]}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${h.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'hi' }),
    });
    expect(res.status).toBe(403);
  });
});

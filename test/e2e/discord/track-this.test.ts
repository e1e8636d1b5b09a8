import { beforeAll, describe, expect, it } from 'vitest';
import { TRACK_THIS_NAME } from '../../../src/platforms/discord/commands.js';
import { waitFor } from '../../support/wait.js';
import { answerOf, buttonId, buttonLabels, embedText, unescape, useLiveDiscord } from './harness.js';
import { swapRequest } from '../../support/swaps.js';

/**
 * "Track this swap" (a message command, type 3) through the real discord.js client and the real
 * core: on a message naming a swap id, a deposit hash or an address, the swap's masked card for
 * the one who asked, with follow here (admins) and follow privately (anyone); else a helpful note.
 */
const h = useLiveDiscord('dc-track-this');
const DEST = '0x2222222222222222222222222222222222222222';
let swapId = '';
let hash = '';

beforeAll(async () => {
  const created = await h.live.api.createSwap(swapRequest(DEST));
  swapId = created.swap.id;
  h.live.sandbox.deposit(swapId);
  h.live.clock.advance(20_000);
  hash = (await h.live.api.getSwap(swapId)).swap.transactions.find((t) => t.type === 'input')?.transaction_hash ?? '';
});

const author = () => h.alice.user;

describe('Discord "Track this swap"', () => {
  it('a message with a swap id: the masked card, only to the member, with "Follow privately"', async () => {
    const it = h.fake.messageCommand(h.alice, TRACK_THIS_NAME, { author: author(), content: `my swap ${swapId} is stuck, help` });
    const card = await answerOf(h.fake, it);
    expect(card.ephemeral).toBe(true);
    const text = unescape(embedText(card));
    expect(text).toContain(swapId.slice(0, 8));
    expect(text).not.toContain(DEST);
    expect(buttonLabels(card)).toEqual(['Follow privately']);
    // Following privately answers for the presser alone.
    const press = h.fake.pressButton(h.alice, card, buttonId(card, 'Follow privately'));
    await waitFor(() => press.callbacks.length > 0 || undefined, 'the Follow privately answer');
    const follow = await waitFor(
      () => h.fake.messagesIn(card.channelId).find((m) => m.ephemeral && /privately/.test(unescape(embedText(m))) && m.id !== card.id),
      'the follow confirmation',
    );
    expect(unescape(embedText(follow))).toContain("I will send this swap's updates to you privately.");
  });

  it('an admin also gets "Follow in this channel"', async () => {
    const card = await answerOf(h.fake, h.fake.messageCommand(h.mod, TRACK_THIS_NAME, { author: author(), content: swapId }));
    expect(buttonLabels(card)).toEqual(['Follow in this channel', 'Follow privately']);
  });

  it('a deposit transaction hash and an address find the swap', async () => {
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const byHash = await answerOf(
      h.fake,
      h.fake.messageCommand(h.alice, TRACK_THIS_NAME, { author: author(), content: `sent it: ${hash}` }),
    );
    expect(unescape(embedText(byHash))).toContain(swapId.slice(0, 8));
    const byAddress = await answerOf(
      h.fake,
      h.fake.messageCommand(h.alice, TRACK_THIS_NAME, { author: author(), content: `wallet ${DEST}` }),
    );
    expect(byAddress.ephemeral).toBe(true);
    expect(unescape(embedText(byAddress))).toContain(swapId.slice(0, 8));
    expect(unescape(embedText(byAddress))).not.toContain(DEST);
  });

  it("on the bot's own Components V2 card, the id in its text displays finds the swap", async () => {
    const card = await answerOf(
      h.fake,
      h.fake.messageCommand(h.alice, TRACK_THIS_NAME, {
        author: author(),
        content: '',
        flags: 1 << 15,
        components: [{ type: 17, components: [{ type: 10, content: `### Swap ${swapId.slice(0, 8)}\n**Swap id:** \`${swapId}\`` }] }],
      }),
    );
    expect(unescape(embedText(card))).toContain(swapId.slice(0, 8));
    expect(buttonLabels(card)).toContain('Follow privately');
  });

  it('nothing recognisable: a helpful note, only to the member', async () => {
    const note = await answerOf(
      h.fake,
      h.fake.messageCommand(h.alice, TRACK_THIS_NAME, { author: author(), content: 'gm everyone, how do fees work?' }),
    );
    expect(note.ephemeral).toBe(true);
    expect(unescape(embedText(note))).toContain('No swap in that message');
    expect(unescape(embedText(note))).toContain('swap id, a deposit transaction hash or a wallet address');
  });
});

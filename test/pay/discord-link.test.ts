import { describe, expect, it } from 'vitest';
import { verifyLink } from '../../src/pay/access.js';
import { payLinks } from '../../src/pay/links.js';
import type { Where } from '../e2e/discord/fake-discord.js';
import type { StoredMessage } from '../e2e/discord/fake-world.js';
import {
  afterPress,
  answerOf,
  buttonId,
  buttonLabels,
  componentsOf,
  embedText,
  titleOf,
  unescape,
  useLiveDiscord,
} from '../e2e/discord/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * "Pay from wallet" on Discord, through the real discord.js client against the fake Discord: the
 * swap is made in a server channel, its deposit card goes to the creator's DM with a link button to
 * the pay page, whose URL is a signed one-time link bound to that person and that swap, expiring;
 * nothing of it reaches the channel (neither the link nor the swap), and no one else gets one.
 */
const SECRET = 'pay-link-secret-for-tests-0123456789abcdef';
const TTL = 900;
const h = useLiveDiscord('paydc', {
  payLinks: (now) => payLinks({ baseUrl: 'https://pay.example.com', secret: SECRET, ttlSeconds: TTL, now }),
});
const ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';

async function press(who: Where, message: StoredMessage, label: string): Promise<StoredMessage> {
  const before = message.history.length;
  return afterPress(h.fake, h.fake.pressButton(who, message, buttonId(message, label)), message, before);
}

const linkButtons = (m: StoredMessage) => componentsOf(m).filter((c) => c.type === 2 && c.style === 5);

describe('Pay from wallet on Discord', () => {
  it('the deposit card in the DM carries a link button to the signed one-time page URL; the server channel sees none of it', async () => {
    const quote = h.fake.slashCommand(h.alice, 'quote', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET' });
    const card = await answerOf(h.fake, quote);
    const swapThis = h.fake.pressButton(h.alice, card, buttonId(card, 'Swap this'));
    await waitFor(() => swapThis.callbacks[0], 'the answer to Swap this');
    let step = await afterPress(h.fake, h.fake.submitModal(h.alice, swapThis, ADDRESS), card, card.history.length);
    for (let i = 0; i < 6 && !buttonLabels(step).includes('Confirm'); i++) {
      const next = ['Skip (no refund address)', 'No refuel'].find((l) => buttonLabels(step).includes(l));
      if (!next) throw new Error(`wizard stuck at: ${embedText(step)} [${buttonLabels(step).join(', ')}]`);
      step = await press(h.alice, step, next);
    }
    const dm = h.fake.world.dmChannel(h.alice.user.id).id;
    const confirmed = h.fake.pressButton(h.alice, step, buttonId(step, 'Confirm'));
    const deposit = await waitFor(
      () => h.fake.messagesIn(dm).find((m) => unescape(titleOf(m)).startsWith('Deposit for swap')),
      'the deposit card in the DM',
    );
    await waitFor(() => confirmed.callbacks[0], 'Confirm acknowledged');
    const swapId = /Swap id: `([0-9a-f-]{36})`/.exec(unescape(embedText(deposit)))?.[1] ?? '';

    // A link button (style 5) to the page, the token in the fragment, bound to Alice and this swap.
    const [pay, ...others] = linkButtons(deposit).filter((b) => b.label === 'Pay from wallet');
    expect(others).toEqual([]);
    const url = new URL(String(pay?.url));
    expect(`${url.origin}${url.pathname}`).toBe('https://pay.example.com/pay/');
    expect(url.search).toBe('');
    const token = new URLSearchParams(url.hash.slice(1)).get('t') ?? '';
    const now = h.live.clock.now();
    const claims = verifyLink(token, SECRET, now);
    expect(claims.ok && claims.value).toMatchObject({ platform: 'discord', userId: h.alice.user.id, swapId });
    expect(claims.ok && claims.value.exp).toBe(Math.floor(now / 1000) + TTL);
    // Signed with this server's secret only, and good only until it expires.
    expect(verifyLink(token, `${SECRET}-other`, now)).toMatchObject({ ok: false });
    expect(verifyLink(token, SECRET, now + (TTL + 1) * 1000)).toEqual({ ok: false, why: 'expired' });

    // The server channel: no page link, no swap id, in anything posted there (ephemeral notes included).
    const general = h.guild.channelIds[0] ?? '';
    const channel = h.fake
      .messagesIn(general)
      .map((m) => unescape(JSON.stringify(m.history)))
      .join('\n');
    expect(channel).not.toContain('/pay/');
    expect(channel).not.toContain(swapId);
    const notes = confirmed.followupIds.map((id) => h.fake.message(id));
    for (const n of notes) expect(linkButtons(n).map((b) => b.url)).not.toContainEqual(expect.stringContaining('/pay/'));

    // Someone else asking for the card (Status in the channel) gets no link to pay it.
    const status = await answerOf(h.fake, h.fake.slashCommand(h.tracker, 'status', { swap_id: swapId }));
    expect(unescape(embedText(status))).toContain(swapId.slice(0, 8));
    expect(linkButtons(status).map((b) => String(b.url))).not.toContainEqual(expect.stringContaining('/pay/'));
  });
});

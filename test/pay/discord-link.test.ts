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

/** /quote, Swap this, the address, no refund address, no refuel: the confirmation, where `who` is. */
async function toConfirmation(who: Where): Promise<StoredMessage> {
  const quote = h.fake.slashCommand(who, 'quote', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET' });
  const card = await answerOf(h.fake, quote);
  const swapThis = h.fake.pressButton(who, card, buttonId(card, 'Swap this'));
  await waitFor(() => swapThis.callbacks[0], 'the answer to Swap this');
  let step = await afterPress(h.fake, h.fake.submitModal(who, swapThis, ADDRESS), card, card.history.length);
  for (let i = 0; i < 6 && !buttonLabels(step).includes('Confirm'); i++) {
    const next = ['Skip (no refund address)', 'No refuel'].find((l) => buttonLabels(step).includes(l));
    if (!next) throw new Error(`wizard stuck at: ${embedText(step)} [${buttonLabels(step).join(', ')}]`);
    step = await press(who, step, next);
  }
  return step;
}

describe('Pay from wallet on Discord', () => {
  it('the deposit card in the DM carries a link button to the signed one-time page URL; the server channel sees none of it', async () => {
    const step = await toConfirmation(h.alice);
    // In a server channel the confirmation keeps the plain Confirm: no one-tap wallet payment there.
    expect(buttonLabels(step)).not.toContain('Pay from wallet');
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

  it('at the confirm step in the DM, Pay from wallet creates the swap in the wallet flow and the card carries the signed link', async () => {
    // Someone with no saved address yet (the address step opens a modal), in their DM.
    const dmOf: Where = { user: h.tracker.user };
    const step = await toConfirmation(dmOf);
    // At the confirmation it is a button the core answers, not a link (the card's button is the link).
    expect(linkButtons(step).map((b) => b.label)).not.toContain('Pay from wallet');
    const dm = h.fake.world.dmChannel(h.tracker.user.id).id;
    const before = h.fake.messagesIn(dm).length;
    h.fake.pressButton(dmOf, step, buttonId(step, 'Pay from wallet'));
    const deposit = await waitFor(
      () =>
        h.fake
          .messagesIn(dm)
          .slice(before)
          .find((m) => unescape(titleOf(m)).startsWith('Deposit for swap')),
      'the deposit card in the DM',
    );
    const text = unescape(embedText(deposit));
    const swapId = /Swap id: `([0-9a-f-]{36})`/.exec(text)?.[1] ?? '';
    expect((await h.live.api.getSwap(swapId, { exclude_deposit_actions: true })).swap.use_deposit_address).toBe(false);
    expect(text).toContain('Pay from your wallet');
    expect(text).not.toMatch(/Send exactly|0x[0-9a-fA-F]{40}/);
    const [pay] = linkButtons(deposit).filter((b) => b.label === 'Pay from wallet');
    const token = new URLSearchParams(new URL(String(pay?.url)).hash.slice(1)).get('t') ?? '';
    const claims = verifyLink(token, SECRET, h.live.clock.now());
    expect(claims.ok && claims.value).toMatchObject({ platform: 'discord', userId: h.tracker.user.id, swapId });
  });
});

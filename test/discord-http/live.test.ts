import { describe, expect, it } from 'vitest';
import { DiscordMessenger } from '../../src/platforms/discord/messenger.js';
import { startLiveStack } from '../e2e/live-stack.js';
import { afterPress, answerOf, buttonId, buttonLabels, embedText, titleOf, unescape } from '../e2e/discord/harness.js';
import { startDiscordWorld } from '../e2e/discord/harness.js';
import { setUp } from '../support/set-up.js';
import { waitFor } from '../support/wait.js';
import { startHttpDiscord } from './harness.js';

/** The real product (live stack: sandbox API, Redis, tracking) answering Discord over HTTP. */
const h = setUp(async () => {
  const world = await startDiscordWorld();
  const live = await startLiveStack('dch', { discord: new DiscordMessenger({ token: world.token, api: world.fake.apiUrl }) });
  const d = await startHttpDiscord(live.core, {}, world);
  return {
    ...d,
    live,
    async close() {
      await d.close();
      await live.close();
    },
  };
});
const ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';

describe('the real bot over HTTP', () => {
  it('answers /help with the help card', async () => {
    const help = await answerOf(h.fake, h.fake.slashCommand(h.alice, 'help'));
    expect(unescape(titleOf(help))).toBe('What I can do');
    expect(h.fake.gateway.stats.connections).toBe(0);
  });

  it('autocompletes, quotes, opens the address form from "Swap this" and continues the wizard privately', async () => {
    const to = await h.fake.autocomplete(h.alice, 'quote', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'bas' }, 'to');
    expect(to[0]?.value).toBe('BASE_MAINNET');
    const card = await answerOf(
      h.fake,
      h.fake.slashCommand(h.alice, 'quote', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET' }),
    );
    expect(card.ephemeral).toBe(false);
    expect(unescape(embedText(card))).toMatch(/USDC/);
    const swapThis = h.fake.pressButton(h.alice, card, buttonId(card, 'Swap this'));
    const opened = await waitFor(() => h.delivery.answers.get(swapThis.id), 'the answer to Swap this');
    expect(opened.body?.type).toBe(9);
    const next = await afterPress(h.fake, h.fake.submitModal(h.alice, swapThis, ADDRESS), card, card.history.length);
    expect(next.id).not.toBe(card.id);
    expect(next.ephemeral).toBe(true);
    expect(buttonLabels(next).length).toBeGreaterThan(0);
  });
});

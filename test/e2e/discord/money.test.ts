import { describe, expect, it } from 'vitest';
import { answerOf, embedText, titleOf, unescape, useLiveDiscord } from './harness.js';
import { waitFor } from '../../support/wait.js';
import { swapRequest } from '../../support/swaps.js';

/**
 * The user's money through the real discord.js client and DiscordMessenger against the fake
 * Discord: a channel follows a swap whose deposit arrives but whose payout fails, with no refund
 * address. Nothing the worker posts tells anyone to send, and the stuck message promises no
 * refund (support returns the funds) rather than "paid out soon or refunded".
 */
const h = useLiveDiscord('dc-money');
const ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';
const SEND = /Send exactly|Send the exact amount|Send it before/;

describe("what the bot tells a Discord channel about a swap's money", () => {
  it('a deposit with no refund address whose payout keeps failing: no "send", and the stuck message promises no refund', async () => {
    const channelId = h.guild.channelIds[0] ?? '';
    const id = (await h.live.api.createSwap(swapRequest(ADDRESS))).swap.id;
    await answerOf(h.fake, h.fake.slashCommand({ ...h.mod, channelId }, 'track', { swap_id: id }));
    const byWorker = () => h.fake.messagesIn(channelId).filter((m) => !m.interactionId);
    const card = await waitFor(
      () => byWorker().find((m) => unescape(titleOf(m)).startsWith(`Swap ${id.slice(0, 8)}: `)),
      'the channel card',
    );

    h.live.sandbox.deposit(id, { outcome: 'fail_execution' });
    await waitFor(() => byWorker().find((m) => /Deposit seen/.test(unescape(titleOf(m)))), 'the deposit message');
    // Minutes pass with the payout retried (no refund address: the status stays ls_transfer_pending).
    for (let i = 0; i < 14; i++) {
      h.live.clock.advance(30_000);
      const at = h.live.clock.now();
      await waitFor(async () => ((await h.live.tracking.swapState(id))?.lastPolledAt ?? 0) >= at, 'a poll after the clock moved');
      await waitFor(async () => (await h.live.tracking.pendingNotifications()) === 0, 'the channel to be up to date');
    }
    // The stuck message promises no refund: support returns the funds.
    const stuck = await waitFor(() => byWorker().find((m) => /taking longer/i.test(unescape(titleOf(m)))), 'the stuck message');
    // A channel does not know whether a refund address was given (the service's answer never says): neither promised nor denied.
    expect(unescape(embedText(stuck))).toContain('If a refund address was given when the swap was made');
    const all = byWorker()
      .map((m) => unescape(embedText(m)))
      .join('\n---\n');
    expect(all).not.toMatch(SEND);
    expect(all).not.toMatch(/paid out soon or refunded|Refund on its way/);
    expect(unescape(embedText(card))).not.toMatch(SEND);
  });
});

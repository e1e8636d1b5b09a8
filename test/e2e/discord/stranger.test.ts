import { describe, expect, it } from 'vitest';
import { maskAddress } from '../../../src/bot/kernel/format.js';
import { RedisHistoryStore } from '../../../src/bot/history/store.js';
import { TRACK_THIS_NAME } from '../../../src/platforms/discord/commands.js';
import { driveToCompletion } from '../live-stack.js';
import { waitFor } from '../../support/wait.js';
import { answerOf, buttonId, buttonLabels, embedText, unescape, useLiveDiscord } from './harness.js';
import type { StoredMessage } from './fake-world.js';
import { swapRequest } from '../../support/swaps.js';

/**
 * The destination address is the creator's business (issue 33), on Discord: a member who uses
 * "Track this swap" on a message naming Alice's swap and presses "Follow privately" gets, in their
 * DMs, the live card, its redraw after Mute and the completion message with the destination
 * masked as in a server, and no Swap again. Alice, its creator, following in her DMs, sees it in full.
 */
const h = useLiveDiscord('dc-stranger');
const DEST = '0x2222222222222222222222222222222222222222';

const everything = (channelId: string): string =>
  h.fake
    .messagesIn(channelId)
    .map((m) => unescape(JSON.stringify(m.history)) + unescape(embedText(m)))
    .join('\n')
    .toLowerCase();

const liveCard = (channelId: string, swapId: string): Promise<StoredMessage> =>
  waitFor(
    () => h.fake.messagesIn(channelId).find((m) => unescape(embedText(m)).includes(swapId.slice(0, 8)) && buttonLabels(m).includes('Mute')),
    'the live card in DMs',
  );

describe('a swap followed privately by someone who is not its creator, on Discord', () => {
  it('"Track this swap" → "Follow privately": every DM masks the destination; the creator sees it in full', async () => {
    const created = await h.live.api.createSwap(swapRequest(DEST));
    const swapId = created.swap.id;
    // Alice made it (the bot's record of its creators), and follows it in her DMs.
    await new RedisHistoryStore(h.live.redis, h.live.prefix).add('discord', h.alice.user.id, {
      swapId,
      createdAt: h.live.clock.now(),
      summary: '100 USDC',
      refund: null,
    });
    const aliceDm = h.fake.world.dmChannel(h.alice.user.id).id;
    await answerOf(h.fake, h.fake.slashCommand(h.aliceDm, 'track', { swap_id: swapId }));
    expect(unescape(embedText(await liveCard(aliceDm, swapId)))).toContain(DEST);

    // Tracy saw the id in the server.
    const card = await answerOf(
      h.fake,
      h.fake.messageCommand(h.tracker, TRACK_THIS_NAME, { author: h.alice.user, content: `swap ${swapId}` }),
    );
    const press = h.fake.pressButton(h.tracker, card, buttonId(card, 'Follow privately'));
    await waitFor(() => press.callbacks.length > 0 || undefined, 'the Follow privately answer');
    const tracyDm = h.fake.world.dmChannel(h.tracker.user.id).id;
    const tracyCard = await liveCard(tracyDm, swapId);
    expect(unescape(embedText(tracyCard))).toContain(maskAddress(DEST));

    // Mute redraws the pressed card for her: still masked.
    const mute = h.fake.pressButton({ user: h.tracker.user }, tracyCard, buttonId(tracyCard, 'Mute'));
    await waitFor(() => mute.callbacks.length > 0 || undefined, 'the Mute answer');
    await waitFor(() => buttonLabels(h.fake.message(tracyCard.id)).includes('Unmute') || undefined, 'the card with Unmute');
    expect(unescape(embedText(h.fake.message(tracyCard.id)))).toContain(maskAddress(DEST));

    h.live.sandbox.deposit(swapId);
    await driveToCompletion(h.live, swapId);
    await waitFor(() => everything(aliceDm).includes('swap completed') || undefined, "Alice's completion message");
    const aliceDone = h.fake.messagesIn(aliceDm).find((m) => /Swap completed/.test(unescape(embedText(m))));
    expect(buttonLabels(aliceDone!)).toContain('Swap again');

    // Muted: Tracy's card says it is complete, with no message of its own.
    await waitFor(() => /complete/i.test(unescape(embedText(h.fake.message(tracyCard.id)))) || undefined, "Tracy's card completed");
    expect(everything(tracyDm)).not.toContain(DEST.toLowerCase());
    expect(everything(tracyDm)).not.toContain(DEST.slice(2, 14).toLowerCase());
    expect(h.fake.messagesIn(tracyDm).flatMap((m) => buttonLabels(m))).not.toContain('Swap again');
  });
});

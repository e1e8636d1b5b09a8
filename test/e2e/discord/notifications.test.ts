import { describe, expect, it } from 'vitest';
import type { Json } from '../../fakes/bodies.js';
import type { Where } from './fake-discord.js';
import { buttonId, buttonLabels, answerOf, embedText, titleOf, unescape, useLiveDiscord } from './harness.js';
import { driveToCompletion } from '../live-stack.js';
import { waitFor } from '../../support/wait.js';
import { swapRequest } from '../../support/swaps.js';

/**
 * Notification settings through the real discord.js client and DiscordMessenger against the fake
 * Discord: a channel whose admins chose quiet hours (typed in /settings) and quiet mode (a button)
 * gets its tracking messages with SUPPRESS_NOTIFICATIONS (flags 4096), and a completed swap gets ✅
 * on its card (PUT …/reactions/{emoji}/@me) instead of a "Swap completed" message.
 */
const h = useLiveDiscord('dc-notify');
const ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';
const SUPPRESS_NOTIFICATIONS = 1 << 12;

describe('a Discord channel in quiet mode with quiet hours', () => {
  it('sends tracking messages silently (flags 4096) and reacts ✅ on the card when the swap completes', async () => {
    const channelId = h.guild.channelIds[1] ?? '';
    const mod: Where = { ...h.mod, channelId };

    // Quiet hours typed through the command's option (the sandbox clock reads 00:00 UTC).
    const typed = await answerOf(h.fake, h.fake.slashCommand(mod, 'settings', { change: 'quiet 23-2 UTC' }));
    expect(unescape(embedText(typed))).toContain('23:00–02:00 (UTC)');
    const quietMode = buttonLabels(typed).find((l) => l.startsWith('✅ Quiet mode'));
    expect(quietMode).toBe('✅ Quiet mode: off');
    const press = h.fake.pressButton(mod, typed, buttonId(typed, quietMode ?? ''));
    await waitFor(() => press.callbacks[0], 'the press answered');
    await waitFor(() => buttonLabels(typed).includes('✅ Quiet mode: on'), 'the card to show quiet mode on');

    const id = (await h.live.api.createSwap(swapRequest(ADDRESS))).swap.id;
    await answerOf(h.fake, h.fake.slashCommand(mod, 'track', { swap_id: id }));
    const byWorker = () => h.fake.messagesIn(channelId).filter((m) => !m.interactionId);
    const card = await waitFor(
      () => byWorker().find((m) => unescape(titleOf(m)).startsWith(`Swap ${id.slice(0, 8)}: `)),
      'the channel card',
    );

    h.live.sandbox.deposit(id);
    const deposit = await waitFor(() => byWorker().find((m) => /^Deposit seen/.test(unescape(titleOf(m)))), 'the deposit message');
    await driveToCompletion(h.live, id);
    await waitFor(() => card.reactions.length > 0, 'the reaction on the card');
    expect(card.reactions).toEqual(['✅']);
    expect(h.fake.requests.map((r) => `${r.method} ${r.status} ${r.path}`)).toContain(
      `PUT 204 /channels/${channelId}/messages/${card.id}/reactions/✅/@me`,
    );
    expect(/complet/i.test(unescape(embedText(card)))).toBe(true);
    expect(byWorker().map((m) => unescape(titleOf(m)))).not.toContain('Swap completed');

    // Every message the worker created here went out with SUPPRESS_NOTIFICATIONS, as Discord accepts it.
    const creates = h.fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${channelId}/messages`);
    expect(creates.length).toBeGreaterThanOrEqual(2);
    for (const r of creates) {
      expect(r.status).toBe(200);
      expect(Number((r.body as Json).flags ?? 0) & SUPPRESS_NOTIFICATIONS).toBe(SUPPRESS_NOTIFICATIONS);
    }
    expect(Number(deposit.body.flags ?? 0) & SUPPRESS_NOTIFICATIONS).toBe(SUPPRESS_NOTIFICATIONS);
  });
});

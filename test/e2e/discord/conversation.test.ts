import { describe, expect, it } from 'vitest';
import { t } from '../../../src/i18n/index.js';
import type { Where } from './fake-discord.js';
import type { StoredMessage } from './fake-world.js';
import type { Json } from '../../fakes/bodies.js';
import {
  afterPress,
  answerOf,
  buttonId,
  buttonLabels,
  componentsOf,
  embedOf,
  embedText,
  isV2,
  titleOf,
  unescape,
  useLiveDiscord,
} from './harness.js';
import { driveToCompletion } from '../live-stack.js';
import { waitFor } from '../../support/wait.js';
import { swapRequest } from '../../support/swaps.js';

/**
 * The whole product through the real discord.js client against the fake Discord: slash commands
 * with autocomplete, the wizard with its modal, the deposit card by DM, and the live card the
 * tracking worker edits as the sandbox swap moves.
 */
const h = useLiveDiscord('dc');
const ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';

async function press(who: Where, message: StoredMessage, label: string): Promise<StoredMessage> {
  const before = message.history.length;
  return afterPress(h.fake, h.fake.pressButton(who, message, buttonId(message, label)), message, before);
}

/** Walks the wizard from a message by pressing the first of these labels it shows, until Confirm. */
async function walkToConfirm(who: Where, start: StoredMessage): Promise<StoredMessage> {
  let message = start;
  for (let step = 0; step < 6; step++) {
    const labels = buttonLabels(message);
    if (labels.includes('Confirm')) return message;
    const next = ['Skip (no refund address)', 'No refuel'].find((l) => labels.includes(l));
    if (!next) throw new Error(`wizard stuck at: ${embedText(message)} [${labels.join(', ')}]`);
    message = await press(who, message, next);
  }
  throw new Error('wizard did not reach Confirm');
}

describe('a whole swap on Discord', () => {
  let swapId = '';
  let depositCard: StoredMessage | undefined;

  it('quotes with autocomplete, takes the address in a modal, DMs the deposit card and keeps a live card', async () => {
    const requestsBefore = h.live.sandbox.requestCount();
    const from = await h.fake.autocomplete(h.alice, 'quote', { amount: 100, token: 'USDC', from: 'arb' }, 'from');
    expect(from.length).toBeGreaterThan(0);
    expect(from.length).toBeLessThanOrEqual(25);
    expect(from[0]?.value).toBe('ARBITRUM_MAINNET');
    const to = await h.fake.autocomplete(h.alice, 'quote', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'bas' }, 'to');
    expect(to[0]?.value).toBe('BASE_MAINNET');
    const tokens = await h.fake.autocomplete(h.alice, 'quote', { amount: 100, from: 'ARBITRUM_MAINNET', token: 'us' }, 'token');
    expect(tokens.map((c) => c.value)).toContain('USDC');
    expect(tokens.length).toBeLessThanOrEqual(25);
    // Autocomplete answered from the cache: not one request to the swap service per keystroke.
    expect(h.live.sandbox.requestCount()).toBe(requestsBefore);

    const quote = h.fake.slashCommand(h.alice, 'quote', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET' });
    const card = await answerOf(h.fake, quote);
    expect(card.ephemeral).toBe(false);
    expect(buttonLabels(card)).toContain('Swap this');
    expect(unescape(embedText(card))).toMatch(/USDC/);

    // "Swap this" opens the address modal straight away (the core asked for free text).
    const swapThis = h.fake.pressButton(h.alice, card, buttonId(card, 'Swap this'));
    await waitFor(() => swapThis.callbacks[0], 'the answer to Swap this');
    expect(swapThis.callbacks[0]?.type).toBe(9);
    expect(JSON.stringify(swapThis.modal)).toMatch(/address/i);

    const cardVersions = card.history.length;
    const afterAddress = await afterPress(h.fake, h.fake.submitModal(h.alice, swapThis, ADDRESS), card, card.history.length);
    // From the address on, the wizard is Alice's alone: ephemeral, the public quote card untouched.
    expect(afterAddress.id).not.toBe(card.id);
    expect(afterAddress.ephemeral).toBe(true);
    expect(card.history).toHaveLength(cardVersions);
    const confirm = await walkToConfirm(h.alice, afterAddress);
    expect(confirm.ephemeral).toBe(true);
    expect(unescape(embedText(confirm))).toContain(ADDRESS.slice(0, 6));
    const general = h.guild.channelIds[0] ?? '';
    const seenByAll = () =>
      h.fake
        .messagesIn(general)
        .filter((m) => !m.ephemeral)
        .map((m) => unescape(JSON.stringify(m.history)))
        .join('\n');
    expect(seenByAll()).not.toContain(ADDRESS.slice(2, 12));

    const dmChannel = h.fake.world.dmChannel(h.alice.user.id).id;
    const confirmPress = h.fake.pressButton(h.alice, confirm, buttonId(confirm, 'Confirm'));
    depositCard = await waitFor(
      () => h.fake.messagesIn(dmChannel).find((m) => unescape(titleOf(m)).startsWith('Deposit for swap')),
      'the deposit card in DMs',
    );
    await waitFor(() => confirmPress.callbacks[0], 'Confirm acknowledged');

    // The deposit card: a Components V2 card (no embeds), a container coloured as pending, the
    // address as code in a section whose thumbnail is the QR, an attached PNG.
    expect(isV2(depositCard)).toBe(true);
    expect(depositCard.body.embeds ?? []).toEqual([]);
    const container = (depositCard.body.components as Json[])[0] as Json;
    expect(container).toMatchObject({ type: 17, accent_color: 0xf0b232 });
    const section = componentsOf(depositCard).find((c) => c.type === 9 && (c.accessory as Json | undefined)?.type === 11) as Json;
    expect(String(((section.components as Json[])[0] as Json).content)).toMatch(/`0x[0-9a-fA-F]{40}`/);
    const png = depositCard.attachments[0];
    expect(png?.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(((section.accessory as Json).media as Json).url).toBe(`attachment://${png?.filename}`);
    expect(buttonLabels(depositCard)).toEqual(expect.arrayContaining(['Copy address', 'Status', 'Track']));
    swapId = /Swap id: `([0-9a-f-]{36})`/.exec(unescape(embedText(depositCard)))?.[1] ?? '';
    expect(swapId).toMatch(/^[0-9a-f-]{36}$/);

    // In the server, only a notice to Alice: nothing of the swap for the channel to see.
    const notes = await waitFor(
      () => confirmPress.followupIds.length > 0 && confirmPress.followupIds.map((id) => h.fake.message(id)),
      'the note in the server',
    );
    expect(notes.map((m) => m.ephemeral)).not.toContain(false);
    expect(seenByAll()).not.toContain(swapId);
    expect(seenByAll()).not.toContain(ADDRESS.slice(2, 12));

    // Copy address shows the bare address, only to Alice.
    const copy = h.fake.pressButton(h.aliceDm, depositCard, buttonId(depositCard, 'Copy address'));
    const copied = await answerOf(h.fake, copy);
    expect(copied.ephemeral).toBe(true);
    expect(String(copied.body.content)).toMatch(/^`[^`]+`$/);

    // The tracking worker posts the live status card to the DM through REST alone, as soon as the
    // swap exists (below the deposit card, which the adapter reported): before any deposit.
    const liveCard = await waitFor(
      () => h.fake.messagesIn(dmChannel).find((m) => unescape(titleOf(m)).startsWith(`Swap ${swapId.slice(0, 8)}: `)),
      'the live status card',
    );
    expect(unescape(titleOf(liveCard))).toMatch(/Waiting for your deposit/);
    const versionsBefore = liveCard.history.length;
    h.live.sandbox.deposit(swapId);
    // The deposit card itself is edited in place (the same DM message): seen, nothing left to copy or scan.
    const dep = depositCard;
    await waitFor(
      () => /Deposit seen: 100 USDC at .*Do not send again/.test(unescape(embedText(dep))),
      'the deposit card edited to "Deposit seen"',
    );
    expect(buttonLabels(dep)).not.toContain('Copy address');
    expect(buttonLabels(dep)).not.toContain("I've sent it");
    expect(unescape(embedText(dep))).not.toMatch(/Send exactly/);
    expect(isV2(liveCard)).toBe(true);
    await driveToCompletion(h.live, swapId);
    const done = await waitFor(
      () => h.fake.messagesIn(dmChannel).find((m) => unescape(titleOf(m)) === 'Swap completed'),
      'the completion message',
    );
    expect(embedOf(done).color).toBe(0x57f287);
    // The same V2 card was edited in place as the swap moved (every version keeps the flag and
    // no embeds), its container recoloured by phase, and now says completed.
    await waitFor(() => /complet/i.test(unescape(embedText(liveCard))), 'the live card to show completion');
    expect(liveCard.history.length).toBeGreaterThan(versionsBefore + 1);
    for (const version of liveCard.history) {
      expect(Number(version.flags) & (1 << 15)).toBe(1 << 15);
      expect(version.embeds ?? []).toEqual([]);
    }
    const colours = new Set(liveCard.history.map((v) => ((v.components as Json[])[0] as Json).accent_color));
    expect(colours.size).toBeGreaterThan(1);
    expect(((liveCard.body.components as Json[])[0] as Json).accent_color).toBe(0x57f287);
    await waitFor(() => /Deposit closed/.test(unescape(embedText(dep))), 'the deposit card closed');
    expect(h.fake.messagesIn(dmChannel).filter((m) => unescape(titleOf(m)).startsWith('Deposit for swap'))).toHaveLength(0);
    // The explorer links are sections with a link button beside the transaction line.
    expect(componentsOf(liveCard).map((c) => [c.type, (c.accessory as Json | undefined)?.style])).toContainEqual([9, 5]);
    expect(h.fake.requests.map((r) => `${r.method} ${r.path}`)).toContain(`PATCH /channels/${dmChannel}/messages/${liveCard.id}`);
  });

  it('Swap again on the completion message: the confirmation with the same destination; /addresses lists it and removes it', async () => {
    const dmChannel = h.fake.world.dmChannel(h.alice.user.id).id;
    const done = await waitFor(
      () => h.fake.messagesIn(dmChannel).find((m) => unescape(titleOf(m)) === 'Swap completed'),
      'the completion message',
    );
    const confirm = await press(h.aliceDm, done, 'Swap again');
    expect(unescape(titleOf(confirm))).toBe('Confirm your swap');
    expect(unescape(embedText(confirm))).toContain(ADDRESS);
    expect(buttonLabels(confirm)).toContain('Confirm');

    const list = await answerOf(h.fake, h.fake.slashCommand(h.aliceDm, 'addresses'));
    expect(unescape(embedText(list))).toContain(`1. EVM · `);
    expect(unescape(embedText(list))).toContain(ADDRESS);
    const renamed = await answerOf(h.fake, h.fake.slashCommand(h.aliceDm, 'addresses', { edit: 'rename 1 Alice main' }));
    expect(unescape(embedText(renamed))).toContain('1. Alice main · EVM');
    const removed = await press(h.aliceDm, renamed, 'Remove 1: Alice main');
    expect(unescape(embedText(removed))).toContain('No saved addresses yet.');
  });

  it('answers Status on the deposit card with a new card and leaves the deposit card as it was', async () => {
    const deposit = depositCard as StoredMessage;
    const before = { versions: deposit.history.length, body: JSON.stringify(deposit.body), attachments: deposit.attachments.length };
    const dmChannel = h.fake.world.dmChannel(h.alice.user.id).id;
    const status = h.fake.pressButton(h.aliceDm, deposit, buttonId(deposit, 'Status'));
    const card = await waitFor(
      () =>
        [status.originalId, ...status.followupIds]
          .map((id) => (id && id !== deposit.id ? h.fake.message(id) : undefined))
          .find((m) => m && !m.loading && titleOf(m).length > 0),
      'the new status card',
    );
    expect(card.channelId).toBe(dmChannel);
    expect(unescape(titleOf(card))).toMatch(new RegExp(`^Swap ${swapId.slice(0, 8)}`));
    await waitFor(() => status.callbacks[0], 'Status acknowledged');
    expect(deposit.deleted).toBe(false);
    expect(deposit.history).toHaveLength(before.versions);
    expect(JSON.stringify(deposit.body)).toBe(before.body);
    expect(deposit.attachments).toHaveLength(before.attachments);
  });

  it('shows the deposit details ephemerally, with a note that they are not kept, when DMs are closed', async () => {
    const swap = h.fake.slashCommand(h.bob, 'swap', { amount: 50, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'OPTIMISM_MAINNET' });
    await waitFor(() => swap.callbacks[0], 'the answer to /swap');
    let message: StoredMessage;
    if (swap.modal) {
      message = await answerOf(h.fake, h.fake.submitModal(h.bob, swap, ADDRESS));
    } else {
      const asked = await answerOf(h.fake, swap);
      const open = h.fake.pressButton(h.bob, asked, buttonId(asked, buttonLabels(asked).find((l) => l.startsWith('✏️')) ?? ''));
      await waitFor(() => open.modal, 'the modal');
      message = await afterPress(h.fake, h.fake.submitModal(h.bob, open, ADDRESS), asked, asked.history.length);
    }
    const confirm = await walkToConfirm(h.bob, message);
    const press = h.fake.pressButton(h.bob, confirm, buttonId(confirm, 'Confirm'));
    const shown = await waitFor(
      () => press.followupIds.map((id) => h.fake.message(id)).find((m) => /Deposit for swap/.test(titleOf(m))),
      'the ephemeral deposit card',
    );
    expect(shown.ephemeral).toBe(true);
    // A Components V2 follow-up with a file (the QR): Discord's components overview names follow-ups
    // among the messages that take the flag, and a Thumbnail/Media item may point at attachment://.
    expect(isV2(shown)).toBe(true);
    expect(shown.body.embeds ?? []).toEqual([]);
    expect(shown.attachments.map((a) => a.filename)).toEqual([expect.stringMatching(/\.png$/)]);
    expect(JSON.stringify(shown.body.components)).toContain(`attachment://${shown.attachments[0]?.filename ?? ''}`);
    expect(unescape(embedText(shown))).toContain(t('en', 'platform.discord.dmClosed'));
    // Nothing reached Bob's DM channel: Discord refused it.
    const bobDm = h.fake.world.dmChannel(h.bob.user.id).id;
    expect(h.fake.messagesIn(bobDm)).toHaveLength(0);
    expect(h.fake.requests.map((r) => `${r.status} ${r.path}`)).toContain(`403 /channels/${bobDm}/messages`);
    // The tracking worker meets the same refusal (50007) at the swap's first change and stops following for that DM.
    const bobSwap = /Swap id: `([0-9a-f-]{36})`/.exec(unescape(embedText(shown)))?.[1] ?? '';
    expect(bobSwap).toMatch(/^[0-9a-f-]{36}$/);
    h.live.sandbox.deposit(bobSwap);
    const bobChat = { platform: 'discord' as const, chatId: h.bob.user.id, chatKind: 'private' as const };
    const refusals = () => h.fake.requests.filter((r) => r.path === `/channels/${bobDm}/messages` && r.status === 403).length;
    await waitFor(
      async () => refusals() >= 2 && (await h.live.tracking.service.listFollowed(bobChat)).length === 0,
      'the closed DM to be unsubscribed',
    );
  });

  it('lets only admins or the tracking role start tracking in a server', async () => {
    const id = (await h.live.api.createSwap(swapRequest(ADDRESS, { amount: 20 }))).swap.id;
    const refused = await answerOf(h.fake, h.fake.slashCommand(h.alice, 'track', { swap_id: id }));
    expect(unescape(embedText(refused))).toMatch(/Only admins can do that here/);
    expect(refused.ephemeral).toBe(true);
    const channel = h.guild.channelIds[0] ?? '';
    expect(await h.live.tracking.service.listFollowed({ platform: 'discord', chatId: channel, chatKind: 'group' })).toEqual([]);

    const byRole = await answerOf(h.fake, h.fake.slashCommand(h.tracker, 'track', { swap_id: id }));
    expect(unescape(embedText(byRole))).not.toMatch(/Only admins/);
    // The worker posts the live card to the channel through REST, with the address masked.
    const channelCard = await waitFor(
      () => h.fake.messagesIn(channel).find((m) => !m.interactionId && unescape(titleOf(m)).startsWith(`Swap ${id.slice(0, 8)}: `)),
      'the channel card',
    );
    expect(unescape(embedText(channelCard))).not.toContain(ADDRESS);
    const byMod = await answerOf(h.fake, h.fake.slashCommand(h.mod, 'untrack', { swap_id: id }));
    expect(unescape(embedText(byMod))).not.toMatch(/Only admins/);
  });

  it('never lets a message mention anyone', () => {
    const writes = h.fake.messageWrites();
    expect(writes.length).toBeGreaterThan(10);
    for (const w of writes) {
      const body = (w.path.startsWith('/interactions/') ? (w.body as { data?: unknown }).data : w.body) as { allowed_mentions?: unknown };
      expect(body.allowed_mentions, `${w.method} ${w.path}`).toEqual({ parse: [] });
    }
  });
});

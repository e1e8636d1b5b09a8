import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import type { Incoming } from '../../src/contracts/incoming.js';
import { actionButton, line, type Reply } from '../../src/contracts/reply.js';
import type { Json } from '../fakes/bodies.js';
import { answerOf, buttonId, embedText, ScriptedCore, unescape } from '../e2e/discord/harness.js';
import type { InteractionState } from '../e2e/discord/fake-world.js';
import { setUp } from '../support/set-up.js';
import { waitFor } from '../support/wait.js';
import { startHttpDiscord } from './harness.js';

/**
 * DISCORD_INTERACTIONS=http: the fake Discord signs every interaction and POSTs it to the web
 * process; the same handlers as on the gateway answer, the first response as the answer to the
 * POST, the rest over REST. No gateway connection is made.
 */
let release: () => void = () => undefined;
const gate = () => new Promise<void>((resolve) => (release = resolve));
const say = (text: string, extra: Partial<Reply> = {}): Reply => ({ lines: [line(text)], target: 'here', ...extra });
const qr = await QRCode.toBuffer('0xdeposit', { width: 64 });

const core = new ScriptedCore(
  async (i: Incoming): Promise<Reply[]> => {
    const cmd = i.text ?? i.action ?? '';
    if (cmd === '/help') return [say(`hello ${i.userName}`)];
    if (cmd.startsWith('/status')) {
      await gate();
      return [say('slow answer')];
    }
    if (cmd.startsWith('/untrack')) return [{ lines: [line('only you see this')], target: 'ephemeral' }];
    if (cmd.startsWith('/track')) return [say(`may track: ${String(await i.isChatAdmin?.())}`, { target: 'ephemeral' })];
    if (cmd.startsWith('/networks'))
      return [say('pick one', { buttons: [[actionButton('Fast', 'net:1'), actionButton('Slow', 'slow:1')]] })];
    if (cmd === 'net:1') return [say('you picked fast', { mode: 'edit' })];
    if (cmd === 'slow:1') {
      await gate();
      return [say('edited after a wait', { mode: 'edit' })];
    }
    if (cmd === '/swap') return [say('Where to?', { prompt: { label: 'Your address on Base', placeholder: '0x…', maxLength: 64 } })];
    if (cmd.startsWith('/quote')) return [say('scan this', { image: { png: new Uint8Array(qr), alt: 'QR', filename: 'qr.png' } })];
    return [say(`got ${cmd}`)];
  },
  [
    { label: 'Base', value: 'BASE_MAINNET' },
    { label: 'Arbitrum', value: 'ARBITRUM_MAINNET' },
  ],
);

const h = setUp(() => startHttpDiscord(core, { ackBudgetMs: 100 }));

const answerTo = (it: InteractionState) => waitFor(() => h.delivery.answers.get(it.id), `the answer to the POST of ${it.id}`);
const webhookWrites = (it: InteractionState) =>
  h.fake.requests.filter((r) => r.path.startsWith(`/webhooks/${h.applicationId}/${it.token}`)).map((r) => `${r.method} ${r.status}`);

/** A slash command's payload as Discord would send it, to post by hand. */
function helpPayload(id: string): Json {
  const it = { ...h.fake.world.interactions.values().next().value } as InteractionState;
  return { ...it.payload, id, token: `tok-${id}` };
}

describe('the endpoint', () => {
  it('answers PING with PONG', async () => {
    const seen = core.seen.length;
    const pong = await h.delivery.post(JSON.stringify({ id: '900', application_id: h.applicationId, type: 1, token: 't', version: 1 }));
    expect(pong).toEqual({ status: 200, body: { type: 1 } });
    expect(core.seen).toHaveLength(seen);
  });

  it('answers a command at once in the answer to the POST, with no gateway connection', async () => {
    const it1 = h.fake.slashCommand(h.alice, 'help');
    const answer = await answerTo(it1);
    expect(answer.status).toBe(200);
    expect(answer.body?.type).toBe(4);
    expect(unescape(embedText(await answerOf(h.fake, it1)))).toBe('hello Alice');
    expect(h.fake.gateway.stats.connections).toBe(0);
    expect(webhookWrites(it1)).toEqual([]);
  });

  it('refuses a missing, forged or tampered signature with 401, and handles none of them', async () => {
    const seen = core.seen.length;
    const body = JSON.stringify(helpPayload('901'));
    const now = String(Math.floor(Date.now() / 1000));
    expect((await h.delivery.post(body, { signature: null })).status).toBe(401);
    expect((await h.delivery.post(body, { signature: 'ab'.repeat(64) })).status).toBe(401);
    const signed = h.delivery.sign(now, body);
    expect((await h.delivery.post(body.replace('tok-901', 'tok-902'), { timestamp: now, signature: signed })).status).toBe(401);
    // A genuine one after them is the only one the handlers see.
    await answerOf(h.fake, h.fake.slashCommand(h.alice, 'help'));
    expect(core.seen.slice(seen).map((s) => s.text)).toEqual(['/help']);
  });

  it('refuses a request signed 10 minutes ago, and the same signed request a second time', async () => {
    const seen = core.seen.length;
    const old = String(Math.floor(Date.now() / 1000) - 600);
    expect((await h.delivery.post(JSON.stringify(helpPayload('903')), { timestamp: old })).status).toBe(401);
    const body = JSON.stringify(helpPayload('904'));
    const now = String(Math.floor(Date.now() / 1000));
    const signature = h.delivery.sign(now, body);
    const first = await h.delivery.post(body, { timestamp: now, signature });
    expect(first.status).toBe(200);
    expect((await h.delivery.post(body, { timestamp: now, signature })).status).toBe(401);
    expect(core.seen.slice(seen)).toHaveLength(1);
  });
});

describe('the same handlers as on the gateway', () => {
  it('defers a slow command in the answer, then the answer edits @original over REST', async () => {
    const it1 = h.fake.slashCommand(h.alice, 'status', { swap_id: 'abc' });
    const deferred = await answerTo(it1);
    expect(deferred.body?.type).toBe(5);
    expect(Number((deferred.body?.data as Json | undefined)?.flags ?? 0) & 64).toBe(0); // public, as the answer will be
    release();
    const answer = await answerOf(h.fake, it1);
    expect(answer.ephemeral).toBe(false);
    expect(unescape(embedText(answer))).toBe('slow answer');
    expect(webhookWrites(it1)).toEqual(['PATCH 200']);
  });

  it('keeps an ephemeral answer ephemeral', async () => {
    const it1 = h.fake.slashCommand(h.alice, 'untrack', { swap_id: 'abc' });
    const answer = await answerTo(it1);
    expect(answer.body?.type).toBe(4);
    expect(Number((answer.body?.data as Json).flags) & 64).toBe(64);
    expect((await answerOf(h.fake, it1)).ephemeral).toBe(true);
  });

  it('updates a pressed message in the answer, or defers the update and edits it later', async () => {
    const card = await answerOf(h.fake, h.fake.slashCommand(h.alice, 'networks'));
    const fast = h.fake.pressButton(h.alice, card, buttonId(card, 'Fast'));
    expect((await answerTo(fast)).body?.type).toBe(7);
    expect(unescape(embedText(card))).toBe('you picked fast');
    expect(core.seen.at(-1)).toMatchObject({ action: 'net:1', messageRef: { messageId: card.id } });

    const again = await answerOf(h.fake, h.fake.slashCommand(h.alice, 'networks'));
    const slow = h.fake.pressButton(h.alice, again, buttonId(again, 'Slow'));
    expect((await answerTo(slow)).body).toEqual({ type: 6 });
    release();
    await waitFor(() => (again.history.length > 1 ? again : undefined), 'the edit');
    expect(unescape(embedText(again))).toBe('edited after a wait');
  });

  it('answers autocomplete with type 8 choices', async () => {
    const choices = await h.fake.autocomplete(h.alice, 'quote', { amount: 5, from: 'ARB', to: 'ba' }, 'to');
    expect(choices.map((c) => c.value)).toEqual(['BASE_MAINNET', 'ARBITRUM_MAINNET']);
  });

  it('opens a modal in the answer, and the submitted form reaches the handlers', async () => {
    const swap = h.fake.slashCommand(h.alice, 'swap');
    expect((await answerTo(swap)).body?.type).toBe(9);
    const submitted = h.fake.submitModal(h.alice, swap, '  0xabc  ');
    await answerOf(h.fake, submitted);
    expect(core.seen.at(-1)).toMatchObject({ text: '0xabc' });
  });

  it('sends a message with a file as a deferral, then the card and its file as the edit of @original', async () => {
    const it1 = h.fake.slashCommand(h.alice, 'quote', { amount: 1, token: 'USDC', from: 'A', to: 'B' });
    expect((await answerTo(it1)).body).toEqual({ type: 5 });
    const answer = await answerOf(h.fake, it1);
    expect(answer.attachments.map((a) => a.filename)).toEqual(['qr.png']);
    expect(unescape(embedText(answer))).toBe('scan this');
  });

  it('knows the tracking role by its name from REST (no guild cache without a gateway)', async () => {
    const tracker = await answerOf(h.fake, h.fake.slashCommand(h.tracker, 'track', { swap_id: 'abc' }));
    expect(unescape(embedText(tracker))).toBe('may track: true');
    const alice = await answerOf(h.fake, h.fake.slashCommand(h.alice, 'track', { swap_id: 'abc' }));
    expect(unescape(embedText(alice))).toBe('may track: false');
  });
});

describe('a user-installed app where the bot is not a member', () => {
  it('continues /swap in the bot DM over REST; the interaction gets a private pointer to it', async () => {
    const w = h.fake.world;
    const owner = w.addUser({ id: '2100000000000000019', username: 'stranger' });
    const elsewhere = w.addGuild({ name: 'Elsewhere', ownerId: owner.id, channels: ['chat'], withBot: false });
    w.addMember(elsewhere, h.alice.user.id);
    const dm = w.dmChannel(h.alice.user.id).id;
    const before = h.fake.messagesIn(dm).length;
    const swap = h.fake.slashCommand({ user: h.alice.user, guild: elsewhere, userInstall: true }, 'swap');
    expect((await answerTo(swap)).body).toEqual({ type: 5, data: { flags: 64 } });
    const pointer = await answerOf(h.fake, swap);
    expect(pointer.ephemeral).toBe(true);
    expect(JSON.stringify(pointer.body.components)).toContain(`https://discord.com/channels/@me/${dm}`);
    expect(
      h.fake
        .messagesIn(dm)
        .slice(before)
        .map((m) => unescape(embedText(m))),
    ).toEqual(['Where to?']);
  });
});

describe('past the deadline', () => {
  // The core may take a minute before the adapter defers: only the endpoint's deadline answers in time.
  const late = setUp(() => startHttpDiscord(core, { ackBudgetMs: 60_000, httpDeadlineMs: 50 }));

  it('defers ephemerally when nothing answered in time, and the answer fills it later', async () => {
    const it1 = late.fake.slashCommand(late.alice, 'status', { swap_id: 'abc' });
    const deferred = await waitFor(() => late.delivery.answers.get(it1.id), 'the deadline');
    // Nothing private may end up in the channel: the placeholder it had to choose is ephemeral.
    expect(deferred.body).toEqual({ type: 5, data: { flags: 64 } });
    release();
    const answer = await answerOf(late.fake, it1);
    expect(answer.ephemeral).toBe(true);
    expect(unescape(embedText(answer))).toBe('slow answer');
  });

  it('leaves a pressed message as it is until the late answer edits it', async () => {
    const card = await answerOf(late.fake, late.fake.slashCommand(late.alice, 'networks'));
    const slow = late.fake.pressButton(late.alice, card, buttonId(card, 'Slow'));
    expect((await waitFor(() => late.delivery.answers.get(slow.id), 'the deadline')).body).toEqual({ type: 6 });
    release();
    await waitFor(() => (card.history.length > 1 ? card : undefined), 'the edit');
    expect(unescape(embedText(card))).toBe('edited after a wait');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Incoming } from '../../../src/contracts/incoming.js';
import { actionButton, copyButton, line, type Reply } from '../../../src/contracts/reply.js';
import { t } from '../../../src/i18n/index.js';
import type { InteractionState, StoredMessage } from './fake-world.js';
import {
  buttonId,
  buttonLabels,
  connectBot,
  embedText,
  ScriptedCore,
  startDiscordHarness,
  startDiscordWorld,
  unescape,
  type DiscordHarness,
} from './harness.js';
import { waitFor } from '../../support/wait.js';

/**
 * The adapter's own duties, with a scripted core: acknowledging in time, where each reply goes,
 * modals, select menus, errors, autocomplete limits, and the gateway connection itself.
 */
let h: DiscordHarness;
let release: () => void = () => undefined;
const gate = () => new Promise<void>((resolve) => (release = resolve));
const say = (lines: string, extra: Partial<Reply> = {}): Reply => ({ lines: [line(lines)], target: 'here', ...extra });

const core = new ScriptedCore(
  async (i: Incoming): Promise<Reply[]> => {
    const cmd = i.text ?? i.action ?? '';
    if (cmd === '/help') return [say(`hello ${i.userName}`, { title: `Hi **${i.userName}** @everyone` })];
    if (cmd.startsWith('/status')) {
      await gate();
      return [say('slow answer')];
    }
    if (cmd.startsWith('/untrack')) {
      await gate();
      return [{ lines: [line('only you see this')], target: 'ephemeral' }];
    }
    if (cmd.startsWith('/history') || cmd.startsWith('/routes'))
      return [
        { lines: [line('private stuff')], target: 'dm' },
        { lines: [line('Sent privately')], target: 'ephemeral' },
      ];
    if (cmd === '/networks copy')
      return [say('an id', { buttons: [[copyButton('Copy id', 'abc-123'), actionButton('Refresh', 'rf:copy')]] })];
    if (cmd === 'rf:copy') return [say('refreshed', { mode: 'edit' })];
    if (cmd === '/networks mine') return [say('a public card', { buttons: [[actionButton('Press', 'ny:1')]] })];
    if (cmd === 'ny:1')
      return [{ title: 'Not yours', tone: 'warning', lines: [line('only for the presser')], target: 'ephemeral', mode: 'edit' }];
    if (cmd.startsWith('/networks')) {
      return [say('pick one', { buttons: [Array.from({ length: 8 }, (_, n) => actionButton(`Network ${n}`, `net:${n}`))] })];
    }
    if (cmd.startsWith('net:')) return [say(`you picked ${cmd}`, { mode: 'edit' })];
    if (cmd === '/swap') {
      await gate();
      return [
        say('Where to?', {
          prompt: { label: 'Your address on Base', placeholder: '0x…', maxLength: 64 },
          buttons: [[actionButton('Cancel', 'cx:1')]],
        }),
      ];
    }
    if (cmd === '/tracking') throw new Error('boom: a bug in a handler');
    if (cmd.startsWith('/quote')) return [say('quoted', { buttons: [[actionButton('Swap this', 'sw:1')]] })];
    if (cmd === 'sw:1') {
      await gate();
      return [say('edited after a wait', { mode: 'edit', buttons: [[actionButton('Next', 'nx:1')]] })];
    }
    return [say(`got ${cmd}`)];
  },
  Array.from({ length: 40 }, (_, n) => ({ label: `Network number ${n} ${'x'.repeat(120)}`, value: `NET_${n}` })),
);

beforeAll(async () => {
  h = await startDiscordHarness(core, { ackBudgetMs: 300 });
});
afterAll(async () => h?.close());

async function answerOf(it: InteractionState): Promise<StoredMessage> {
  const id = await waitFor(() => (it.originalId && !h.fake.message(it.originalId).loading ? it.originalId : undefined), 'an answer');
  return h.fake.message(id);
}
const lastSeen = () => core.seen[core.seen.length - 1];

describe('acknowledging within 3 seconds', () => {
  it('defers a slow command publicly, then fills the placeholder with the answer', async () => {
    const it1 = h.fake.slashCommand(h.alice, 'status', { swap_id: 'abc' });
    await waitFor(() => it1.callbacks[0], 'the deferral');
    expect(it1.callbacks[0]?.type).toBe(5); // acknowledged while the core was still working
    release();
    const answer = await answerOf(it1);
    expect(answer.ephemeral).toBe(false);
    expect(unescape(embedText(answer))).toBe('slow answer');
  });

  it('deletes a public placeholder before an answer only the user may see', async () => {
    const it1 = h.fake.slashCommand(h.alice, 'untrack', { swap_id: 'abc' });
    await waitFor(() => it1.callbacks[0], 'the deferral');
    release();
    const id = await waitFor(() => it1.followupIds[0], 'the follow-up');
    expect(h.fake.message(id).ephemeral).toBe(true);
    expect(h.fake.message(it1.originalId).deleted).toBe(true);
  });

  it('defers a slow button as an update and edits the message it belongs to', async () => {
    const quoted = await answerOf(h.fake.slashCommand(h.alice, 'quote', { amount: 1, token: 'USDC', from: 'A', to: 'B' }));
    const press = h.fake.pressButton(h.alice, quoted, buttonId(quoted, 'Swap this'));
    await waitFor(() => press.callbacks[0], 'the deferral');
    expect(press.callbacks[0]?.type).toBe(6);
    release();
    await waitFor(() => quoted.history.length > 1, 'the edit');
    expect(unescape(embedText(quoted))).toBe('edited after a wait');
    expect(buttonLabels(quoted)).toEqual(['Next']);
    expect(lastSeen()).toMatchObject({
      action: 'sw:1',
      messageRef: { platform: 'discord', chatId: quoted.channelId, messageId: quoted.id },
    });
  });
});

describe('replies, buttons, modals', () => {
  it('joins slash options into the command line in usage order, numbers without exponents', async () => {
    await answerOf(
      h.fake.slashCommand(h.alice, 'quote', {
        to: 'BASE_MAINNET',
        from: 'ARBITRUM_MAINNET',
        token: 'USDC',
        amount: 0.0000001,
        to_token: 'ETH',
      }),
    );
    expect(lastSeen()).toMatchObject({
      text: '/quote 0.0000001 USDC ARBITRUM_MAINNET BASE_MAINNET ETH',
      chatKind: 'group',
      chatId: h.guild.channelIds[0],
      userId: h.alice.user.id,
      userName: 'Alice',
    });
  });

  it('escapes user text in cards: no markdown, no mentions', async () => {
    const answer = await answerOf(h.fake.slashCommand(h.alice, 'help'));
    const embed = (answer.body.embeds as Array<{ title: string }>)[0];
    expect(embed?.title).toBe('Hi \\*\\*Alice\\*\\* \\@everyone');
  });

  it('turns a row of more than five choices into a select menu, and copy buttons into an ephemeral copy', async () => {
    const answer = await answerOf(h.fake.slashCommand(h.alice, 'networks'));
    const rows = answer.body.components as Array<{ components: Array<{ type: number; custom_id: string; options?: unknown[] }> }>;
    const select = rows[0]?.components[0];
    expect(select?.type).toBe(3);
    expect(select?.options).toHaveLength(8);
    const picked = h.fake.selectOption(h.alice, answer, select?.custom_id ?? '', 'net:5');
    await waitFor(() => picked.callbacks[0], 'the pick');
    expect(lastSeen()?.action).toBe('net:5');
    await waitFor(() => answer.history.length > 1, 'the edit');
    expect(unescape(embedText(answer))).toBe('you picked net:5');

    const seen = core.seen.length;
    const fresh = await answerOf(h.fake.slashCommand(h.alice, 'networks', { type: 'copy' }));
    const copy = await answerOf(h.fake.pressButton(h.alice, fresh, buttonId(fresh, 'Copy id')));
    expect(copy.ephemeral).toBe(true);
    expect(copy.body.content).toBe('`abc-123`');
    expect(core.seen.length).toBe(seen + 1); // the copy press never reached the core

    // A message with something to copy (deposit details) is never replaced: an edit comes as a new message.
    const versions = fresh.history.length;
    const refresh = h.fake.pressButton(h.alice, fresh, buttonId(fresh, 'Refresh'));
    const refreshed = await answerOf(refresh);
    expect(refreshed.id).not.toBe(fresh.id);
    expect(unescape(embedText(refreshed))).toBe('refreshed');
    expect(fresh.history).toHaveLength(versions);
  });

  it('answers a press on a public message privately without touching that message when the answer is ephemeral', async () => {
    const card = await answerOf(h.fake.slashCommand(h.alice, 'networks', { type: 'mine' }));
    const versions = card.history.length;
    const answer = await answerOf(h.fake.pressButton(h.bob, card, buttonId(card, 'Press')));
    expect(answer.id).not.toBe(card.id);
    expect(answer.ephemeral).toBe(true);
    expect(unescape(embedText(answer))).toContain('only for the presser');
    expect(card.history).toHaveLength(versions);
  });

  it('shows a prompt that came after a deferral as a button that opens the modal', async () => {
    const swap = h.fake.slashCommand(h.alice, 'swap');
    await waitFor(() => swap.callbacks[0], 'the deferral');
    release();
    // A question for one person to type into is theirs: the public placeholder gives way to an ephemeral message.
    const asked = await waitFor(() => swap.followupIds.map((id) => h.fake.message(id))[0], 'the question');
    expect(asked.ephemeral).toBe(true);
    expect(h.fake.message(swap.originalId).deleted).toBe(true);
    expect(buttonLabels(asked)).toEqual(['Cancel', '✏️ Your address on Base']);
    const open = h.fake.pressButton(h.alice, asked, buttonId(asked, '✏️ Your address on Base'));
    await waitFor(() => open.modal, 'the modal');
    expect(JSON.stringify(open.modal)).toContain('"max_length":64');
    const submitted = h.fake.submitModal(h.alice, open, '  0xabc  ');
    await waitFor(() => submitted.callbacks[0], 'the answer to the modal');
    expect(lastSeen()).toMatchObject({ text: '0xabc', messageRef: { messageId: asked.id } });
  });

  it('keeps DMs for DMs: replies to a DM command land in the DM, not as extra messages', async () => {
    const it1 = h.fake.slashCommand(h.aliceDm, 'history');
    const answer = await answerOf(it1);
    expect(lastSeen()).toMatchObject({ chatKind: 'private', chatId: h.alice.user.id });
    expect(answer.channelId).toBe(h.fake.world.dmChannel(h.alice.user.id).id);
    expect(unescape(embedText(answer))).toBe('private stuff');
  });

  it('sends dm replies from a server privately, noting it where the command was used', async () => {
    const dm = h.fake.world.dmChannel(h.alice.user.id).id;
    const before = h.fake.messagesIn(dm).length;
    const it1 = h.fake.slashCommand(h.alice, 'routes', { network: 'BASE_MAINNET' });
    const note = await answerOf(it1);
    expect(note.ephemeral).toBe(true);
    expect(unescape(embedText(note))).toBe('Sent privately');
    await waitFor(() => h.fake.messagesIn(dm).length > before, 'the DM');
    expect(unescape(embedText(h.fake.messagesIn(dm).at(-1) as StoredMessage))).toBe('private stuff');
  });

  it('answers a failing handler with a polite ephemeral error and keeps running', async () => {
    const failed = await answerOf(h.fake.slashCommand(h.alice, 'tracking'));
    expect(failed.ephemeral).toBe(true);
    expect(unescape(embedText(failed))).toBe(t('en', 'error.bug.reason'));
    const logs = h.logLines.join('');
    expect(logs).toContain('could not answer an interaction');
    expect(logs).not.toContain(h.token);
    expect(logs).not.toMatch(/aW50ZXJhY3Rpb24/); // no interaction token either
    const ok = await answerOf(h.fake.slashCommand(h.alice, 'help'));
    expect(ok.deleted).toBe(false);
  });

  it('refuses a forged adapter button politely', async () => {
    const quoted = await answerOf(h.fake.slashCommand(h.alice, 'quote', { amount: 1, token: 'U', from: 'A', to: 'B' }));
    (quoted.body.components as Array<{ components: Array<{ custom_id: string }> }>)[0]!.components[0]!.custom_id = '~dc:zz';
    const forged = await answerOf(h.fake.pressButton(h.alice, quoted, '~dc:zz'));
    expect(forged.ephemeral).toBe(true);
    expect(String(forged.body.content)).toMatch(/no longer valid/);
    // In the presser's language (their Discord client's locale; a /language choice wins where the core has one).
    const carlos = {
      user: h.fake.world.addUser({ id: '2100000000000000077', username: 'carlos', locale: 'es-ES' }),
      guild: h.alice.guild!,
    };
    h.fake.world.addMember(carlos.guild, carlos.user.id);
    const again = await answerOf(h.fake.pressButton(carlos, quoted, '~dc:zz'));
    expect(again.ephemeral).toBe(true);
    expect(String(again.body.content)).toBe(t('es', 'platform.discord.buttonGone'));
  });
});

describe('autocomplete', () => {
  it('answers at most 25 choices of at most 100 characters', async () => {
    const choices = await h.fake.autocomplete(h.alice, 'quote', { amount: 5, from: 'ARB', to: 'ba' }, 'to');
    expect(choices).toHaveLength(25);
    expect(choices[0]).toMatchObject({ value: 'NET_0' });
    for (const c of choices) expect(String(c.name).length).toBeLessThanOrEqual(100);
  });
});

describe('the gateway connection', () => {
  it('identifies with JSON and no compression, and heartbeats are acknowledged', async () => {
    const stats = h.fake.gateway.stats;
    expect(stats.identifies).toEqual([{ intents: 1, token: 'ok' }]); // Guilds only: no privileged intents
    expect(stats.queries[0]).toBe('v=10&encoding=json');
    await waitFor(() => stats.heartbeats >= 1, 'a heartbeat');
    expect(stats.acks).toBe(stats.heartbeats);
  });

  it('resumes after the connection drops and keeps answering', async () => {
    h.fake.gateway.dropConnections(4000);
    await waitFor(() => h.fake.gateway.stats.resumes >= 1 && h.fake.gateway.connected, 'a resume');
    const answer = await answerOf(h.fake.slashCommand(h.alice, 'help'));
    expect(unescape(embedText(answer))).toContain('hello Alice');
    expect(h.fake.gateway.stats.identifies).toHaveLength(1); // resumed, not re-identified
  });
});

describe('starting', () => {
  it('fails clearly, without echoing it, when the token is wrong', async () => {
    const world = await startDiscordWorld();
    try {
      const wrong = 'MTEw.wrong.token-that-must-not-leak';
      const error = await connectBot({ ...world, token: wrong }, core).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(String(error)).toMatch(/invalid token/i);
      expect(String(error)).not.toContain(wrong);
    } finally {
      await world.fake.close();
    }
  });
});

describe('DISCORD_GATEWAY_URL', () => {
  it('connects to the configured gateway instead of the one GET /gateway/bot names', async () => {
    const world = await startDiscordWorld();
    world.fake.advertisedGateway = 'ws://127.0.0.1:9/nowhere';
    const other = await connectBot(world, core, { gatewayUrl: world.fake.gatewayUrl });
    try {
      const answer = await (async () => {
        const it1 = other.fake.slashCommand(other.alice, 'help');
        const id = await waitFor(() => it1.originalId, 'an answer');
        return other.fake.message(id);
      })();
      expect(unescape(embedText(answer))).toContain('hello Alice');
    } finally {
      await other.close();
    }
  });
});

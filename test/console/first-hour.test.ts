import { describe, expect, test } from 'vitest';
import { RedisHistoryStore } from '../../src/bot/history/store.js';
import type { Locale } from '../../src/i18n/index.js';
import { LanguageStore } from '../../src/i18n/store.js';
import { ChatUser, card, useHarness } from '../bot/support/conversation.js';
import { startPipeChat, type PipeChatOptions } from './pipe-chat.js';

/**
 * Issue 22 ("The first hour"), as a person meets it in the terminal chat (the real core, the
 * sandbox, real Redis): button numbers that stay valid when a pushed card arrives, the short id on
 * every card, and languages at the edges.
 */
const h = useHarness();
const pipeChat = (opts: PipeChatOptions = {}) => startPipeChat(h, { userId: `fh-${Math.random()}`, ...opts });
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

type Chat = ReturnType<typeof pipeChat>;

/** Creates a swap by pressing the buttons a person reads off the screen; returns its id. */
async function createSwap(c: Chat): Promise<string> {
  await c.says('/swap 100 USDC arbitrum base', '› Your address on Base');
  await c.says(DEST, 'Skip (no refund address)');
  await c.presses('Skip (no refund address)', 'No refuel');
  await c.presses('No refuel', 'Confirm');
  const deposit = await c.presses('Confirm', /Swap id: [0-9a-f-]{36}[\s\S]*I've sent it/);
  return /Swap id: ([0-9a-f-]{36})/.exec(deposit)?.[1] as string;
}

describe('terminal chat: button numbers (issue 22, item 4)', () => {
  test('a pushed card does not take over the numbers: "I\'ve sent it" on the deposit card still presses', async () => {
    const c = pipeChat();
    const id = await createSwap(c);
    const sent = c.numberOf("I've sent it");
    // Tracking pushes the swap's status card below the deposit card, with buttons of its own.
    await c.chat.messenger.send(
      { platform: 'console', chatId: 'x', chatKind: 'private' },
      {
        title: `Swap ${id.slice(0, 8)}: Waiting for your deposit`,
        lines: [],
        buttons: [[{ kind: 'action', label: 'Refresh', action: `st:${id}` }]],
        target: 'here',
      },
    );
    const refresh = c.numberOf('Refresh');
    expect(refresh).not.toBe(sent);
    const at = c.text.length;
    c.type(sent);
    const out = await c.waitFor('› Deposit transaction hash', at);
    expect(out).not.toContain('There is no button');
    // The pushed card's own number presses its own button.
    const at2 = c.text.length;
    c.type(`#${refresh}`);
    await c.waitFor(`Swap ${id.slice(0, 8)}: Waiting for your deposit`, at2);
    c.end();
    await c.chat.done;
  });

  test('at a text step the prompt says how to press a button, and "#n" presses it while a plain number is an answer', async () => {
    const c = pipeChat();
    await c.says('/swap 100 USDC arbitrum base', '› Your address on Base');
    const refund = await c.says(DEST, '› Refund address on Arbitrum One');
    const skip = c.numberOf('Skip (no refund address)');
    expect(skip).toMatch(/^#\d+$/);
    // The hint names the first button: the recommended refund address (the one just given).
    const first = c.numberOf('Use 0xd8dA…6045 (recommended)');
    expect(refund).toContain(`(A plain number here is your answer. To press a button, type # and its number, e.g. ${first}.)`);
    // A pushed card arriving meanwhile leaves the question open: a plain number is still an answer.
    await c.chat.messenger.send(
      { platform: 'console', chatId: 'x', chatKind: 'private' },
      { title: 'Pushed', lines: [], buttons: [[{ kind: 'action', label: 'History', action: 'hs:0' }]], target: 'here' },
    );
    const history = c.numberOf('History');
    expect(history).toMatch(/^#\d+$/);
    const answered = await c.says(history.slice(1), '› Refund address on Arbitrum One');
    expect(answered).not.toContain('No swaps yet');
    await c.says(skip, 'No refuel');
    c.end();
    await c.chat.done;
  });

  test("a number no button has says which numbers there are, in the chat's language", async () => {
    const c = pipeChat({ locale: 'ru' });
    c.type('/quote 100 USDC arbitrum base');
    await c.waitFor('[1] Обменять  [2] Обновить');
    const at = c.text.length;
    c.type('77');
    await c.waitFor('Кнопки 77 нет: кнопки на экране пронумерованы от 1 до 2.', at);
    c.end();
    await c.chat.done;
  });
});

describe('terminal chat: the short id on every card (issue 22, item 5)', () => {
  test('/status, /track and /untrack take the 8-character id the cards show; several matches ask; unknown ones say what to send', async () => {
    const c = pipeChat();
    const id = await createSwap(c);
    const short = id.slice(0, 8);
    const status = await c.says(`/status ${short}`, `Swap ${short}: `);
    expect(status).not.toContain('That is not a swap id');

    // The creator's private chat follows it: /untrack by the short id stops that.
    await c.says(`/untrack ${short}`, 'Stopped following');
    await c.says(`/untrack ${short}`, `This chat follows no swap starting with ${short}.`);
    await c.says(`/track ${short}`, 'Following this swap');

    // Another swap of this user's starting the same way: the short id asks which, a button each.
    const twin = `${short}-0000-4000-8000-000000000000`;
    await new RedisHistoryStore(h.redis, h.prefix).add('console', c.userId, { swapId: twin, createdAt: h.clock.now(), summary: 'x' });
    const choice = await c.says(`/status ${short}`, twin);
    expect(choice).toContain('Several swaps you know start with this; pick one:');
    expect(choice).toContain(`] ${id}`);
    await c.presses(id, `Swap ${short}: `);

    // A short id nobody here has seen.
    const unknown = short.startsWith('f') ? '0a0a0a0a' : 'fafafafa';
    const none = await c.says(`/status ${unknown}`, '/history');
    expect(none).toContain(`None of your swaps, the swaps you follow or this chat's starts with ${unknown}.`);
    expect(none).toContain('Send the whole swap id');
    c.end();
    await c.chat.done;
  });
});

describe('short ids in a group', () => {
  test('a short id that matches several of my own swaps asks privately, never listing my swaps in the group', async () => {
    const userId = `fh-g-${Math.random()}`;
    const a = '5eed5eed-0000-4000-8000-00000000000a';
    const b = '5eed5eed-0000-4000-8000-00000000000b';
    const history = new RedisHistoryStore(h.redis, h.prefix);
    for (const swapId of [a, b]) await history.add('console', userId, { swapId, createdAt: h.clock.now(), summary: 'x' });
    const member = new ChatUser(h, { userId, chatId: `group-${userId}`, chatKind: 'group' });
    const choice = card(await member.says('/status 5eed5eed'), { contains: ['5eed5eed'] });
    expect(choice.target).not.toBe('here');
    expect(choice.buttons?.flat().map((x) => x.label)).toEqual(expect.arrayContaining([a, b]));
  });
});

describe('terminal chat: languages at the edges (issue 22, item 6)', () => {
  test("/language takes a code or a language's name; an unknown one says so and offers the buttons", async () => {
    const c = pipeChat();
    await c.says('/language ru', 'Язык сохранён');
    await c.says('/help', 'Что я умею');
    await c.says('/language Español', 'Idioma guardado');
    const unknown = await c.says('/language klingon', '简体中文');
    expect(unknown).toContain('No conozco el idioma «klingon».');
    await c.says('/language english', 'Language saved');
    c.end();
    await c.chat.done;
  });

  test.each([
    ['ru', '100 USDC в сети Arbitrum One → USDC в сети Base'],
    ['zh-CN', 'Arbitrum One 上的 100 USDC → Base 上的 USDC'],
  ])("/history words a swap made in English in the reader's language (%s)", async (lang, route) => {
    const c = pipeChat();
    await createSwap(c);
    // The reader chose another language since (as /language does).
    await new LanguageStore(h.redis, h.prefix).set('user', 'console', c.userId, lang as Locale);
    const at = c.text.length;
    c.type('/history');
    const list = await c.waitFor(route, at);
    expect(list).not.toContain(' on Arbitrum One');
    c.end();
    await c.chat.done;
  });
});

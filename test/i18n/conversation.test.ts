import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Incoming } from '../../src/contracts/incoming.js';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import { startHarness, type Harness } from '../bot/support/conversation.js';

/** Conversations through the real core (sandbox, Redis) in the user's language. */
describe('replies in the user\'s language', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const say = (extra: Partial<Incoming> & { userId: string }): Promise<Reply[]> =>
    h.core.handle({ platform: 'telegram', userName: 'T', chatId: extra.userId, chatKind: 'private', ...extra });
  const press = async (replies: Reply[], label: string, who: Partial<Incoming> & { userId: string }): Promise<Reply[]> => {
    const b = replies.flatMap(replyButtons).find((x) => x.label === label);
    if (b?.kind !== 'action') throw new Error(`no button ${label}`);
    return say({ ...who, action: b.action });
  };

  it('Telegram language_code ru answers in Russian; an unknown language gets English', async () => {
    expect(replyText((await say({ userId: 'ru1', locale: 'ru', text: '/frobnicate' }))[0]!)).toContain('Я не знаю команду /frobnicate');
    expect(replyText((await say({ userId: 'fa1', locale: 'fa', text: '/frobnicate' }))[0]!)).toContain('I do not know /frobnicate');
    expect(replyText((await say({ userId: 'zh1', locale: 'zh-hans', text: 'hello' }))[0]!)).toContain('没太明白你的意思');
  });

  it('/language saves the choice per user, over the platform\'s language', async () => {
    const who = { userId: 'lang1', locale: 'ru' };
    const menu = await say({ ...who, text: '/language' });
    expect(menu[0]!.title).toBe('Язык');
    expect(replyButtons(menu[0]!).map((b) => b.label)).toEqual(['English', 'Русский', 'Español', '简体中文', 'Português (Brasil)']);
    const saved = await press(menu, 'Español', who);
    expect(replyText(saved[0]!)).toContain('A partir de ahora responderé en español.');
    expect(replyText((await say({ ...who, text: '/frobnicate' }))[0]!)).toContain('No conozco /frobnicate');
    // Another user with the same platform language is not affected.
    expect(replyText((await say({ userId: 'lang2', locale: 'ru', text: '/frobnicate' }))[0]!)).toContain('Я не знаю команду');
  });

  it('in a group only admins choose, and the chat\'s choice beats the presser\'s own language', async () => {
    const group = { chatId: 'g1', chatKind: 'group' as const };
    const member = { userId: 'm1', locale: 'ru', ...group, isChatAdmin: () => Promise.resolve(false) };
    const refused = await say({ ...member, text: '/language' });
    expect(refused[0]!.target).toBe('ephemeral');
    expect(replyButtons(refused[0]!)).toEqual([]);
    const admin = { userId: 'a1', locale: 'es', ...group, isChatAdmin: () => Promise.resolve(true) };
    const menu = await say({ ...admin, text: '/language' });
    // A group without a choice answers in the default language, not the admin's own.
    expect(menu[0]!.title).toBe('Language');
    await press(menu, '简体中文', admin);
    // A Russian-speaking member now gets the chat's Chinese.
    const forged = await say({ ...member, text: '/frobnicate' });
    expect(forged).toEqual([]); // groups stay quiet on unknown commands
    const errorInGroup = await press(menu, 'English', member);
    expect(replyText(errorInGroup[0]!)).toContain('此处仅管理员可以操作');
  });
});

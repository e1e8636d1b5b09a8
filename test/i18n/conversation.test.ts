import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Incoming } from '../../src/contracts/incoming.js';
import { lineText, replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import { t, type Locale } from '../../src/i18n/index.js';
import { startHarness, type Harness } from '../bot/support/conversation.js';

const ADDRESS = '0x1111111111111111111111111111111111111111';
/** What a field must keep whatever the language: amounts, token symbols, USD figures. */
const figures = (s: string): string[] => s.match(/\$?\d+(?:\.\d+)?|\b[A-Z]{2,}\b/g) ?? [];

/** Conversations through the real core (sandbox, Redis) in the user's language. */
describe("replies in the user's language", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

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
    expect(replyText((await say({ userId: 'zh1', locale: 'zh-hans', text: 'hello' }))[0]!)).toContain('没太明白您的意思');
  });

  it("/language saves the choice per user, over the platform's language", async () => {
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

  it("in a group only admins choose, and the chat's choice beats the presser's own language", async () => {
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

  /** A swap created through the wizard in this language, pressing the buttons by their translated labels. */
  async function createSwap(locale: Locale, userId: string): Promise<{ id: string; deposit: Reply[] }> {
    const who = { userId, locale };
    const quote = await say({ ...who, text: '/quote 100 USDC arbitrum base' });
    await press(quote, t(locale, 'quote.swapThis'), who);
    const refundAsk = await say({ ...who, text: ADDRESS });
    let next = await press(refundAsk, t(locale, 'wizard.skipRefund'), who);
    if (next.flatMap(replyButtons).some((b) => b.label === t(locale, 'wizard.refuelNo')))
      next = await press(next, t(locale, 'wizard.refuelNo'), who);
    const deposit = await press(next, t(locale, 'confirm.confirm'), who);
    const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(deposit.map(replyText).join('\n'))?.[0];
    if (!id) throw new Error(`no swap id in:\n${deposit.map(replyText).join('\n')}`);
    return { id, deposit };
  }

  it.each([
    [
      'ru',
      'Котировка: USDC Arbitrum One → USDC Base',
      ['Вы отправляете', 'Вы получаете', 'Минимум к получению', 'Комиссии', 'Ожидаемое время', 'Маршрут'],
      ['Обменять', 'Обновить', 'Поделиться'],
      '100 USDC в сети Arbitrum One',
      /^примерно \d+ секунд/,
    ],
    [
      'zh-CN',
      '报价：USDC Arbitrum One → USDC Base',
      ['您发送', '您收到', '最少到账', '费用', '预计时间', '路径'],
      ['兑换', '刷新', '分享'],
      'Arbitrum One 上的 100 USDC',
      /^约 ?\d+ ?秒/,
    ],
  ] as const)(
    '/quote in %s: the words translated, every amount, token and network as in English',
    async (locale, title, names, buttons, send, time) => {
      const [en] = await say({ userId: `q-en-${locale}`, locale: 'en', text: '/quote 100 USDC arbitrum base' });
      const [card] = await say({ userId: `q-${locale}`, locale, text: '/quote 100 USDC arbitrum base' });
      expect(card!.title).toBe(title);
      expect(card!.fields!.map((f) => f.name)).toEqual(names);
      expect(replyButtons(card!).map((b) => b.label)).toEqual(buttons);
      // The same figures in the same fields: only the words around them changed.
      expect(card!.fields!.map((f) => f.id)).toEqual(en!.fields!.map((f) => f.id));
      for (const [i, f] of card!.fields!.entries())
        expect(figures(lineText(f.value)), f.name).toEqual(figures(lineText(en!.fields![i]!.value)));
      const value = (id: string): string => lineText(card!.fields!.find((f) => f.id === id)!.value);
      expect(value('send')).toBe(send);
      expect(value('receive')).toMatch(/Base/);
      expect(value('time')).toMatch(time);
      expect(replyText(card!)).not.toMatch(/\b(on|You|Fees|about|seconds|Swap this|Refresh|Quote)\b/);
    },
  );

  it.each([
    [
      'ru',
      'Что я умею',
      '/quote <amount> <token> <from> <to> [<to-token>] Котировка обмена: комиссии, сумма к получению, время',
      'Где мой обмен?',
      'Пример: /quote 100 USDC from arbitrum to base',
    ],
    [
      'zh-CN',
      '我能做什么',
      '/quote <amount> <token> <from> <to> [<to-token>] 兑换报价：手续费、到账金额、时间',
      '我的兑换在哪里？',
      '示例： /quote 100 USDC from arbitrum to base',
    ],
  ] as const)('/help in %s: descriptions as in the menus, command lines as typed', async (locale, title, quoteLine, where, example) => {
    const [help] = await say({ userId: `h-${locale}`, locale, text: '/help' });
    expect(help!.title).toBe(title);
    const lines = help!.lines.map(lineText);
    expect(lines).toContain(quoteLine);
    expect(lines).toContain(example);
    expect(lines.join('\n')).toContain('/settings [');
    expect(replyButtons(help!).map((b) => b.label)).toEqual([where]);
    expect(replyText(help!)).not.toMatch(/What I can do|Quote a swap|Example:|Deposit details|Sent funds/);
  });

  it.each([
    [
      'ru',
      'Обменов пока нет',
      'Ваши обмены (1)',
      '100 USDC в сети Arbitrum One → USDC в сети Base',
      ['Добавить обмены на мои адреса', 'Экспорт в CSV'],
      'Ваши обмены в CSV (1)',
    ],
    [
      'zh-CN',
      '暂无兑换',
      '您的兑换（1）',
      'Arbitrum One 上的 100 USDC → Base 上的 USDC',
      ['包括转入我地址的兑换', '导出 CSV'],
      '您的兑换 CSV（1）',
    ],
  ] as const)(
    '/history in %s: empty, then the swap made in that language, its id and the export',
    async (locale, empty, title, route, buttons, exportTitle) => {
      const who = { userId: `hist-${locale}`, locale };
      expect((await say({ ...who, text: '/history' }))[0]!.title).toBe(empty);
      const { id, deposit } = await createSwap(locale, who.userId);
      // The deposit card in that language, the address and amount untouched.
      const depositText = deposit.map(replyText).join('\n');
      expect(depositText).toContain(t(locale, 'deposit.title', { id: id.slice(0, 8) }));
      expect(depositText).toMatch(/100 USDC/);
      const [list] = await say({ ...who, text: '/history' });
      expect(list!.title).toBe(title);
      const row = list!.lines.map(lineText).find((l) => l.includes(id));
      expect(row).toContain(route);
      // Swap again on the row, then the list's own buttons.
      expect(replyButtons(list!).map((b) => b.label)).toEqual([t(locale, 'swapAgain.row', { id: id.slice(0, 8) }), ...buttons]);
      const [csv] = await press([list!], buttons[1], who);
      expect(csv!.title).toBe(exportTitle);
      // The file stays a machine format: English column names, the id as is.
      const file = new TextDecoder().decode(csv!.attachment!.data);
      expect(file.split('\r\n')[0]).toMatch(/^date,swap_id,status,/);
      expect(file).toContain(id);
    },
  );
});

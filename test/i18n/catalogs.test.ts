import { describe, expect, it } from 'vitest';
import { CATALOGS, formatDuration, LOCALES, menuText, resolveLocale, t } from '../../src/i18n/index.js';
import { COMMANDS } from '../../src/bot/command-list.js';
import { telegramCommands } from '../../src/platforms/telegram/commands.js';
import { commandBody } from '../../src/platforms/discord/commands.js';

const placeholders = (s: string): string[] => [...s.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1] as string).sort();
const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (k: string): string => k.replace(PLURAL, '');
/** An i18next context form a language may add where its grammar needs one (formatDuration's `standalone`). */
const CONTEXT = /_standalone(?=_(zero|one|two|few|many|other)$|$)/;
const en = CATALOGS.en;

describe('catalogs', () => {
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    const cat = CATALOGS[locale];
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    it(`${locale}: every English key exists, with every plural form the language has`, () => {
      const missing: string[] = [];
      for (const key of new Set(Object.keys(en).map(base))) {
        const plural = Object.hasOwn(en, `${key}_other`);
        const needed = plural ? categories.map((c) => `${key}_${c}`) : [key];
        for (const k of needed) if (!Object.hasOwn(cat, k)) missing.push(k);
      }
      expect(missing).toEqual([]);
    });
    it(`${locale}: no key English lacks, and the same placeholders as English`, () => {
      for (const [k, v] of Object.entries(cat)) {
        const plain = k.replace(CONTEXT, '');
        const enKey = Object.hasOwn(en, plain) ? plain : `${base(plain)}_other`;
        expect(Object.hasOwn(en, enKey), `${locale} has ${k}, English does not`).toBe(true);
        // A plural form may leave out {{count}} (Russian "1 час" reads as "час"), nothing else.
        const want = placeholders(en[enKey] as string).filter((p) => !(PLURAL.test(k) && p === 'count'));
        expect(
          placeholders(v).filter((p) => !(PLURAL.test(k) && p === 'count')),
          `${locale} ${k}`,
        ).toEqual(want);
        expect(v.trim(), `${locale} ${k} is empty`).not.toBe('');
      }
    });
  }
});

describe('locale resolution', () => {
  it.each([
    ['ru', 'ru'],
    ['ru-RU', 'ru'],
    ['ru_RU.UTF-8', 'ru'],
    ['es-419', 'es'],
    ['es-ES', 'es'],
    ['pt-br', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['zh-CN', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-hans', 'zh-CN'],
    ['zh-TW', 'en'],
    ['fa', 'en'],
    ['C.UTF-8', 'en'],
    ['', 'en'],
    [undefined, 'en'],
  ])('%s → %s', (tag, want) => {
    expect(resolveLocale(tag, 'en')).toBe(want);
  });
});

describe('formatting', () => {
  it("durations use each language's plural forms", () => {
    expect([1, 2, 5, 21, 22, 25].map((m) => formatDuration('ru', m * 60_000 + (m === 1 ? 30_000 : 0)))).toEqual([
      '2 минуты',
      '2 минуты',
      '5 минут',
      '21 минуту',
      '22 минуты',
      '25 минут',
    ]);
    expect(formatDuration('ru', 1_000)).toBe('1 секунду');
    // "Ожидаемое время: примерно 1 минута" (a value after a colon), but "идёт уже 1 минуту" (in a sentence).
    expect([1, 2, 5, 21].map((m) => formatDuration('ru', m * 60_000, { about: true, standalone: true }))).toEqual([
      'примерно 1 минута',
      'примерно 2 минуты',
      'примерно 5 минут',
      'примерно 21 минута',
    ]);
    expect(formatDuration('ru', 60_000, { about: true })).toBe('примерно 1 минуту');
    expect(formatDuration('ru', 1_000, { standalone: true })).toBe('1 секунда');
    expect(formatDuration('en', 60_000, { about: true, standalone: true })).toBe('about 1 minute');
    expect(formatDuration('es', 60_000, { about: true, standalone: true })).toBe('aproximadamente 1 minuto');
    expect(formatDuration('en', 1_000)).toBe('1 second');
    expect(formatDuration('en', 12_000)).toBe('12 seconds');
    expect(formatDuration('es', 5 * 60_000)).toBe('5 minutos');
    expect(formatDuration('zh-CN', 5 * 60_000)).toBe('5 分钟');
    expect(formatDuration('pt-BR', 150 * 60_000)).toBe('2 horas e 30 minutos');
  });
  it('names, amounts and placeholders pass through untranslated', () => {
    expect(t('ru', 'deposit.onNetwork', { network: 'Arbitrum One' })).toBe('в сети Arbitrum One');
    expect(t('zh-CN', 'deposit.pickNetwork', { exchange: 'Binance', network: 'Base', amount: '100.5', symbol: 'USDC' })).toContain(
      '100.5 USDC',
    );
  });
  it('the pseudo-locale wraps catalog text, and an unknown key is visible as such', () => {
    expect(t('pseudo', 'core.notSure.title')).toBe('⟦Not sure what you mean⟧');
  });
});

describe('menus in every language', () => {
  it('Telegram: each language has a full menu, in that language where translated', () => {
    for (const locale of LOCALES) {
      const menu = telegramCommands(COMMANDS, 'private', locale);
      expect(menu.map((c) => c.command)).toEqual(telegramCommands(COMMANDS, 'private').map((c) => c.command));
      for (const c of menu) expect(c.description.length).toBeGreaterThan(0);
    }
    const ru = telegramCommands(COMMANDS, 'private', 'ru');
    expect(ru.find((c) => c.command === 'quote')?.description).toBe('Котировка обмена: комиссии, сумма к получению, время');
    expect(telegramCommands(COMMANDS, 'private', 'zh-CN').find((c) => c.command === 'language')?.description).toBe('选择回复语言');
  });
  it('Discord: description_localizations for ru, es, zh-CN and pt-BR, names stay English', () => {
    const quote = commandBody(COMMANDS.find((c) => c.name === 'quote')!);
    expect(quote.name).toBe('quote');
    expect(Object.keys(quote.description_localizations ?? {}).sort()).toEqual(['es-419', 'es-ES', 'pt-BR', 'ru', 'zh-CN']);
    expect(quote.description_localizations?.['pt-BR']).toBe('Cotar um swap: taxas, valor recebido, tempo');
  });
  it('a command reworded in English keeps its English text rather than a stale translation', () => {
    expect(menuText('ru', 'command.quote.description', 'Quote a swap, reworded')).toBe('Quote a swap, reworded');
  });
});

/**
 * Every sentence a user reads, in their language (en, ru, es, zh-CN, pt-BR; anything else falls
 * back to English). How to use it:
 *
 * - In a handler: `ctx.t('quote.title', { from, to })`; `ctx.locale` is the resolved locale.
 * - In a card or anything without a Ctx: `t(locale, 'key', { vars })`, with the locale passed in.
 * - Add the key to EVERY file in src/i18n/locales/ (test/i18n/catalogs.test.ts checks that each
 *   language has the same keys and the same {{placeholders}}). English is the source of truth:
 *   keys are typed from en.json (CatalogKey), and test/i18n/keys.test.ts fails on unused ones.
 * - Plurals: give the count as `count` and write `key_one`/`key_other` (ru also `_few`/`_many`,
 *   zh only `_other`): i18next picks the form with Intl.PluralRules.
 * - Never translate network or token names, addresses, hashes or amounts: pass them as {{vars}}.
 *   Amounts a user may copy back into a command stay plain decimals (bot/kernel/format.ts), never
 *   formatNumber(), which groups digits for reading only.
 * - Tests: SWAPBOT_LOCALE=pseudo makes the default locale wrap every catalog string in ⟦…⟧, so a
 *   test can find any user-visible text that bypassed the catalogs.
 */
import i18next, { type i18n } from 'i18next';
import type { Span } from '../contracts/reply.js';
import { numberFormat } from './intl.js';
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };
import ptBR from './locales/pt-BR.json' with { type: 'json' };
import ru from './locales/ru.json' with { type: 'json' };
import zhCN from './locales/zh-CN.json' with { type: 'json' };

import { LOCALES, type Locale } from '../contracts/locale.js';

export { LOCALES, type Locale };
export type Vars = Record<string, string | number>;

/** i18next's plural forms: a key `x_one`/`x_other` is asked for as `x` with a `count`. */
type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type Unplural<K> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;
/**
 * Every key English has, as code asks for it (plural forms folded): a misspelt or removed key
 * fails `tsc`. A key built from a value is a template literal type over that value's union
 * (`error.${ErrorKind}.title`), so it is checked too. test/i18n/keys.test.ts finds keys no code uses.
 */
export type CatalogKey = Unplural<keyof typeof en>;
export type Translate = (key: CatalogKey, vars?: Vars) => string;
/** The parts X of the keys `<P>X<S>`: what a key family built from a value (a status, a kind) may be built from. */
export type KeyPart<P extends string, S extends string = ''> = CatalogKey extends infer K
  ? K extends `${P}${infer X}${S}`
    ? X
    : never
  : never;

/** Each language's name in itself, for the /language buttons. */
export const LOCALE_NAMES: Readonly<Record<(typeof LOCALES)[number], string>> = {
  en: 'English',
  ru: 'Русский',
  es: 'Español',
  'zh-CN': '简体中文',
  'pt-BR': 'Português (Brasil)',
};

export const CATALOGS: Readonly<Record<(typeof LOCALES)[number], Record<string, string>>> = { en, ru, es, 'zh-CN': zhCN, 'pt-BR': ptBR };

const instance: i18n = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(LOCALES.map((l) => [l, { translation: CATALOGS[l] }])),
  lng: 'en',
  fallbackLng: 'en',
  // Synchronous: resources are in memory, so t() is ready when this module has loaded.
  initAsync: false,
  // Replies are spans, never markup: nothing to escape here.
  interpolation: { escapeValue: false },
  returnNull: false,
  // Keys contain dots as namespaces of a flat catalog; ':' never appears in them.
  keySeparator: false,
  nsSeparator: false,
});

const isSupported = (l: string): l is (typeof LOCALES)[number] => (LOCALES as readonly string[]).includes(l);

/** A stored locale read back: one of ours (or the test pseudo-locale), else undefined. */
export const asLocale = (v: unknown): Locale | undefined => (typeof v === 'string' && (v === 'pseudo' || isSupported(v)) ? v : undefined);

/** The locale used when a message carries none: English, or the test's pseudo-locale. */
export function defaultLocale(): Locale {
  return process.env.SWAPBOT_LOCALE === 'pseudo' ? 'pseudo' : resolveLocale(process.env.SWAPBOT_LOCALE, 'en');
}

/**
 * A platform's language tag as one of ours: Telegram 'ru', 'pt-br'; Discord 'zh-CN', 'es-ES',
 * 'pt-BR'; a POSIX LANG 'ru_RU.UTF-8'. Chinese means Simplified unless it says Traditional
 * (zh-TW/zh-HK/Hant, which we do not have: English). Unknown or empty: the fallback.
 */
export function resolveLocale(tag: string | undefined | null, fallback: Locale = defaultLocale()): Locale {
  if (typeof tag !== 'string') return fallback;
  const clean = tag.trim().split(/[.@]/)[0]?.replace(/_/g, '-').toLowerCase() ?? '';
  if (clean === 'pseudo') return 'pseudo';
  const [lang, ...rest] = clean.split('-');
  switch (lang) {
    case 'en':
      return 'en';
    case 'ru':
      return 'ru';
    case 'es':
      return 'es';
    case 'pt':
      return 'pt-BR';
    case 'zh':
      return rest.some((p) => p === 'tw' || p === 'hk' || p === 'mo' || p === 'hant') ? fallback : 'zh-CN';
    default:
      return isSupported(clean) ? clean : fallback;
  }
}

/** A language tag we speak (as resolveLocale reads it), else undefined: never a fallback. */
export function knownLocale(tag: string | undefined | null): Locale | undefined {
  const none = Symbol('none') as unknown as Locale;
  const l = resolveLocale(tag, none);
  return l === none ? undefined : l;
}

/** Names a person may type for a language: its code, its name in itself, its English name. */
const LANGUAGE_NAMES: Readonly<Record<(typeof LOCALES)[number], readonly string[]>> = {
  en: ['english', 'английский', '英语', 'inglés', 'ingles', 'inglês'],
  ru: ['russian', 'русский', 'russkiy', '俄语', 'ruso', 'russo'],
  es: ['spanish', 'español', 'espanol', 'испанский', '西班牙语', 'espanhol'],
  'zh-CN': ['chinese', '中文', '简体中文', '汉语', 'китайский', 'chino', 'chinês', 'chines'],
  'pt-BR': ['portuguese', 'português', 'portugues', 'português (brasil)', 'brazilian', 'португальский', '葡萄牙语', 'portugués'],
};

/** A language a person typed (/language ru, /language Русский, /language chinese), else undefined. */
export function localeFromName(input: string): Locale | undefined {
  const key = input.trim().toLowerCase();
  if (key === '') return undefined;
  for (const l of LOCALES) if (LOCALE_NAMES[l].toLowerCase() === key || LANGUAGE_NAMES[l].includes(key)) return l;
  const l = knownLocale(key);
  return l === 'pseudo' ? undefined : l;
}

/** One catalog string in a locale, with {{vars}} filled in. A missing key shows the English one. */
export function t(locale: Locale, key: CatalogKey, vars?: Vars): string {
  if (locale === 'pseudo') return `⟦${instance.t(key, { ...vars, lng: 'en' })}⟧`;
  return instance.t(key, { ...vars, lng: locale });
}

export const translator =
  (locale: Locale): Translate =>
  (key, vars) =>
    t(locale, key, vars);

/** Whether a catalog has the key (English is the reference): for keys built from outside data. */
const hasKey = (key: string): key is CatalogKey => Object.hasOwn(CATALOGS.en, key) || Object.hasOwn(CATALOGS.en, `${key}_other`);

/** The Intl locale for a catalog locale (the pseudo-locale formats like English). */
export const intlLocale = (locale: Locale): string => (locale === 'pseudo' ? 'en' : locale);

/** A number for reading (grouped digits, the locale's decimal sign). Not for amounts a user copies. */
export const formatNumber = (locale: Locale, n: number, opts?: Intl.NumberFormatOptions): string =>
  numberFormat(intlLocale(locale), opts).format(n);

/**
 * The one duration formatter, with plurals from the catalogs (Intl.PluralRules). Two roundings:
 * - a wait (default): rounded up, to whole seconds under 90 s, else whole minutes, and hours past
 *   90 minutes ("12 seconds", "2 минуты", "1 hour 5 minutes"): never less than the real wait;
 * - an estimate (`about`): the figure a person would say, "about 45 seconds" (nearest 5 s past
 *   10 s), "about 2 minutes", "about 5 hours", "about 3 days".
 *
 * The catalogs' forms are those a sentence uses ("wait 1 minute", "in 1 minute", "it has been 1
 * minute": Russian "1 минуту"). `standalone` is a duration shown on its own after a label's colon
 * ("Estimated time: 1 minute": Russian "1 минута"): the catalogs' `_standalone` forms (i18next
 * context), which only languages that need them have, else the usual ones.
 */
export function formatDuration(locale: Locale, ms: number, opts: { about?: boolean; standalone?: boolean } = {}): string {
  if (!Number.isFinite(ms) || ms < 0) return t(locale, 'duration.unknown');
  const unit = (name: DurationUnit, count: number): string =>
    t(locale, `duration.${name}`, { count, ...(opts.standalone ? { context: 'standalone' } : {}) });
  if (opts.about) return aboutDuration(locale, ms / 1000, unit);
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 90) return unit('seconds', s);
  const m = Math.ceil(s / 60);
  if (m < 90) return unit('minutes', m);
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest === 0 ? unit('hours', h) : t(locale, 'duration.hoursMinutes', { hours: unit('hours', h), minutes: unit('minutes', rest) });
}

type DurationUnit = 'seconds' | 'minutes' | 'hours' | 'days';

function aboutDuration(locale: Locale, seconds: number, unit: (name: DurationUnit, count: number) => string): string {
  if (seconds < 1) return t(locale, 'duration.underSecond');
  const about = (name: DurationUnit, count: number) => t(locale, 'duration.about', { duration: unit(name, count) });
  if (seconds < 10) return about('seconds', Math.round(seconds));
  const s5 = Math.round(seconds / 5) * 5;
  if (s5 < 60) return about('seconds', s5);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return about('minutes', minutes);
  const hours = Math.round(seconds / 3600);
  if (hours < 24) return about('hours', hours);
  return about('days', Math.round(seconds / 86_400));
}

/**
 * A catalog sentence some of whose {{vars}} are spans (a bold amount, a code id, a relative time):
 * the translated text around them, in the language's own order, ready for `line(...)`.
 */
export function tSpans(locale: Locale, key: CatalogKey, vars: Readonly<Record<string, string | number | Span>>): Array<string | Span> {
  const spans: Span[] = [];
  const plain: Vars = {};
  // A span stands in the sentence as its index between two private-use characters (never in a catalog).
  for (const [name, v] of Object.entries(vars)) plain[name] = typeof v === 'object' ? `\uE000${spans.push(v) - 1}\uE000` : v;
  return t(locale, key, plain)
    .split(/\uE000(\d+)\uE000/)
    .flatMap((piece, i): Array<string | Span> => (i % 2 === 1 ? [spans[Number(piece)] as Span] : piece ? [piece] : []));
}

/** menuText's answers: a few hundred at most (locales x command and option descriptions). */
const menuTexts = new Map<string, string>();

/**
 * A command's or option's description for a menu in `locale`. The catalog's text is used only
 * while its English matches the declaration's, so a reworded command never shows a stale translation.
 */
export function menuText(locale: Locale, key: string, english: string): string {
  // /help lists every command's description (three lookups each): the catalogs do not change while running, so each is worked out once.
  const memo = `${locale}\u0000${key}\u0000${english}`;
  let text = menuTexts.get(memo);
  if (text === undefined) menuTexts.set(memo, (text = hasKey(key) && t('en', key) === english ? t(locale, key) : english));
  return text;
}

/** Telegram's language_code for each locale (ISO 639-1: Telegram menus are per two-letter code). */
export const TELEGRAM_LANGUAGE = { ru: 'ru', es: 'es', 'zh-CN': 'zh', 'pt-BR': 'pt' } as const;
/** Discord's locale names for each locale (es covers Spain and Latin America). */
export const DISCORD_LOCALES: Readonly<Record<Exclude<(typeof LOCALES)[number], 'en'>, readonly string[]>> = {
  ru: ['ru'],
  es: ['es-ES', 'es-419'],
  'zh-CN': ['zh-CN'],
  'pt-BR': ['pt-BR'],
};

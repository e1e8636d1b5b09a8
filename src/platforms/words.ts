import type { BotCore } from '../bot/core.js';
import { resolveLocale, translator, type Translate } from '../i18n/index.js';

export type LocaleOf = NonNullable<BotCore['localeOf']>;
export type LocaleQuery = Parameters<LocaleOf>[0];

/**
 * The few words an adapter says itself (a stale button, a pointer to the private chat, an
 * apology when the core failed), from the catalogs, in the language the core would answer `who`
 * in: their /language choice, else the platform's tag. Never throws.
 */
export async function adapterWords(localeOf: LocaleOf | undefined, who: LocaleQuery): Promise<Translate> {
  const fallback = () => resolveLocale(who.chatKind === 'private' ? who.locale : who.chatLocale);
  const locale = localeOf ? await localeOf(who).catch(fallback) : fallback();
  return translator(locale);
}

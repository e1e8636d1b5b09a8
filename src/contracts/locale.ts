/**
 * The languages the bot speaks, named here so contracts stand alone: tracking is told a chat's
 * language in these terms, and i18n/ holds the catalogs behind them.
 */
export const LOCALES = ['en', 'ru', 'es', 'zh-CN', 'pt-BR'] as const;
/** 'pseudo' is the test locale: English wrapped in ⟦…⟧. */
export type Locale = (typeof LOCALES)[number] | 'pseudo';

import type { Command } from '../kernel/command.js';
import { isPublic, type Ctx } from '../kernel/context.js';
import { actionButton, line, type Reply } from '../../contracts/reply.js';
import { notice } from '../kernel/replies.js';
import { VERBS } from '../kernel/verbs.js';
import { mayManageTracking } from '../follow/index.js';
import { LOCALE_NAMES, LOCALES, localeFromName, t, type Locale } from '../../i18n/index.js';
import { LanguageStore } from '../../i18n/store.js';

const adminsOnly = (ctx: Ctx): Reply => ({
  ...notice(ctx.t('language.adminsOnly.title'), [line(ctx.t('language.adminsOnly.text'))], 'warning'),
  target: 'ephemeral',
});

/**
 * /language: one button per language, each named in itself; /language ru (a code or a language's
 * name, in itself or in English) saves it at once. In groups and channels, for admins only.
 */
async function language(ctx: Ctx, args = ''): Promise<Reply[]> {
  if (!(await mayManageTracking(ctx))) return [adminsOnly(ctx)];
  const typed = args.trim();
  const chosen = typed ? localeFromName(typed) : undefined;
  if (chosen) return save(ctx, chosen, 'new');
  const buttons = await Promise.all(
    LOCALES.map(async (l) => actionButton(LOCALE_NAMES[l], await ctx.codec.encode({ verb: VERBS.setLanguage, args: [l] }))),
  );
  const current = ctx.locale === 'pseudo' ? 'pseudo' : LOCALE_NAMES[ctx.locale];
  const head = typed
    ? notice(
        ctx.t('language.title'),
        [
          line(ctx.t('language.unknownTyped', { name: typed.slice(0, 30), codes: LOCALES.join(', ') })),
          line(ctx.t('language.current', { name: current })),
        ],
        'warning',
      )
    : notice(ctx.t('language.title'), [
        line(ctx.t(isPublic(ctx) ? 'language.chooseChat' : 'language.choose')),
        line(ctx.t('language.current', { name: current })),
      ]);
  return [{ ...head, buttons: [buttons.slice(0, 3), buttons.slice(3)] }];
}

/** Saves the choice for the user (private chat) or the chat (admins checked), answered in the new language. */
async function save(ctx: Ctx, locale: Locale, mode: 'new' | 'edit'): Promise<Reply[]> {
  const { platform, userId, chatId, chatKind } = ctx.incoming;
  const scope = LanguageStore.scopeOf(chatKind);
  await ctx.languages.set(scope, platform, scope === 'user' ? userId : chatId, locale);
  return [{ ...notice(t(locale, 'language.saved.title'), [line(t(locale, 'language.saved.text'))], 'success'), mode }];
}

/** A language button: saved for the user (private chat) or the chat (admins), answered in the new language. */
export async function setLanguage(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const chosen = args[0];
  if (args.length !== 1 || chosen === undefined || !(LOCALES as readonly string[]).includes(chosen))
    return [notice(ctx.t('language.title'), [line(ctx.t('language.unknown', { name: String(chosen ?? '').slice(0, 20) }))], 'warning')];
  if (!(await mayManageTracking(ctx))) return [adminsOnly(ctx)];
  return save(ctx, chosen as Locale, 'edit');
}

export const languageCommand: Command = {
  name: 'language',
  description: 'Choose the language I answer in',
  inGroups: true,
  options: [
    { name: 'language', description: 'A language code or name, to skip the buttons (ru, es, Русский…)', type: 'string', required: false },
  ],
  usage: '/language [language]',
  run: language,
};

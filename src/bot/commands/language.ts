import type { Command } from '../command.js';
import { isPublic, type Ctx } from '../context.js';
import { actionButton, line, type Reply } from '../../contracts/reply.js';
import { notice } from '../replies.js';
import { VERBS } from '../verbs.js';
import { mayManageTracking } from '../lookup/follow.js';
import { LOCALE_NAMES, LOCALES, t, type Locale } from '../../i18n/index.js';
import { LanguageStore } from '../../i18n/store.js';

const adminsOnly = (ctx: Ctx): Reply => ({ ...notice(ctx.t('language.adminsOnly.title'), [line(ctx.t('language.adminsOnly.text'))], 'warning'), target: 'ephemeral' });

/** /language: one button per language, each named in itself. In groups and channels, for admins only. */
async function language(ctx: Ctx): Promise<Reply[]> {
  if (!(await mayManageTracking(ctx))) return [adminsOnly(ctx)];
  const buttons = await Promise.all(LOCALES.map(async (l) => actionButton(LOCALE_NAMES[l], await ctx.codec.encode({ verb: VERBS.setLanguage, args: [l] }))));
  const current = ctx.locale === 'pseudo' ? 'pseudo' : LOCALE_NAMES[ctx.locale];
  return [{
    ...notice(ctx.t('language.title'), [line(ctx.t(isPublic(ctx) ? 'language.chooseChat' : 'language.choose')), line(ctx.t('language.current', { name: current }))]),
    buttons: [buttons.slice(0, 3), buttons.slice(3)],
  }];
}

/** A language button: saved for the user (private chat) or the chat (admins), answered in the new language. */
export async function setLanguage(ctx: Ctx, args: string[]): Promise<Reply[]> {
  const chosen = args[0];
  if (args.length !== 1 || chosen === undefined || !(LOCALES as readonly string[]).includes(chosen)) return [notice(ctx.t('language.title'), [line(ctx.t('language.unknown', { name: String(chosen ?? '').slice(0, 20) }))], 'warning')];
  if (!(await mayManageTracking(ctx))) return [adminsOnly(ctx)];
  const locale = chosen as Locale;
  const { platform, userId, chatId, chatKind } = ctx.incoming;
  const scope = LanguageStore.scopeOf(chatKind);
  await ctx.languages.set(scope, platform, scope === 'user' ? userId : chatId, locale);
  return [{ ...notice(t(locale, 'language.saved.title'), [line(t(locale, 'language.saved.text'))], 'success'), mode: 'edit' }];
}

export const languageCommand: Command = { name: 'language', description: 'Choose the language I answer in', inGroups: true, options: [], usage: '/language', run: language };

import type { Api } from 'grammy';
import type { BotCommand } from 'grammy/types';
import { COMMANDS, type CommandSpec } from '../../bot/command-list.js';
import { menuText, TELEGRAM_LANGUAGE, type Locale } from '../../i18n/index.js';

/**
 * The command menu Telegram shows when a user types "/": every command in private chats, the
 * group-friendly ones in groups. Telegram wants 1-32 of [a-z0-9_] and a 1-256 character text.
 */
export function telegramCommands(specs: readonly CommandSpec[], scope: 'private' | 'group', locale: Locale = 'en'): BotCommand[] {
  return specs
    .filter((s) => scope === 'private' || s.inGroups)
    .filter((s) => /^[a-z0-9_]{1,32}$/.test(s.name))
    .map((s) => ({
      command: s.name,
      description: menuText(locale, `command.${s.name}.description`, s.description).slice(0, 256) || s.name,
    }));
}

/** setMyCommands for both scopes. Used at start and by `swapbot register-commands`. */
export async function registerTelegramCommands(api: Api, specs: readonly CommandSpec[] = COMMANDS): Promise<void> {
  await api.setMyCommands(telegramCommands(specs, 'private'), { scope: { type: 'all_private_chats' } });
  await api.setMyCommands(telegramCommands(specs, 'group'), { scope: { type: 'all_group_chats' } });
  // The same menus per language: Telegram shows the one matching the user's app language.
  for (const [locale, code] of Object.entries(TELEGRAM_LANGUAGE) as Array<
    [Locale, (typeof TELEGRAM_LANGUAGE)[keyof typeof TELEGRAM_LANGUAGE]]
  >) {
    await api.setMyCommands(telegramCommands(specs, 'private', locale), { scope: { type: 'all_private_chats' }, language_code: code });
    await api.setMyCommands(telegramCommands(specs, 'group', locale), { scope: { type: 'all_group_chats' }, language_code: code });
  }
}

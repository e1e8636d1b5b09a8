import type { CommandHandler, CommandSpec, Command } from '../kernel/command.js';
import { isPublic } from '../kernel/context.js';
import { actionButton, code, line, type Line } from '../../contracts/reply.js';
import { statusActions } from '../kernel/status-actions.js';
import { menuText, type Locale } from '../../i18n/index.js';

/** The command list as lines (usages stay as typed; descriptions as in the menus): in groups, only the commands offered there. */
function helpLines(commands: readonly CommandSpec[], inGroup: boolean, locale: Locale): Line[] {
  return commands
    .filter((c) => !inGroup || c.inGroups)
    .map((c) => line(code(c.usage), ` ${menuText(locale, `command.${c.name}.description`, c.description)}`));
}

/**
 * /help: the command list it is given (COMMANDS, the same list as Telegram's and Discord's menus;
 * passed in because the list holds /help itself).
 */
export function helpCommand(commands: () => readonly CommandSpec[]): Command {
  const run: CommandHandler = (ctx) =>
    Promise.resolve([
      {
        title: ctx.t('help.title'),
        tone: 'info',
        lines: [
          line(ctx.t('help.intro')),
          ...helpLines(commands(), isPublic(ctx), ctx.locale),
          line(ctx.t('help.example'), ' ', code('/quote 100 USDC from arbitrum to base')),
          line(
            ctx.t(isPublic(ctx) ? 'help.lostPublic' : 'help.lostPrivate', { where: ctx.t('statusCard.button.where') }),
            ' ',
            code(`/status <${ctx.t('help.statusArg')}>`),
          ),
          line(ctx.t('help.private')),
        ],
        // Its answer is free text, which only private chats send the bot.
        ...(isPublic(ctx) ? {} : { buttons: [[actionButton(ctx.t('statusCard.button.where'), statusActions.where())]] }),
        target: 'here',
      },
    ]);
  return { name: 'help', description: 'What this bot can do', inGroups: true, options: [], usage: '/help', run };
}

import type { CommandHandler, CommandSpec, Command } from '../command.js';
import { isPublic } from '../context.js';
import { actionButton, code, line, type Line } from '../../contracts/reply.js';
import { statusActions, WHERE_LABEL } from '../cards/status.js';

/** The command list as lines: in groups, only the commands offered there. */
function helpLines(commands: readonly CommandSpec[], inGroup: boolean): Line[] {
  return commands.filter((c) => !inGroup || c.inGroups).map((c) => line(code(c.usage), ` ${c.description}`));
}

/**
 * /help: the command list it is given (COMMANDS, the same list as Telegram's and Discord's menus;
 * passed in because the list holds /help itself).
 */
export function helpCommand(commands: () => readonly CommandSpec[]): Command {
  const run: CommandHandler = (ctx) => Promise.resolve([{
    title: 'What I can do',
    tone: 'info',
    lines: [
      line('I quote and create swaps between networks with Layerswap, and follow them until they finish.'),
      ...helpLines(commands(), isPublic(ctx)),
      line('Example: ', code('/quote 100 USDC from arbitrum to base')),
      line('Sent funds and cannot find your swap? ', isPublic(ctx) ? 'Send ' : 'Press Where is my swap?, or send ', code('/status <your deposit tx hash or wallet address>'), '.'),
      line('Deposit details are only ever sent to you privately. I never ask for keys or seed phrases.'),
    ],
    // Its answer is free text, which only private chats send the bot.
    ...(isPublic(ctx) ? {} : { buttons: [[actionButton(WHERE_LABEL, statusActions.where())]] }),
    target: 'here',
  }]);
  return { name: 'help', description: 'What this bot can do', inGroups: true, options: [], usage: '/help', run };
}

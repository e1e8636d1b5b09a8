import { COMMANDS } from '../command-list.js';
import { isPublic, type Ctx } from '../context.js';
import { code, line, type Line, type Reply } from '../../contracts/reply.js';

/** The command list, from COMMANDS (the same source as Telegram's and Discord's menus). */
export function helpLines(inGroup: boolean): Line[] {
  return COMMANDS.filter((c) => !inGroup || c.inGroups).map((c) => line(code(c.usage), ` ${c.description}`));
}

export function help(ctx: Ctx): Promise<Reply[]> {
  return Promise.resolve([{
    title: 'What I can do',
    tone: 'info',
    lines: [
      line('I quote and create swaps between networks with Layerswap, and follow them until they finish.'),
      ...helpLines(isPublic(ctx)),
      line('Example: ', code('/quote 100 USDC from arbitrum to base')),
      line('Deposit details are only ever sent to you privately. I never ask for keys or seed phrases.'),
    ],
    target: 'here',
  }]);
}

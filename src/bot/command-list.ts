import type { Command } from './command.js';
import { addressesCommand } from './commands/addresses.js';
import { cancelCommand } from './commands/cancel.js';
import { helpCommand } from './commands/help.js';
import { historyCommand } from './commands/history.js';
import { languageCommand } from './commands/language.js';
import { networksCommand } from './commands/networks.js';
import { quoteCommand } from './commands/quote.js';
import { routesCommand } from './commands/routes.js';
import { startCommand } from './commands/start.js';
import { statusCommand } from './commands/status.js';
import { swapCommand } from './commands/swap.js';
import { trackCommand } from './commands/track.js';
import { trackingCommand } from './commands/tracking.js';
import { untrackCommand } from './commands/untrack.js';
import { settingsCommandSpec } from './settings/settings.js';

export type { CommandOption, CommandSpec } from './command.js';

const help = helpCommand(() => COMMANDS);

/**
 * The commands the bot offers, each declared beside its handler: the single source for
 * Telegram's setMyCommands, Discord's slash-command definitions, /help and the router.
 */
export const COMMANDS: readonly Command[] = [
  quoteCommand, swapCommand, statusCommand, trackCommand, untrackCommand, trackingCommand,
  historyCommand, addressesCommand, networksCommand, routesCommand, cancelCommand, settingsCommandSpec, languageCommand, help,
];

/** Commands the router takes that no menu lists (platforms send /start themselves). */
export const UNLISTED_COMMANDS: readonly Command[] = [startCommand(help.run)];

import type { Command } from './kernel/command.js';
import { addressesCommand } from './addresses/command.js';
import { cancelCommand } from './swap/cancel.js';
import { helpCommand } from './help/command.js';
import { historyCommand } from './history/command.js';
import { languageCommand } from './language/command.js';
import { networksCommand } from './catalog/networks.js';
import { quoteCommand } from './swap/quote-command.js';
import { routesCommand } from './catalog/routes.js';
import { startCommand } from './start.js';
import { statusCommand } from './follow/status-command.js';
import { swapCommand } from './swap/command.js';
import { trackCommand } from './follow/track.js';
import { trackingCommand } from './follow/tracking.js';
import { untrackCommand } from './follow/untrack.js';
import { settingsCommandSpec } from './follow/settings.js';

export type { CommandOption, CommandSpec } from './kernel/command.js';

const help = helpCommand(() => COMMANDS);

/**
 * The commands the bot offers, each declared beside its handler: the single source for
 * Telegram's setMyCommands, Discord's slash-command definitions, /help and dispatch.
 */
export const COMMANDS: readonly Command[] = [
  quoteCommand,
  swapCommand,
  statusCommand,
  trackCommand,
  untrackCommand,
  trackingCommand,
  historyCommand,
  addressesCommand,
  networksCommand,
  routesCommand,
  cancelCommand,
  settingsCommandSpec,
  languageCommand,
  help,
];

/** Commands dispatch takes that no menu lists (platforms send /start themselves). */
export const UNLISTED_COMMANDS: readonly Command[] = [startCommand(help.run)];

import type { Reply } from '../../contracts/reply.js';
import type { Ctx } from './context.js';

/** A command option as Telegram's menu, Discord's slash commands and /help describe it. */
export interface CommandOption {
  name: string;
  description: string;
  type: 'string' | 'number';
  required: boolean;
  /** Discord autocompletes this option from the catalogue. */
  autocomplete?: 'network' | 'source_network' | 'destination_network' | 'token';
  /** For numbers: strictly above this. */
  greaterThan?: number;
}

export interface CommandSpec {
  name: string;
  description: string;
  /** Offered in group chats too (Telegram scopes; Discord servers). */
  inGroups: boolean;
  options: CommandOption[];
  /** How the options join into the command line the core parses, in order. */
  usage: string;
}

export type CommandHandler = (ctx: Ctx, args: string) => Promise<Reply[]>;
export type ActionHandler = (ctx: Ctx, args: string[]) => Promise<Reply[]>;

/** A command declared beside its handler: what the menus show and what runs. */
export interface Command extends CommandSpec {
  run: CommandHandler;
}

// Options several commands share.
export const AMOUNT: CommandOption = {
  name: 'amount',
  description: 'Amount to send, in the source token',
  type: 'number',
  required: true,
  greaterThan: 0,
};
export const TOKEN: CommandOption = {
  name: 'token',
  description: 'Token to send (symbol such as USDC, or contract address)',
  type: 'string',
  required: true,
  autocomplete: 'token',
};
export const FROM: CommandOption = {
  name: 'from',
  description: 'Source network',
  type: 'string',
  required: true,
  autocomplete: 'source_network',
};
export const TO: CommandOption = {
  name: 'to',
  description: 'Destination network',
  type: 'string',
  required: true,
  autocomplete: 'destination_network',
};
export const TO_TOKEN: CommandOption = {
  name: 'to_token',
  description: 'Token to receive (defaults to the same token)',
  type: 'string',
  required: false,
  autocomplete: 'token',
};
export const SWAP_ID: CommandOption = { name: 'swap_id', description: 'Swap id (a UUID)', type: 'string', required: true };
export const SWAP_LOOKUP: CommandOption = {
  name: 'swap_id',
  description: 'Swap id, deposit transaction hash or wallet address',
  type: 'string',
  required: true,
};

/**
 * The commands the bot offers, with their arguments: the single source for Telegram's
 * setMyCommands, Discord's slash-command definitions and /help.
 */
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

const amount: CommandOption = { name: 'amount', description: 'Amount to send, in the source token', type: 'number', required: true, greaterThan: 0 };
const token: CommandOption = { name: 'token', description: 'Token to send (symbol such as USDC, or contract address)', type: 'string', required: true, autocomplete: 'token' };
const from: CommandOption = { name: 'from', description: 'Source network', type: 'string', required: true, autocomplete: 'source_network' };
const to: CommandOption = { name: 'to', description: 'Destination network', type: 'string', required: true, autocomplete: 'destination_network' };
const toToken: CommandOption = { name: 'to_token', description: 'Token to receive (defaults to the same token)', type: 'string', required: false, autocomplete: 'token' };
const swapId: CommandOption = { name: 'swap_id', description: 'Swap id (a UUID)', type: 'string', required: true };

export const COMMANDS: readonly CommandSpec[] = [
  { name: 'quote', description: 'Quote a swap: fees, amount received, time', inGroups: true, options: [amount, token, from, to, toToken], usage: '/quote <amount> <token> <from> <to> [<to-token>]' },
  { name: 'swap', description: 'Create a swap and get its deposit address privately', inGroups: true, options: [{ ...amount, required: false }, { ...token, required: false }, { ...from, required: false }, { ...to, required: false }, toToken], usage: '/swap [<amount> <token> <from> <to> [<to-token>]]' },
  { name: 'status', description: 'Show the status of a swap', inGroups: true, options: [swapId], usage: '/status <swap id>' },
  { name: 'track', description: 'Follow a swap in this chat with live updates', inGroups: true, options: [swapId], usage: '/track <swap id>' },
  { name: 'untrack', description: 'Stop following a swap in this chat', inGroups: true, options: [swapId], usage: '/untrack <swap id>' },
  { name: 'tracking', description: 'List the swaps this chat follows', inGroups: true, options: [], usage: '/tracking' },
  { name: 'history', description: 'Your swaps created through this bot', inGroups: false, options: [], usage: '/history' },
  { name: 'networks', description: 'List supported networks', inGroups: true, options: [{ name: 'type', description: 'Network family, e.g. evm, solana, starknet', type: 'string', required: false }], usage: '/networks [type]' },
  { name: 'routes', description: 'Where you can swap to from a network', inGroups: true, options: [{ ...from, name: 'network', description: 'Source network' }, { ...token, required: false, description: 'Source token' }], usage: '/routes <network> [token]' },
  { name: 'cancel', description: 'Drop the swap you are setting up', inGroups: false, options: [], usage: '/cancel' },
  { name: 'help', description: 'What this bot can do', inGroups: true, options: [], usage: '/help' },
];

import { fail, msg, ok, type Result } from '../../kernel/problem.js';
import { checkBitcoinAddress } from './bitcoin.js';
import { checkCosmosAddress } from './cosmos.js';
import { checkEvmAddress } from './evm.js';
import { checkSolanaAddress } from './solana.js';
import { checkStarknetAddress } from './starknet.js';
import { checkStellarAddress } from './stellar.js';
import { checkTonAddress } from './ton.js';
import { checkTronAddress } from './tron.js';

/** The part of a network an address check needs. */
export interface AddressNetwork {
  name: string;
  display_name?: string | null;
  type?: string | null;
}

/** Network types whose accounts are EVM addresses. */
const EVM_LIKE = new Set(['evm', 'zksynclite', 'hyperliquid']);
const STARKNET_LIKE = new Set(['starknet', 'paradex']);
const MAX_GENERIC_ADDRESS = 128;

function isTestnet(name: string): boolean {
  return /TESTNET|SIGNET|REGTEST|_TEST\b/i.test(name);
}

/**
 * Checks an address for a network's family before any API call. Returns the address to use (trimmed;
 * bech32 lowered), or why it is wrong with the form the network expects, naming the network.
 */
export function checkAddress(raw: string, network: AddressNetwork): Result<string> {
  const input = raw.trim();
  const where = network.display_name || network.name;
  if (input === '') return fail('address.missing', msg('problem.address.missing', { network: where }));
  if (input.length > 200) return fail('address.too_long', msg('problem.address.tooLongOn', { network: where }));
  const type = (network.type ?? '').toLowerCase();
  let result: Result<string>;
  if (EVM_LIKE.has(type)) result = checkEvmAddress(input);
  else if (STARKNET_LIKE.has(type)) result = checkStarknetAddress(input);
  else if (type === 'solana') result = checkSolanaAddress(input);
  else if (type === 'ton') result = checkTonAddress(input);
  else if (type === 'tron') result = checkTronAddress(input);
  else if (type === 'bitcoin') result = checkBitcoinAddress(input, isTestnet(network.name));
  else if (type === 'cosmos') result = checkCosmosAddress(input);
  else if (type === 'stellar') result = checkStellarAddress(input);
  else if (/\s/.test(input)) result = fail('address.spaces', msg('problem.address.spaces'), msg('problem.address.spacesHint'));
  else if (input.length > MAX_GENERIC_ADDRESS)
    result = fail('address.too_long', msg('problem.address.tooLong', { max: MAX_GENERIC_ADDRESS }));
  else result = ok(input);
  if (result.ok) return result;
  // Name the network so the user sees which family was expected.
  return result.id === 'address.invalid' ? fail(result.id, msg('problem.address.invalidOf', { network: where }), result.hint) : result;
}

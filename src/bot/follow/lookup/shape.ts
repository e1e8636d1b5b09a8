import {
  checkBitcoinAddress,
  checkCosmosAddress,
  checkEvmAddress,
  checkSolanaAddress,
  checkTonAddress,
  checkTronAddress,
} from '../../swap/index.js';
import { parseSwapId, parseSwapIdPrefix } from '../../kernel/swap-id.js';
import { fail, msg, ok, type Result } from '../../kernel/problem.js';

/**
 * What /track, /status and "Where is my swap?" were given, recognised by shape alone (no request):
 * a swap id, a transaction hash, or a wallet address, with the network families it fits.
 * `orAddress` marks a hash that could also be a Starknet address (0x + 63/64 hex below 2^251): it is looked
 * up as a transaction first, and the reply then offers the address reading.
 */
export type LookupInput =
  | { kind: 'swap'; id: string }
  /** The start of a swap id ("13a8b6b4", as cards show it): found among the swaps the asker knows. */
  | { kind: 'short'; prefix: string }
  | { kind: 'transaction'; hash: string; families: string[]; orAddress?: boolean }
  | { kind: 'address'; address: string; families: string[] };

const HEX64 = /^[0-9a-fA-F]{64}$/;
const UUIDISH = /^[0-9a-fA-F]{8}-[0-9a-fA-F-]+$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

const EXAMPLES = msg('problem.lookup.examples', { example: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b' });

/**
 * Whether hex digits can be a Starknet address: those are below 2^251 (64 digits starting 00-07),
 * which 31 in 32 EVM transaction hashes are not.
 */
const starknetFelt = (digits: string): boolean => BigInt(`0x${digits}`) < 2n ** 251n;

/** Whether a check of one address family accepts the input. */
const fits = (r: Result<string>): boolean => r.ok;

export function parseLookup(raw: string | undefined): Result<LookupInput> {
  const input = (raw ?? '').trim();
  if (input === '') return fail('lookup.missing', msg('problem.lookup.missing'), msg('problem.lookup.forExample', { examples: EXAMPLES }));
  if (/\s/.test(input)) return fail('lookup.spaces', msg('problem.lookup.spaces'), msg('problem.lookup.spacesHint'));
  if (input.length > 130) return fail('lookup.too_long', msg('problem.lookup.tooLong'), msg('problem.lookup.send', { examples: EXAMPLES }));

  const id = parseSwapId(input);
  if (id.ok) return ok({ kind: 'swap', id: id.value });
  const prefix = parseSwapIdPrefix(input);
  if (prefix) return ok({ kind: 'short', prefix });
  if (UUIDISH.test(input)) return fail(id.id, id.reason, id.hint);

  if (/^0x/i.test(input)) {
    const digits = input.slice(2);
    if (!/^[0-9a-fA-F]+$/.test(digits)) return fail('lookup.hash_shape', msg('problem.lookup.notHex'), msg('problem.lookup.notHexHint'));
    if (digits.length === 40) {
      const evm = checkEvmAddress(input);
      return evm.ok ? ok({ kind: 'address', address: evm.value, families: ['evm', 'starknet'] }) : evm;
    }
    // EVM transactions are exactly 64 digits; Starknet hashes and addresses up to 64 (usually 63 or 64).
    if (digits.length === 64 || digits.length === 63)
      return ok({
        kind: 'transaction',
        hash: input,
        families: digits.length === 64 ? ['evm', 'starknet'] : ['starknet'],
        ...(starknetFelt(digits) ? { orAddress: true } : {}),
      });
    return fail(
      'lookup.hash_shape',
      msg(digits.length > 64 ? 'problem.lookup.hexTooLong' : 'problem.lookup.hexTooShort', { digits: digits.length }),
      msg('problem.lookup.copyFull'),
    );
  }
  if (HEX64.test(input)) return ok({ kind: 'transaction', hash: input, families: ['bitcoin', 'tron', 'ton'] });
  // A TON transaction hash in base64 (44 characters, one '=' of padding).
  if (/^[A-Za-z0-9+/_-]{43}=$/.test(input)) return ok({ kind: 'transaction', hash: input, families: ['ton'] });
  if (BASE58.test(input) && (input.length === 87 || input.length === 88))
    return ok({ kind: 'transaction', hash: input, families: ['solana'] });

  const families: string[] = [];
  if (fits(checkTronAddress(input))) families.push('tron');
  if (fits(checkBitcoinAddress(input)) || fits(checkBitcoinAddress(input, true))) families.push('bitcoin');
  if (families.length === 0 && fits(checkSolanaAddress(input))) families.push('solana');
  if (fits(checkTonAddress(input))) families.push('ton');
  if (families.length === 0 && fits(checkCosmosAddress(input))) families.push('cosmos');
  if (families.length > 0) return ok({ kind: 'address', address: input, families });

  if (/^[0-9a-fA-F]{40,}$/.test(input))
    return fail('lookup.hash_shape', msg('problem.lookup.hex64', { digits: input.length }), msg('problem.lookup.copyFull'));
  if (BASE58.test(input) && input.length > 44)
    return fail('lookup.hash_shape', msg('problem.lookup.solanaSig', { length: input.length }), msg('problem.lookup.copyFull'));
  return fail('lookup.unknown_shape', msg('problem.lookup.unknown'), msg('problem.lookup.send', { examples: EXAMPLES }));
}

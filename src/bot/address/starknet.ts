import { fail, ok, type Result } from '../problem.js';

/** The Starknet field prime: every felt (and so every address) is below it. */
const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

export const STARKNET_FORM = '0x followed by up to 64 hex characters';

export function checkStarknetAddress(input: string): Result<string> {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(input)) return fail('address.invalid', 'That is not a valid Starknet address.', `It must be ${STARKNET_FORM}.`);
  const value = BigInt(input);
  if (value === 0n) return fail('address.zero', 'That is the zero address; funds sent there are lost.', `Use your own address: ${STARKNET_FORM}.`);
  if (value >= FIELD_PRIME) return fail('address.invalid_form', 'That number is too large to be a Starknet address (it must be below the Stark field prime).', `It must be ${STARKNET_FORM}, usually starting 0x0...`);
  return ok(input);
}

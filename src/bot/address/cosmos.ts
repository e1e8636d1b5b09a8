import { bech32 } from '@scure/base';
import { fail, ok, type Result } from '../problem.js';

export const COSMOS_FORM = 'a bech32 address such as cosmos1... or osmo1... (lower case)';

/** bech32 with any human-readable prefix and a 20- or 32-byte payload (accounts and contracts). */
export function checkCosmosAddress(input: string, expectedPrefix?: string): Result<string> {
  if (input.length > 90 || input !== input.toLowerCase() || !/^[a-z0-9]+1[02-9ac-hj-np-z]+$/.test(input)) {
    return fail('address.invalid', 'That is not a valid address for this network.', `It must be ${expectedPrefix ? `a bech32 address starting ${expectedPrefix}1` : COSMOS_FORM}.`);
  }
  const decoded = bech32.decodeUnsafe(input, 90);
  if (!decoded) return fail('address.checksum', 'The checksum of that address does not match, so a character is probably mistyped.', 'Copy the address again from your wallet.');
  if (expectedPrefix && decoded.prefix !== expectedPrefix) {
    return fail('address.other_network', `That address is for another chain (it starts with ${decoded.prefix}1).`, `It must start with ${expectedPrefix}1.`);
  }
  const bytes = bech32.fromWordsUnsafe(decoded.words);
  if (!bytes || (bytes.length !== 20 && bytes.length !== 32)) return fail('address.invalid', 'That is not a valid address for this network.', `It must be ${COSMOS_FORM}.`);
  return ok(input);
}

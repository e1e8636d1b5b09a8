import { fail, ok, type Result } from '../problem.js';
import { decodeBase58Check } from './base58check.js';

export const TRON_FORM = 'a 34-character address starting with T';

/** Base58check of 21 bytes: 0x41 then the 20-byte account hash. */
export function checkTronAddress(input: string): Result<string> {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(input)) return fail('address.invalid', 'That is not a valid Tron address.', `It must be ${TRON_FORM}.`);
  const decoded = decodeBase58Check(input);
  if (!decoded.ok) {
    return decoded.why === 'checksum'
      ? fail('address.checksum', 'The checksum of that Tron address does not match, so a character is probably mistyped.', 'Copy the address again from your wallet.')
      : fail('address.invalid', 'That is not a valid Tron address.', `It must be ${TRON_FORM}.`);
  }
  if (decoded.payload.length !== 21 || decoded.payload[0] !== 0x41) return fail('address.invalid', 'That is not a valid Tron address.', `It must be ${TRON_FORM}.`);
  return ok(input);
}

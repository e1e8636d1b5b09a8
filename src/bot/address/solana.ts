import { base58 } from '@scure/base';
import { fail, ok, type Result } from '../problem.js';

export const SOLANA_FORM = 'a base58 public key of 32 to 44 characters (letters and digits without 0, O, I, l)';

/** Base58 that decodes to exactly 32 bytes (an ed25519 public key or a program-derived address). */
export function checkSolanaAddress(input: string): Result<string> {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(input)) return fail('address.invalid', 'That is not a valid Solana address.', `It must be ${SOLANA_FORM}.`);
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(input);
  } catch {
    return fail('address.invalid', 'That is not a valid Solana address.', `It must be ${SOLANA_FORM}.`);
  }
  if (bytes.length !== 32) return fail('address.invalid_form', `That decodes to ${bytes.length} bytes, not the 32 bytes of a Solana address.`, `It must be ${SOLANA_FORM}.`);
  return ok(input);
}

import { base58 } from '@scure/base';
import { fail, msg, ok, type Result } from '../../kernel/problem.js';

const SOLANA_FORM = msg('address.form.solana');

/** Base58 that decodes to exactly 32 bytes (an ed25519 public key or a program-derived address). */
export function checkSolanaAddress(input: string): Result<string> {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(input))
    return fail(
      'address.invalid',
      msg('problem.address.invalidOf', { network: 'Solana' }),
      msg('problem.address.mustBe', { form: SOLANA_FORM }),
    );
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(input);
  } catch {
    return fail(
      'address.invalid',
      msg('problem.address.invalidOf', { network: 'Solana' }),
      msg('problem.address.mustBe', { form: SOLANA_FORM }),
    );
  }
  if (bytes.length !== 32)
    return fail(
      'address.invalid_form',
      msg('problem.address.solanaBytes', { count: bytes.length }),
      msg('problem.address.mustBe', { form: SOLANA_FORM }),
    );
  return ok(input);
}

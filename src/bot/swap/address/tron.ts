import { fail, msg, ok, type Result } from '../../kernel/problem.js';
import { decodeBase58Check } from './base58check.js';

const TRON_FORM = msg('address.form.tron');

/** Base58check of 21 bytes: 0x41 then the 20-byte account hash. */
export function checkTronAddress(input: string): Result<string> {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(input))
    return fail(
      'address.invalid',
      msg('problem.address.invalidOf', { network: 'Tron' }),
      msg('problem.address.mustBe', { form: TRON_FORM }),
    );
  const decoded = decodeBase58Check(input);
  if (!decoded.ok) {
    return decoded.why === 'checksum'
      ? fail('address.checksum', msg('problem.address.checksumOf', { network: 'Tron' }), msg('problem.address.copyAgain'))
      : fail('address.invalid', msg('problem.address.invalidOf', { network: 'Tron' }), msg('problem.address.mustBe', { form: TRON_FORM }));
  }
  if (decoded.payload.length !== 21 || decoded.payload[0] !== 0x41)
    return fail(
      'address.invalid',
      msg('problem.address.invalidOf', { network: 'Tron' }),
      msg('problem.address.mustBe', { form: TRON_FORM }),
    );
  return ok(input);
}

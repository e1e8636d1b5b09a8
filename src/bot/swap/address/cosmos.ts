import { bech32 } from '@scure/base';
import { fail, msg, ok, type Result } from '../../kernel/problem.js';

const COSMOS_FORM = msg('address.form.cosmos');

/** bech32 with any human-readable prefix and a 20- or 32-byte payload (accounts and contracts). */
export function checkCosmosAddress(input: string, expectedPrefix?: string): Result<string> {
  if (input.length > 90 || input !== input.toLowerCase() || !/^[a-z0-9]+1[02-9ac-hj-np-z]+$/.test(input)) {
    return fail(
      'address.invalid',
      msg('problem.address.invalidHere'),
      msg('problem.address.mustBe', {
        form: expectedPrefix ? msg('address.form.cosmosPrefix', { prefix: `${expectedPrefix}1` }) : COSMOS_FORM,
      }),
    );
  }
  const decoded = bech32.decodeUnsafe(input, 90);
  if (!decoded) return fail('address.checksum', msg('problem.address.checksum'), msg('problem.address.copyAgain'));
  if (expectedPrefix && decoded.prefix !== expectedPrefix) {
    return fail(
      'address.other_network',
      msg('problem.address.otherChain', { prefix: `${decoded.prefix}1` }),
      msg('problem.address.mustStart', { prefix: `${expectedPrefix}1` }),
    );
  }
  const bytes = bech32.fromWordsUnsafe(decoded.words);
  if (!bytes || (bytes.length !== 20 && bytes.length !== 32))
    return fail('address.invalid', msg('problem.address.invalidHere'), msg('problem.address.mustBe', { form: COSMOS_FORM }));
  return ok(input);
}

import { fail, msg, ok, type Result } from '../../kernel/problem.js';

/** The Starknet field prime: every felt (and so every address) is below it. */
const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

const STARKNET_FORM = msg('address.form.starknet');

export function checkStarknetAddress(input: string): Result<string> {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(input))
    return fail(
      'address.invalid',
      msg('problem.address.invalidOf', { network: 'Starknet' }),
      msg('problem.address.mustBe', { form: STARKNET_FORM }),
    );
  const value = BigInt(input);
  if (value === 0n) return fail('address.zero', msg('problem.address.zero'), msg('problem.address.useOwn', { form: STARKNET_FORM }));
  if (value >= FIELD_PRIME)
    return fail(
      'address.invalid_form',
      msg('problem.address.starknetTooLarge'),
      msg('problem.address.starknetHint', { form: STARKNET_FORM }),
    );
  return ok(input);
}

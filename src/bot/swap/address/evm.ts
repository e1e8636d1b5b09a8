import { keccak_256 } from '@noble/hashes/sha3.js';
import { fail, msg, ok, type Result } from '../../kernel/problem.js';

/** EIP-55: the case of each hex letter is the matching nibble of keccak256(lowercase address). */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i] as string;
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

const EVM_FORM = msg('address.form.evm');

/** 0x + 40 hex; when the letters are mixed case they must match the EIP-55 checksum. */
export function checkEvmAddress(input: string): Result<string> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(input)) {
    const hint = /^0x[0-9a-fA-F]*$/i.test(input)
      ? msg('problem.address.evmCount', { count: input.length - 2, form: EVM_FORM })
      : msg('problem.address.mustBe', { form: EVM_FORM });
    return fail('address.invalid', msg('problem.address.invalidHere2'), hint);
  }
  const body = input.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && toChecksumAddress(input) !== input) {
    return fail('address.checksum', msg('problem.address.evmChecksum'), msg('problem.address.evmChecksumHint'));
  }
  return ok(input);
}

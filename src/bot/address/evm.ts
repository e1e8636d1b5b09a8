import { keccak_256 } from '@noble/hashes/sha3.js';
import { fail, ok, type Result } from '../problem.js';

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

export const EVM_FORM = '0x followed by 40 hex characters (0-9, a-f)';

/** 0x + 40 hex; when the letters are mixed case they must match the EIP-55 checksum. */
export function checkEvmAddress(input: string): Result<string> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(input)) {
    const count = /^0x[0-9a-fA-F]*$/i.test(input) ? `It has ${input.length - 2} hex characters after 0x. ` : '';
    return fail('address.invalid', 'That is not a valid address here.', `${count}It must be ${EVM_FORM}.`);
  }
  const body = input.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && toChecksumAddress(input) !== input) {
    return fail('address.checksum', 'The upper- and lower-case letters of that address do not match its checksum, so a character is probably mistyped.',
      'Copy the address again from your wallet, or send it in all lower case.',
    );
  }
  return ok(input);
}

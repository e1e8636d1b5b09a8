import { bech32, bech32m } from '@scure/base';
import { fail, ok, type Result } from '../problem.js';
import { decodeBase58Check } from './base58check.js';

interface BitcoinParams { hrp: string; p2pkh: number; p2sh: number; legacyFirst: string }
const MAINNET: BitcoinParams = { hrp: 'bc', p2pkh: 0x00, p2sh: 0x05, legacyFirst: '1 or 3' };
const TESTNET: BitcoinParams = { hrp: 'tb', p2pkh: 0x6f, p2sh: 0xc4, legacyFirst: 'm, n or 2' };

export function bitcoinForm(testnet: boolean): string {
  const p = testnet ? TESTNET : MAINNET;
  return `a ${p.hrp}1... address (SegWit or Taproot) or a legacy one starting with ${p.legacyFirst}`;
}

/** BIP 173/350: version 0 uses bech32 with a 20- or 32-byte program; versions 1-16 use bech32m (2-40 bytes). */
function checkSegwit(input: string, p: BitcoinParams): Result<string> {
  const form = bitcoinForm(p === TESTNET);
  if (input.length > 90 || (input !== input.toLowerCase() && input !== input.toUpperCase())) {
    return fail('address.invalid_form', 'That is not a valid Bitcoin address (SegWit addresses are all lower case or all upper case, at most 90 characters).', `It must be ${form}.`);
  }
  const lower = input.toLowerCase();
  const asBech32 = bech32.decodeUnsafe(lower, 90);
  const asBech32m = asBech32 ? undefined : bech32m.decodeUnsafe(lower, 90);
  const decoded = asBech32 ?? asBech32m;
  if (!decoded) return fail('address.checksum', 'The checksum of that Bitcoin address does not match, so a character is probably mistyped.', 'Copy the address again from your wallet.');
  if (decoded.prefix !== p.hrp) return fail('address.other_network', `That address is for another network (it starts with ${decoded.prefix}1).`, `It must be ${form}.`);
  const [version, ...words] = decoded.words;
  const program = bech32.fromWordsUnsafe(words);
  if (version === undefined || version > 16 || !program || program.length < 2 || program.length > 40) {
    return fail('address.invalid', 'That is not a valid Bitcoin address.', `It must be ${form}.`);
  }
  if (version === 0) {
    if (!asBech32) return fail('address.checksum_kind', 'That SegWit v0 address uses the wrong checksum kind (bech32m instead of bech32).', 'Copy the address again from your wallet.');
    if (program.length !== 20 && program.length !== 32) return fail('address.invalid_form', 'That SegWit v0 address has the wrong length.', `It must be ${form}.`);
  } else if (!asBech32m) {
    return fail('address.checksum_kind', `That SegWit v${version} address uses the wrong checksum kind (bech32 instead of bech32m).`, 'Copy the address again from your wallet.');
  }
  return ok(lower);
}

export function checkBitcoinAddress(input: string, testnet = false): Result<string> {
  const p = testnet ? TESTNET : MAINNET;
  if (input.toLowerCase().startsWith(`${p.hrp}1`)) return checkSegwit(input, p);
  const decoded = decodeBase58Check(input);
  if (!decoded.ok) {
    return decoded.why === 'checksum'
      ? fail('address.checksum', 'The checksum of that Bitcoin address does not match, so a character is probably mistyped.', 'Copy the address again from your wallet.')
      : fail('address.invalid', 'That is not a valid Bitcoin address.', `It must be ${bitcoinForm(testnet)}.`);
  }
  const [version] = decoded.payload;
  if (decoded.payload.length !== 21 || (version !== p.p2pkh && version !== p.p2sh)) {
    return fail('address.invalid_form', 'That is not a Bitcoin address for this network.', `It must be ${bitcoinForm(testnet)}.`);
  }
  return ok(input);
}

import { bech32, bech32m } from '@scure/base';
import { fail, msg, ok, type Msg, type Result } from '../../kernel/problem.js';
import { decodeBase58Check } from './base58check.js';

interface BitcoinParams {
  hrp: string;
  p2pkh: number;
  p2sh: number;
}
const MAINNET: BitcoinParams = { hrp: 'bc', p2pkh: 0x00, p2sh: 0x05 };
const TESTNET: BitcoinParams = { hrp: 'tb', p2pkh: 0x6f, p2sh: 0xc4 };

function bitcoinForm(testnet: boolean): Msg {
  const p = testnet ? TESTNET : MAINNET;
  return msg(testnet ? 'address.form.bitcoinTestnet' : 'address.form.bitcoin', { hrp: p.hrp });
}

/** BIP 173/350: version 0 uses bech32 with a 20- or 32-byte program; versions 1-16 use bech32m (2-40 bytes). */
function checkSegwit(input: string, p: BitcoinParams): Result<string> {
  const form = bitcoinForm(p === TESTNET);
  if (input.length > 90 || (input !== input.toLowerCase() && input !== input.toUpperCase())) {
    return fail('address.invalid_form', msg('problem.address.bitcoinSegwitForm'), msg('problem.address.mustBe', { form: form }));
  }
  const lower = input.toLowerCase();
  const asBech32 = bech32.decodeUnsafe(lower, 90);
  const asBech32m = asBech32 ? undefined : bech32m.decodeUnsafe(lower, 90);
  const decoded = asBech32 ?? asBech32m;
  if (!decoded)
    return fail('address.checksum', msg('problem.address.checksumOf', { network: 'Bitcoin' }), msg('problem.address.copyAgain'));
  if (decoded.prefix !== p.hrp)
    return fail(
      'address.other_network',
      msg('problem.address.otherNetwork', { prefix: `${decoded.prefix}1` }),
      msg('problem.address.mustBe', { form: form }),
    );
  const [version, ...words] = decoded.words;
  const program = bech32.fromWordsUnsafe(words);
  if (version === undefined || version > 16 || !program || program.length < 2 || program.length > 40) {
    return fail('address.invalid', msg('problem.address.invalidOf', { network: 'Bitcoin' }), msg('problem.address.mustBe', { form: form }));
  }
  if (version === 0) {
    if (!asBech32)
      return fail(
        'address.checksum_kind',
        msg('problem.address.checksumKind', { version: 0, used: 'bech32m', want: 'bech32' }),
        msg('problem.address.copyAgain'),
      );
    if (program.length !== 20 && program.length !== 32)
      return fail('address.invalid_form', msg('problem.address.segwitLength'), msg('problem.address.mustBe', { form: form }));
  } else if (!asBech32m) {
    return fail(
      'address.checksum_kind',
      msg('problem.address.checksumKind', { version, used: 'bech32', want: 'bech32m' }),
      msg('problem.address.copyAgain'),
    );
  }
  return ok(lower);
}

export function checkBitcoinAddress(input: string, testnet = false): Result<string> {
  const p = testnet ? TESTNET : MAINNET;
  if (input.toLowerCase().startsWith(`${p.hrp}1`)) return checkSegwit(input, p);
  const decoded = decodeBase58Check(input);
  if (!decoded.ok) {
    return decoded.why === 'checksum'
      ? fail('address.checksum', msg('problem.address.checksumOf', { network: 'Bitcoin' }), msg('problem.address.copyAgain'))
      : fail(
          'address.invalid',
          msg('problem.address.invalidOf', { network: 'Bitcoin' }),
          msg('problem.address.mustBe', { form: bitcoinForm(testnet) }),
        );
  }
  const [version] = decoded.payload;
  if (decoded.payload.length !== 21 || (version !== p.p2pkh && version !== p.p2sh)) {
    return fail(
      'address.invalid_form',
      msg('problem.address.bitcoinOtherNet'),
      msg('problem.address.mustBe', { form: bitcoinForm(testnet) }),
    );
  }
  return ok(input);
}

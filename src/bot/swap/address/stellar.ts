import { base32nopad } from '@scure/base';
import { fail, msg, ok, type Result } from '../../kernel/problem.js';

/**
 * Stellar StrKey (SEP-23): base32 (RFC 4648, upper case, no padding) of a version byte, the
 * payload and a CRC16-XMODEM checksum, little-endian. Layerswap documents G... account addresses
 * (PR #2156); a muxed M... address is not documented as accepted, so it is refused with words
 * saying which address to send instead, and a secret seed (S...) is never taken for an address.
 */

const STELLAR_FORM = msg('address.form.stellar');

/** Version bytes: ed25519 account (G), muxed account (M), secret seed (S), contract (C). */
export const STRKEY_VERSION = { account: 6 << 3, muxed: 12 << 3, seed: 18 << 3, contract: 2 << 3 } as const;
const PAYLOAD_BYTES: Record<number, number> = {
  [STRKEY_VERSION.account]: 32,
  [STRKEY_VERSION.muxed]: 40,
  [STRKEY_VERSION.seed]: 32,
  [STRKEY_VERSION.contract]: 32,
};

/** CRC16-XMODEM (poly 0x1021, init 0), as StrKey uses. */
export function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

export type StrKeyDecoded = { version: number; payload: Uint8Array } | 'checksum' | undefined;

/**
 * The version byte and payload of a well-formed StrKey; 'checksum' when only the checksum fails
 * (a mistyped character); undefined when it is not a StrKey at all (wrong alphabet or length,
 * padding, unused bits set, unknown version).
 */
export function decodeStrKey(input: string): StrKeyDecoded {
  if (!/^[A-Z2-7]+$/.test(input)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = base32nopad.decode(input);
  } catch {
    return undefined;
  }
  // Re-encoding must give the same text: non-zero unused trailing bits make a second spelling.
  if (base32nopad.encode(bytes) !== input || bytes.length < 3) return undefined;
  const version = bytes[0] as number;
  const want = PAYLOAD_BYTES[version];
  if (want === undefined || bytes.length !== want + 3) return undefined;
  const body = bytes.subarray(0, bytes.length - 2);
  const crc = (bytes[bytes.length - 2] as number) | ((bytes[bytes.length - 1] as number) << 8);
  if (crc16Xmodem(body) !== crc) return 'checksum';
  return { version, payload: bytes.slice(1, bytes.length - 2) };
}

export function checkStellarAddress(input: string): Result<string> {
  const wrong = fail<string>(
    'address.invalid',
    msg('problem.address.invalidOf', { network: 'Stellar' }),
    msg('problem.address.mustBe', { form: STELLAR_FORM }),
  );
  const decoded = decodeStrKey(input.toUpperCase());
  if (decoded === 'checksum')
    return fail('address.checksum', msg('problem.address.checksumOf', { network: 'Stellar' }), msg('problem.address.copyAgain'));
  if (!decoded) return wrong;
  // Said before anything else: a secret key gives away the account; it is never an address.
  if (decoded.version === STRKEY_VERSION.seed)
    return fail('address.secret', msg('problem.address.stellarSecret'), msg('problem.address.mustBe', { form: STELLAR_FORM }));
  if (decoded.version === STRKEY_VERSION.muxed)
    return fail('address.invalid_form', msg('problem.address.stellarMuxed'), msg('problem.address.mustBe', { form: STELLAR_FORM }));
  if (decoded.version !== STRKEY_VERSION.account) return wrong;
  // A lower-case paste of a valid address is the same account; the network takes it upper case.
  return ok(input.toUpperCase());
}

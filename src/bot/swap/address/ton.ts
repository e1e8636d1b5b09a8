import { base64, base64url } from '@scure/base';
import { fail, msg, ok, type Result } from '../../kernel/problem.js';

const TON_FORM = msg('address.form.ton');

/** CRC16-XMODEM (poly 0x1021, init 0), as TON uses for user-friendly address checksums. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function decodeFriendly(input: string): Uint8Array | undefined {
  try {
    return /[-_]/.test(input) ? base64url.decode(input) : base64.decode(input);
  } catch {
    return undefined;
  }
}

export function checkTonAddress(input: string): Result<string> {
  const wrong = fail<string>(
    'address.invalid',
    msg('problem.address.invalidOf', { network: 'TON' }),
    msg('problem.address.mustBe', { form: TON_FORM }),
  );
  if (/^-?\d+:[0-9a-fA-F]{64}$/.test(input)) {
    const wc = Number(input.slice(0, input.indexOf(':')));
    return wc === 0 || wc === -1
      ? ok(input)
      : fail('address.invalid_form', msg('problem.address.tonWorkchain', { wc }), msg('problem.address.mustBe', { form: TON_FORM }));
  }
  if (!/^[A-Za-z0-9+/_-]{48}$/.test(input) || (/[+/]/.test(input) && /[-_]/.test(input))) return wrong;
  const bytes = decodeFriendly(input);
  if (!bytes || bytes.length !== 36) return wrong;
  const tag = (bytes[0] as number) & 0x7f; // the top bit marks test-only addresses
  if (tag !== 0x11 && tag !== 0x51) return wrong;
  const wc = bytes[1] as number;
  if (wc !== 0x00 && wc !== 0xff) return wrong;
  const crc = ((bytes[34] as number) << 8) | (bytes[35] as number);
  if (crc16(bytes.subarray(0, 34)) !== crc) {
    return fail('address.checksum', msg('problem.address.checksumOf', { network: 'TON' }), msg('problem.address.copyAgain'));
  }
  return ok(input);
}

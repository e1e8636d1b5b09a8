import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

/** Base58 with the 4-byte double-SHA256 checksum (Bitcoin legacy, Tron). */
const coder = createBase58check(sha256);

export type Base58CheckResult = { ok: true; payload: Uint8Array } | { ok: false; why: 'form' | 'checksum' };

export function decodeBase58Check(input: string): Base58CheckResult {
  if (!/^[1-9A-HJ-NP-Za-km-z]+$/.test(input)) return { ok: false, why: 'form' };
  try {
    return { ok: true, payload: coder.decode(input) };
  } catch (e) {
    return { ok: false, why: e instanceof Error && /checksum/i.test(e.message) ? 'checksum' : 'form' };
  }
}

import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base32nopad, base58, bech32, bech32m, createBase58check } from '@scure/base';
import type { Family } from './model.js';

/**
 * Address formats per family: checks that answer INVALID_ADDRESS_ERROR the way the service does,
 * and deterministic fake addresses and transaction hashes that pass the same checks, so what the
 * sandbox hands out looks (and validates) like the real thing.
 */

const base58check = createBase58check(sha256);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const STARK_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

export function isValidAddress(family: Family, address: string): boolean {
  if (typeof address !== 'string' || address.length === 0 || address.length > 128) return false;
  try {
    switch (family) {
      case 'evm':
        return isEvmAddress(address);
      case 'starknet':
        return /^0x[0-9a-fA-F]{1,64}$/.test(address) && BigInt(address) < STARK_PRIME;
      case 'solana':
        return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address) && base58.decode(address).length === 32;
      case 'ton':
        return isTonAddress(address);
      case 'tron':
        return /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address) && tronPayloadOk(base58check.decode(address));
      case 'bitcoin':
        return isBitcoinAddress(address);
      case 'stellar':
        return isStellarAccount(address);
    }
  } catch {
    return false;
  }
}

/** A human description of the expected format, for error messages. */
export const ADDRESS_FORMATS: Readonly<Record<Family, string>> = {
  evm: '0x followed by 40 hex characters',
  starknet: '0x followed by up to 64 hex characters',
  solana: 'a base58 public key (32 bytes)',
  ton: 'a TON address such as EQ... or UQ... (48 characters) or 0:<64 hex>',
  tron: 'a Tron address starting with T (34 characters)',
  bitcoin: 'a Bitcoin address starting with bc1, 1 or 3',
  stellar: 'a Stellar account address starting with G (56 characters)',
};

function isEvmAddress(a: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) return false;
  const body = a.slice(2);
  // All lower or all upper case carries no checksum; mixed case must be EIP-55.
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return evmChecksum(body.toLowerCase()) === a;
}

function evmChecksum(lowerHex40: string): string {
  const hash = hex(keccak_256(new TextEncoder().encode(lowerHex40)));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const c = lowerHex40[i] ?? '';
    out += parseInt(hash[i] ?? '0', 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

function crc16(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function isTonAddress(a: string): boolean {
  if (/^(0|-1):[0-9a-fA-F]{64}$/.test(a)) return true;
  if (!/^[A-Za-z0-9_+/-]{48}$/.test(a)) return false;
  const bytes = Buffer.from(a.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 36) return false;
  const tag = (bytes[0] ?? 0) & 0x7f;
  const workchain = bytes[1];
  if ((tag !== 0x11 && tag !== 0x51) || (workchain !== 0x00 && workchain !== 0xff)) return false;
  return crc16(bytes.subarray(0, 34)) === (((bytes[34] ?? 0) << 8) | (bytes[35] ?? 0));
}

/** Stellar StrKey (SEP-23): G... accounts only (version byte 6 << 3), CRC16-XMODEM little-endian. */
const STELLAR_ACCOUNT = 6 << 3;
function isStellarAccount(a: string): boolean {
  if (!/^G[A-Z2-7]{55}$/.test(a)) return false;
  const bytes = base32nopad.decode(a);
  if (bytes.length !== 35 || bytes[0] !== STELLAR_ACCOUNT || base32nopad.encode(bytes) !== a) return false;
  return crc16(bytes.subarray(0, 33)) === ((bytes[33] ?? 0) | ((bytes[34] ?? 0) << 8));
}

function stellarAccount(key: Uint8Array): string {
  const body = Uint8Array.from([STELLAR_ACCOUNT, ...key]);
  const crc = crc16(body);
  return base32nopad.encode(Uint8Array.from([...body, crc & 0xff, crc >> 8]));
}

const tronPayloadOk = (payload: Uint8Array) => payload.length === 21 && payload[0] === 0x41;

function isBitcoinAddress(a: string): boolean {
  if (/^bc1/i.test(a)) {
    const addr = a as `${string}1${string}`;
    const v0 = tryDecode(() => bech32.decode(addr));
    if (v0 && v0.prefix === 'bc' && v0.words[0] === 0) {
      const program = bech32.fromWords(v0.words.slice(1));
      return program.length === 20 || program.length === 32;
    }
    const v1 = tryDecode(() => bech32m.decode(addr));
    if (v1 && v1.prefix === 'bc' && (v1.words[0] ?? 0) >= 1 && (v1.words[0] ?? 0) <= 16) {
      const program = bech32m.fromWords(v1.words.slice(1));
      return program.length >= 2 && program.length <= 40 && (v1.words[0] !== 1 || program.length === 32);
    }
    return false;
  }
  if (!/^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/.test(a)) return false;
  const payload = base58check.decode(a);
  return payload.length === 21 && (payload[0] === 0x00 || payload[0] === 0x05);
}

function tryDecode<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** n bytes derived from a seed: the same seed always gives the same address or hash. */
function seeded(seed: string, n: number): Uint8Array {
  const out = new Uint8Array(n);
  let block = sha256(new TextEncoder().encode(seed));
  for (let i = 0; i < n; i += 32) {
    out.set(block.subarray(0, Math.min(32, n - i)), i);
    block = sha256(block);
  }
  return out;
}

export function fakeAddress(family: Family, seed: string): string {
  switch (family) {
    case 'evm':
      return evmChecksum(hex(seeded(seed, 20)));
    case 'starknet':
      return starkFelt(seeded(seed, 32));
    case 'solana':
      return base58.encode(seeded(seed, 32));
    case 'ton': {
      const body = new Uint8Array(36);
      body[0] = 0x11; // bounceable, mainnet: EQ...
      body[1] = 0x00;
      body.set(seeded(seed, 32), 2);
      const crc = crc16(body.subarray(0, 34));
      body[34] = crc >> 8;
      body[35] = crc & 0xff;
      return Buffer.from(body).toString('base64url');
    }
    case 'tron':
      return base58check.encode(Uint8Array.from([0x41, ...seeded(seed, 20)]));
    case 'bitcoin':
      return bech32.encode('bc', [0, ...bech32.toWords(seeded(seed, 20))]);
    case 'stellar':
      return stellarAccount(seeded(seed, 32));
  }
}

export function fakeTxHash(family: Family, seed: string): string {
  switch (family) {
    case 'evm':
      return `0x${hex(seeded(seed, 32))}`;
    case 'starknet':
      return starkFelt(seeded(seed, 32));
    case 'solana':
      return base58.encode(seeded(seed, 64));
    case 'ton':
    case 'tron':
    case 'bitcoin':
    case 'stellar':
      return hex(seeded(seed, 32));
  }
}

/** 32 bytes as a Starknet field element (below 2^251): 0x0 and 63 hex digits. */
function starkFelt(bytes: Uint8Array): string {
  const copy = Uint8Array.from(bytes);
  copy[0] = (copy[0] ?? 0) & 0x07;
  return `0x${hex(copy)}`;
}

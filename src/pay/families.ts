import { Address as TonAddress, beginCell, Cell, loadMessage, storeMessage } from '@ton/core';
import { isAddress as isSolanaAddress } from '@solana/kit';
import { isAddress as isEvmAddress, isHash as isEvmHash } from 'viem';
import { PAY_FAMILY_NAMES, payFamily, type PayFamily, type PayFamilyName } from '../contracts/pay-families.js';

/** What a wallet lacks for its payment, read before it is asked: the token (base units), else the native coin for the fee. */
export type Shortfall = { kind: 'amount'; have: bigint; need: bigint } | { kind: 'fee' };

/**
 * Each family the page pays (contracts/pay-families.ts), as the page's server recognises it: the
 * wallet address the page connected, and the id of the transaction its wallet sent.
 */
interface Recognisers {
  /** The wallet address the page connected is one of this family. */
  isAddress(text: string): boolean;
  /** The sent transaction's id from the page's report of what its wallet sent, when it is one of this family's. */
  hashOf(report: { hash?: unknown; boc?: unknown }): string | undefined;
}

const RECOGNISERS: Record<PayFamilyName, Recognisers> = {
  evm: {
    isAddress: (text) => isEvmAddress(text),
    hashOf: (r) => (typeof r.hash === 'string' && isEvmHash(r.hash) ? r.hash : undefined),
  },
  solana: {
    isAddress: (text) => isSolanaAddress(text),
    hashOf: (r) => (typeof r.hash === 'string' && isSolanaSignature(r.hash) ? r.hash : undefined),
  },
  ton: {
    isAddress: isTonAddress,
    // TON Connect answers the signed message (a BOC); the transfer is found by its normalized hash.
    hashOf: (r) =>
      typeof r.boc === 'string' ? tonMessageHash(r.boc) : typeof r.hash === 'string' && /^[0-9a-f]{64}$/.test(r.hash) ? r.hash : undefined,
  },
};

/** The family of a network `type` with its recognisers, when the page pays it. */
export function payingFamily(type: string | null | undefined): (PayFamily & Recognisers) | undefined {
  const family = payFamily(type);
  return family && { ...family, ...RECOGNISERS[family.name] };
}

/**
 * The sent transaction's id from the page's report (`sent`), as any family the page pays reads it;
 * undefined when none does. The swap's own family is not asked for: the report comes after the
 * wallet sent, and is not made to wait on the service.
 */
export function sentHashOf(report: { hash?: unknown; boc?: unknown }): string | undefined {
  for (const name of PAY_FAMILY_NAMES) {
    const hash = RECOGNISERS[name].hashOf(report);
    if (hash) return hash;
  }
  return undefined;
}

/** A Solana transaction signature: 64 bytes in base58. */
const isSolanaSignature = (text: string): boolean => /^[1-9A-HJ-NP-Za-km-z]{64,90}$/.test(text);

function isTonAddress(text: string): boolean {
  try {
    TonAddress.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The hash the sent message is found by: TEP-467's normalized hash of the external message the
 * wallet returned (TON Connect's `boc`), hex; undefined when the BOC is not an external message.
 */
export function tonMessageHash(boc: string): string | undefined {
  try {
    const m = loadMessage(Cell.fromBase64(boc).beginParse());
    if (m.info.type !== 'external-in') return undefined;
    const normalized = beginCell()
      .store(
        storeMessage(
          { info: { type: 'external-in', src: null, dest: m.info.dest, importFee: 0n }, init: null, body: m.body },
          { forceRef: true },
        ),
      )
      .endCell();
    return normalized.hash().toString('hex');
  } catch {
    return undefined;
  }
}

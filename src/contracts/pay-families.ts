import { Address as TonAddress, beginCell, Cell, loadMessage, storeMessage } from '@ton/core';
import { isAddress as isSolanaAddress } from '@solana/kit';
import { isAddress as isEvmAddress, isHash as isEvmHash } from 'viem';

/**
 * What the pay page pays, per network family (docs/pay.md): the one table the bot's offers (the
 * route check, the confirm step, the deposit card) and the page's server (src/pay/api.ts) read, so
 * a family is added, or its offer changed, here alone. A family not in it gets no offer and no
 * payment. Pure: the recognisers only parse text.
 */
interface PayFamilyTraits {
  /** A swap of it made without a deposit address (use_deposit_address=false): the page sends the swap's own transaction or message. */
  readonly walletTransfer: boolean;
  /** A deposit-address swap of it: the page sends the plain transfer the card asks for (EVM; Solana's and TON's have no transaction to hand over). */
  readonly depositAddress: boolean;
  /**
   * How the confirm step makes a wallet-transfer swap of it. 'walletChoice': "Pay from my wallet",
   * the confirmation again in the wallet flow, whose Confirm creates it; the only way for a
   * wallet-only source (TON), so such a source is swapped at all only for these families.
   * 'payNow': "Pay from wallet", one tap that creates it at once (src/bot/swap/pay-now.ts): EVM,
   * whose confirmation keeps its one toggle for "Pay without gas". Never both: the confirmation
   * would offer the same wallet flow twice.
   */
  readonly atConfirm: 'walletChoice' | 'payNow';
  /** The wallet address the page connected is one of this family. */
  isAddress(text: string): boolean;
  /** The sent transaction's id from the page's report of what its wallet sent, when it is one of this family's. */
  hashOf(report: { hash?: unknown; boc?: unknown }): string | undefined;
  /** The page's words when the connected address is not of this family (an i18n key). */
  readonly notAddress: string;
}

const FAMILIES = {
  evm: {
    walletTransfer: true,
    depositAddress: true,
    atConfirm: 'payNow',
    isAddress: (text: string) => isEvmAddress(text),
    hashOf: (r: { hash?: unknown }) => (typeof r.hash === 'string' && isEvmHash(r.hash) ? r.hash : undefined),
    notAddress: 'pay.page.notEvm',
  },
  solana: {
    walletTransfer: true,
    depositAddress: false,
    atConfirm: 'walletChoice',
    isAddress: (text: string) => isSolanaAddress(text),
    hashOf: (r: { hash?: unknown }) => (typeof r.hash === 'string' && isSolanaSignature(r.hash) ? r.hash : undefined),
    notAddress: 'pay.page.notSolanaAddress',
  },
  ton: {
    walletTransfer: true,
    depositAddress: false,
    atConfirm: 'walletChoice',
    isAddress: isTonAddress,
    // TON Connect answers the signed message (a BOC); the transfer is found by its normalized hash.
    hashOf: (r: { hash?: unknown; boc?: unknown }) =>
      typeof r.boc === 'string' ? tonMessageHash(r.boc) : typeof r.hash === 'string' && /^[0-9a-f]{64}$/.test(r.hash) ? r.hash : undefined,
    notAddress: 'pay.page.notTonAddress',
  },
} as const satisfies Record<string, PayFamilyTraits>;

export type PayFamilyName = keyof typeof FAMILIES;
export type PayFamily = (typeof FAMILIES)[PayFamilyName] & { readonly name: PayFamilyName };

/** The pay page's family of a network `type` (the service's `evm`, `solana`, `ton`, …), when it pays any. */
export function payFamily(type: string | null | undefined): PayFamily | undefined {
  if (!type || !Object.hasOwn(FAMILIES, type)) return undefined;
  const name = type as PayFamilyName;
  return { ...FAMILIES[name], name };
}

/** The page pays this swap: a deposit-address swap of a family it pays so, or a wallet transfer (`use_deposit_address` false). */
export function pagePaysSwap(type: string | null | undefined, useDepositAddress: boolean | null | undefined): boolean {
  const family = payFamily(type);
  return !!family && (family.depositAddress || (family.walletTransfer && useDepositAddress === false));
}

/** The page pays this swap as a wallet transfer: the swap's own transaction or message (no deposit address). */
export function pagePaysWalletTransfer(type: string | null | undefined, useDepositAddress: boolean | null | undefined): boolean {
  return !!payFamily(type)?.walletTransfer && useDepositAddress === false;
}

/**
 * The sent transaction's id from the page's report (`sent`), as any family the page pays reads it;
 * undefined when none does. The swap's own family is not asked for: the report comes after the
 * wallet sent, and is not made to wait on the service.
 */
export function sentHashOf(report: { hash?: unknown; boc?: unknown }): string | undefined {
  for (const family of Object.values(FAMILIES)) {
    const hash = family.hashOf(report);
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

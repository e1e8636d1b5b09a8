/**
 * What the pay page pays, per network family (docs/pay.md): the one table the bot's offers (the
 * route check, the confirm step, the deposit card) read, so a family is added, or its offer
 * changed, here alone (src/pay/families.ts adds each family's recognisers for the page's server:
 * its addresses, its sent hashes). A family not in it gets no offer and no payment. Data only: the
 * chain libraries stay out of the bot's processes.
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
  /** The page's words when the connected address is not of this family (an i18n key). */
  readonly notAddress: string;
}

const FAMILIES = {
  evm: { walletTransfer: true, depositAddress: true, atConfirm: 'payNow', notAddress: 'pay.page.notEvm' },
  solana: { walletTransfer: true, depositAddress: false, atConfirm: 'walletChoice', notAddress: 'pay.page.notSolanaAddress' },
  ton: { walletTransfer: true, depositAddress: false, atConfirm: 'walletChoice', notAddress: 'pay.page.notTonAddress' },
} as const satisfies Record<string, PayFamilyTraits>;

export type PayFamilyName = keyof typeof FAMILIES;
export const PAY_FAMILY_NAMES = Object.keys(FAMILIES) as PayFamilyName[];
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

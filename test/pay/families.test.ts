import { Address, beginCell, storeMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { pagePaysSwap, pagePaysWalletTransfer, payFamily } from '../../src/contracts/pay-families.js';
import { payingFamily, sentHashOf } from '../../src/pay/families.js';

/**
 * The one table of what the pay page pays, per network family (src/contracts/pay-families.ts, and its recognisers in src/pay/families.ts):
 * which swaps get "Pay from wallet", which confirm step offers the wallet flow and how, and which
 * addresses and sent hashes the page's server takes. The flows themselves are the browser tests'.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const SOL = 'GvpCiTgq9dmEeojCDBivoLoZqc4AkbUDxmfU6FHhRrJ6';
const TON = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';
const EVM_HASH = `0x${'ab'.repeat(32)}`;
const SOL_SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

describe('what the pay page pays, per family', () => {
  it('the card: every EVM swap; Solana and TON only when made without a deposit address; no other family', () => {
    expect(pagePaysSwap('evm', true)).toBe(true);
    expect(pagePaysSwap('evm', false)).toBe(true);
    for (const family of ['solana', 'ton']) {
      expect(pagePaysSwap(family, false)).toBe(true);
      expect(pagePaysSwap(family, true)).toBe(false);
      expect(pagePaysWalletTransfer(family, false)).toBe(true);
    }
    expect(pagePaysWalletTransfer('evm', true)).toBe(false);
    for (const type of ['starknet', 'bitcoin', '', null, undefined, 'constructor', 'toString'])
      expect([pagePaysSwap(type, false), payFamily(type)]).toEqual([false, undefined]);
  });

  it('the confirm step: one-tap Pay from wallet for EVM, the wallet choice for Solana and TON, never both', () => {
    expect(payFamily('evm')?.atConfirm).toBe('payNow');
    expect(payFamily('solana')?.atConfirm).toBe('walletChoice');
    expect(payFamily('ton')?.atConfirm).toBe('walletChoice');
    // Whatever the confirm step offers, the card of the swap it creates has the page's button.
    for (const type of ['evm', 'solana', 'ton']) expect(pagePaysWalletTransfer(type, false)).toBe(true);
  });

  it("the connected wallet's address is taken only when it is of the swap's family", () => {
    const takes = (type: string, text: string) => payingFamily(type)!.isAddress(text);
    expect([takes('evm', EVM), takes('evm', SOL), takes('evm', TON)]).toEqual([true, false, false]);
    expect([takes('solana', SOL), takes('solana', EVM), takes('solana', TON)]).toEqual([true, false, false]);
    expect([takes('ton', TON), takes('ton', EVM), takes('ton', SOL)]).toEqual([true, false, false]);
    expect(payingFamily('solana')!.notAddress).toBe('pay.page.notSolanaAddress');
  });

  it("the sent report: an EVM hash, a Solana signature, TON Connect's BOC (by its message hash); anything else is no hash", () => {
    expect(sentHashOf({ hash: EVM_HASH })).toBe(EVM_HASH);
    expect(sentHashOf({ hash: SOL_SIGNATURE })).toBe(SOL_SIGNATURE);
    const message = beginCell()
      .store(
        storeMessage(
          { info: { type: 'external-in', src: null, dest: Address.parse(TON), importFee: 0n }, init: null, body: beginCell().endCell() },
          { forceRef: true },
        ),
      )
      .endCell();
    expect(sentHashOf({ boc: message.toBoc().toString('base64') })).toBe(message.hash().toString('hex'));
    expect(sentHashOf({ hash: message.hash().toString('hex') })).toBe(message.hash().toString('hex'));
    for (const report of [{}, { hash: '' }, { hash: '0x1234' }, { hash: 42 }, { boc: 'not a boc' }, { hash: 'DROP TABLE' }])
      expect(sentHashOf(report)).toBeUndefined();
  });
});

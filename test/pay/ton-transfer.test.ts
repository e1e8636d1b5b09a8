import { Address, beginCell, Cell, external, storeMessage, toNano } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { DepositAction, SwapDetails } from '../../src/layerswap/schemas.js';
import { tonTransfer } from '../../src/pay/ton.js';
import { tonMessageHash } from '../../src/pay/families.js';

/**
 * The TON message the pay server hands a TON Connect wallet, built from the swap's `transfer`
 * action (call data `{amount, asset, comment}`, wallet-deposits.md §1) as Layerswap's app builds it,
 * and only when the action pays this swap: its token, its amount (call data, action and swap agree),
 * a comment, a payee that is neither the jetton's master nor the wallet itself.
 */
const DEPOSIT = 'EQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG';
const WALLET = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const USDT = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';
const JETTON_WALLET = Address.parse('EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF');
const NOW = Date.UTC(2026, 10, 28, 12);

const ton = { symbol: 'TON', decimals: 9, contract: null, price_in_usd: 5 };
const usdt = { symbol: 'USDT', decimals: 6, contract: USDT, price_in_usd: 1 };

function swap(token: typeof ton | typeof usdt, amount: number): SwapDetails {
  return {
    swap: {
      id: '0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9',
      requested_amount: amount,
      use_deposit_address: false,
      source_network: { name: 'TON_MAINNET', display_name: 'Ton', type: 'ton' },
      source_token: token,
    },
  } as unknown as SwapDetails;
}

const action = (over: Partial<DepositAction> & { data?: Record<string, unknown> } = {}): DepositAction[] => {
  const { data, ...rest } = over;
  return [
    {
      type: 'transfer',
      to_address: DEPOSIT,
      amount: 1.5,
      amount_in_base_units: '1500000000',
      call_data: JSON.stringify({ amount: '1500000000', asset: 'TON', comment: '8123', ...data }),
      ...rest,
    },
  ];
};

const jettonWalletOf = (master: Address, owner: Address) => {
  expect(master.equals(Address.parse(USDT))).toBe(true);
  expect(owner.equals(Address.parse(WALLET))).toBe(true);
  return Promise.resolve(JETTON_WALLET);
};

const comment = (c: Cell) => {
  const s = c.beginParse();
  expect(s.loadUint(32)).toBe(0);
  return s.loadStringTail();
};

describe('the TON message handed to the wallet', () => {
  it('TON: the amount to the action address, the comment as a text payload, from this wallet, valid for 360 s', async () => {
    const got = await tonTransfer(action(), swap(ton, 1.5), WALLET, NOW, jettonWalletOf);
    if (!got.ok) throw new Error(got.why);
    const { request } = got.value;
    expect(request).toMatchObject({ validUntil: NOW / 1000 + 360, network: '-239', from: WALLET });
    expect(request.messages).toEqual([{ address: DEPOSIT, amount: '1500000000', payload: expect.any(String) }]);
    expect(comment(Cell.fromBase64(request.messages[0]!.payload))).toBe('8123');
    expect(got.value).toMatchObject({ amountUnits: '1500000000', feeUnits: toNano('0.01').toString() });
  });

  it("USDT: a jetton transfer (0x0f8a7ea5) to the wallet's own jetton wallet with 0.045 TON, the comment forwarded, excess back to the wallet", async () => {
    const actions = action({ amount: 25, amount_in_base_units: '25000000', data: { amount: '25000000', asset: 'USDT' } });
    const got = await tonTransfer(actions, swap(usdt, 25), WALLET, NOW, jettonWalletOf);
    if (!got.ok) throw new Error(got.why);
    const [m] = got.value.request.messages;
    expect(Address.parse(m!.address).equals(JETTON_WALLET)).toBe(true);
    expect(m!.amount).toBe(toNano('0.045').toString());
    const s = Cell.fromBase64(m!.payload).beginParse();
    expect(s.loadUint(32)).toBe(0x0f8a7ea5);
    expect(s.loadUintBig(64)).toBe(0n);
    expect(s.loadCoins()).toBe(25_000_000n);
    expect(s.loadAddress().equals(Address.parse(DEPOSIT))).toBe(true);
    expect(s.loadAddress().equals(Address.parse(WALLET))).toBe(true);
    expect(s.loadBit()).toBe(false);
    expect(s.loadCoins()).toBe(toNano('0.00002'));
    expect(s.loadBit()).toBe(true);
    expect(comment(s.loadRef())).toBe('8123');
    expect(got.value).toMatchObject({ amountUnits: '25000000', jetton: Address.parse(USDT).toString() });
  });

  it('refuses an action that does not pay this swap, and one with nothing to send', async () => {
    const refused = (a: DepositAction[], details = swap(ton, 1.5), from = WALLET) => tonTransfer(a, details, from, NOW, jettonWalletOf);
    // Another amount (in the call data, the action, or against the swap), another token, no payee worth paying.
    expect(await refused(action({ data: { amount: '1400000000' } }))).toEqual({ ok: false, why: 'not_this_swap' });
    expect(await refused(action({ amount_in_base_units: '1400000000' }))).toEqual({ ok: false, why: 'not_this_swap' });
    expect(await refused(action(), swap(ton, 2))).toEqual({ ok: false, why: 'not_this_swap' });
    expect(await refused(action({ data: { asset: 'USDT' } }))).toEqual({ ok: false, why: 'not_this_swap' });
    expect(await refused(action({ to_address: WALLET }))).toEqual({ ok: false, why: 'not_this_swap' });
    const toMaster = action({ to_address: USDT, amount_in_base_units: '25000000', data: { amount: '25000000', asset: 'USDT' } });
    expect(await refused(toMaster, swap(usdt, 25))).toEqual({ ok: false, why: 'not_this_swap' });
    // No comment to match it by, call data that is not Layerswap's TON JSON, no transfer, no wallet address.
    expect(await refused(action({ data: { comment: '' } }))).toEqual({ ok: false, why: 'no_transaction' });
    expect(await refused(action({ call_data: '8123' }))).toEqual({ ok: false, why: 'no_transaction' });
    expect(await refused(action({ type: 'manual_transfer' }))).toEqual({ ok: false, why: 'no_transaction' });
    expect(await refused(action(), swap(ton, 1.5), 'not-an-address')).toEqual({ ok: false, why: 'no_transaction' });
  });

  it("the sent message's hash: TEP-467's normalized hash of the wallet's external message", () => {
    const to = Address.parse(WALLET);
    const body = beginCell().storeUint(42, 32).endCell();
    const plain = beginCell()
      .store(storeMessage(external({ to, body }), { forceRef: true }))
      .endCell();
    expect(tonMessageHash(plain.toBoc().toString('base64'))).toBe(plain.hash().toString('hex'));
    // The same message with its body inline normalizes to the same hash; an internal message is no sent external one.
    const inline = beginCell()
      .store(storeMessage(external({ to, body })))
      .endCell();
    expect(tonMessageHash(inline.toBoc().toString('base64'))).toBe(plain.hash().toString('hex'));
    expect(tonMessageHash(body.toBoc().toString('base64'))).toBeUndefined();
  });
});

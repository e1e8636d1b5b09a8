import { hashTypedData, recoverTypedDataAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DepositActionSchema, type DepositAction } from '../../src/layerswap/schemas.js';
import { asViem } from '../../src/layerswap/typed-data.js';
import { signRequest } from '../../src/pay/typed-data.js';
import { rawFixture } from '../support/fixtures.js';

/**
 * The gasless `sign` action as Layerswap's docs show it (test/fixtures/layerswap/
 * docs.deposit-action.gasless-sign.json, from layerswap-docs api-reference/gasless-swaps.mdx, with
 * placeholders). As it stands it is not signable (empty field lists, "0x<Paymaster>"): the page
 * never shows it to a wallet. Filled in with the EIP-3009 field lists and real addresses, it is
 * signed verbatim (numbers as text), and its digest is the one over the typed values.
 */
const docAction = (): DepositAction => DepositActionSchema.parse(rawFixture('docs.deposit-action.gasless-sign.json'));

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const PAYMASTER = '0x2222222222222222222222222222222222222222';
const NONCE = `0x${'ab'.repeat(32)}`;
const FIELDS = ['from:address', 'to:address', 'value:uint256', 'validAfter:uint256', 'validBefore:uint256', 'nonce:bytes32'].map((f) => {
  const [name, type] = f.split(':') as [string, string];
  return { name, type };
});

/** The doc's action with its placeholders replaced: what a real answer for `signer` would carry. */
function filled(signer: string): DepositAction {
  const text = JSON.stringify(rawFixture('docs.deposit-action.gasless-sign.json'))
    .replaceAll('0x<Paymaster>', PAYMASTER)
    .replaceAll('0x<tokenContract>', USDC)
    .replaceAll('0x<signer>', signer)
    .replaceAll('0x<nonce>', NONCE);
  const raw = JSON.parse(text) as { typed_data: { types: Record<string, unknown> } };
  raw.typed_data.types = {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    ReceiveWithAuthorization: FIELDS,
  };
  return DepositActionSchema.parse(raw);
}

describe('the typed data of a gasless sign action', () => {
  it('reads the docs example as a sign action, and refuses to have it signed while it holds placeholders', () => {
    const action = docAction();
    expect(action.type).toBe('sign');
    expect(action.valid_before).toBe(1893456000);
    expect(signRequest(action, { from: '0x<signer>', chainId: 1 })).toBeUndefined();
  });

  it('is signed verbatim: the digest over the JSON as given is the one over the typed values, and the signature recovers to the wallet', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const request = signRequest(filled(account.address), { from: account.address, chainId: 1 });
    expect(request).toMatchObject({ chainId: 1, token: USDC, amountUnits: '100000000' });
    const json = request!.typedData;
    expect(json.primaryType).toBe('ReceiveWithAuthorization');
    expect(json.message).toMatchObject({ value: '100000000', validBefore: '1893456000', nonce: NONCE });
    const typed = {
      ...asViem(json),
      domain: { name: 'USD Coin', version: '2', chainId: 1, verifyingContract: USDC },
      message: { from: account.address, to: PAYMASTER, value: 100000000n, validAfter: 0n, validBefore: 1893456000n, nonce: NONCE },
    } as Parameters<typeof hashTypedData>[0];
    expect(hashTypedData(asViem(json))).toBe(hashTypedData(typed));
    // What a wallet receives through eth_signTypedData_v4: the JSON text of it.
    const signature = await account.signTypedData(JSON.parse(JSON.stringify(json)) as Parameters<typeof account.signTypedData>[0]);
    await expect(recoverTypedDataAddress({ ...asViem(json), signature })).resolves.toBe(account.address);
  });

  it('is not signed when it says something other than the page: another wallet, network, token, amount or payee', () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const expect1 = { from: account.address, chainId: 1 };
    const action = filled(account.address);
    const changed = (
      edit: (a: DepositAction & { typed_data: { domain: Record<string, unknown>; message: Record<string, unknown> } }) => void,
    ) => {
      const copy = structuredClone(action) as DepositAction & {
        typed_data: { domain: Record<string, unknown>; message: Record<string, unknown> };
      };
      edit(copy);
      return signRequest(copy, expect1);
    };
    expect(signRequest(action, expect1)).toBeDefined();
    expect(signRequest(action, { ...expect1, from: privateKeyToAccount(generatePrivateKey()).address })).toBeUndefined();
    expect(signRequest(action, { ...expect1, chainId: 42161 })).toBeUndefined();
    expect(changed((a) => (a.typed_data.domain.verifyingContract = PAYMASTER))).toBeUndefined();
    expect(changed((a) => (a.typed_data.message.value = '100000001'))).toBeUndefined();
    expect(changed((a) => (a.typed_data.message.to = USDC))).toBeUndefined();
    expect(changed((a) => (a.type = 'transfer'))).toBeUndefined();
  });
});

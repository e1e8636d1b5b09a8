import { decodeFunctionData, erc20Abi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { evmTransaction } from '../../src/pay/transaction.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';

/**
 * The one transaction the page asks the wallet to send, from the deposit actions the sandbox answers
 * as the service does: a wallet-flow `transfer` exactly as given (Layerswap's app sends
 * `{to: to_address, value: amount, data: call_data}`), and a deposit-address swap's
 * `manual_transfer` as the plain transfer a person makes from the card.
 */
const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
let sandbox: SandboxServer;
let api: LayerswapClient;
beforeAll(async () => {
  sandbox = await startSandbox({ timings: { depositDelayMs: 'off' } });
  api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
});
afterAll(async () => {
  await api?.close();
  await sandbox?.close();
});

const create = (token: 'USDC' | 'ETH', amount: number, useDepositAddress: boolean) =>
  api.createSwap({
    source_network: 'ARBITRUM_MAINNET',
    source_token: token,
    destination_network: 'BASE_MAINNET',
    destination_token: token,
    destination_address: DEST,
    amount,
    use_deposit_address: useDepositAddress,
  });

describe('the transaction from the deposit actions', () => {
  it('sends a wallet-flow ERC-20 transfer action verbatim: to the token contract, no value, its call data', async () => {
    const d = await create('USDC', 25, false);
    const action = d.deposit_actions!.find((a) => a.type === 'transfer')!;
    const tx = evmTransaction(d.deposit_actions!, '42161')!;
    expect(tx).toMatchObject({ chainId: 42161, to: USDC, value: '0', data: action.call_data, token: USDC, amountUnits: '25000000' });
  });

  it('sends a wallet-flow native transfer with its amount and call data', async () => {
    const d = await create('ETH', 0.5, false);
    const action = d.deposit_actions!.find((a) => a.type === 'transfer')!;
    expect(evmTransaction(d.deposit_actions!, '42161')).toMatchObject({
      to: action.to_address,
      value: parseEther('0.5').toString(),
      data: action.call_data,
    });
  });

  it('pays a deposit-address swap with the plain transfer of the card: token transfer() or the native amount', async () => {
    const usdc = await create('USDC', 12.5, true);
    const address = usdc.deposit_actions![0]!.to_address!;
    const tx = evmTransaction(usdc.deposit_actions!, '42161')!;
    expect(tx).toMatchObject({ to: USDC, value: '0', token: USDC, amountUnits: '12500000' });
    expect(decodeFunctionData({ abi: erc20Abi, data: tx.data! })).toEqual({ functionName: 'transfer', args: [address, 12_500_000n] });
    const eth = await create('ETH', 0.25, true);
    const native = evmTransaction(eth.deposit_actions!, '42161')!;
    expect(native).toMatchObject({ to: eth.deposit_actions![0]!.to_address, value: parseEther('0.25').toString() });
    expect(native.data).toBeUndefined();
  });

  it('builds nothing without a chain id or a valid address', async () => {
    const d = await create('USDC', 25, true);
    expect(evmTransaction(d.deposit_actions!, undefined)).toBeUndefined();
    expect(evmTransaction([{ ...d.deposit_actions![0]!, to_address: 'not-an-address' }], '42161')).toBeUndefined();
  });
});

import { fakeAddress } from './addresses.js';
import type { SwapRecord } from './lifecycle.js';
import type { CatalogNetwork } from './model.js';
import { toBaseUnits } from './numbers.js';
import { slimTokenView, swapNetworkView, type Json } from './views.js';

/**
 * What the user must send (reference section 10). One action, order 0:
 * - deposit-address flow: `manual_transfer` of the amount to an address generated for this swap,
 *   and nothing else: no call_data (the official app's manual-deposit screen shows only the address
 *   and the amount and never reads call_data), so the sandbox invents no memo; except on Stellar,
 *   where deposits go to one shared account and the memo (the sequence number) is required;
 * - wallet flow: `transfer`, the transaction to sign: EVM native sends the amount with the sequence
 *   number as call data; an ERC-20 goes to the token contract with value 0 and transfer() call data.
 */

/** Where the user deposits: a generated address per swap (deposit-address flow), else Layerswap's shared one told apart by the memo. */
export function depositAddressFor(network: CatalogNetwork, swapId: string, useDepositAddress: boolean): string {
  // Stellar: one shared account, the memo tells the swaps apart, in both flows.
  const own = useDepositAddress && network.type !== 'stellar';
  return fakeAddress(network.type, own ? `deposit:${swapId}` : `deposit:${network.name}`);
}

export function depositActions(rec: SwapRecord): Json[] {
  const { route, amount, useDepositAddress } = rec.request;
  const network = route.from.network;
  const token = route.from.token;
  const baseUnits = toBaseUnits(amount.text, token.decimals);
  const seq = rec.sequenceNumber;
  const common = {
    order: 0,
    network: swapNetworkView(network),
    token: slimTokenView(token),
    fee_token: slimTokenView(network.native),
  };
  if (useDepositAddress) {
    return [
      {
        type: 'manual_transfer',
        to_address: rec.depositAddress,
        amount: amount.value,
        amount_in_base_units: baseUnits,
        // Stellar: the memo is part of the deposit even to a deposit address (a shared account).
        call_data: network.type === 'stellar' ? memoFor(network, seq, baseUnits, token) : null,
        ...common,
      },
    ];
  }
  const memo = memoFor(network, seq, baseUnits, token);
  if (network.type === 'evm') {
    const seqHex = seq.toString(16);
    if (token.contract === null) {
      return [
        {
          type: 'transfer',
          to_address: rec.depositAddress,
          amount: amount.value,
          amount_in_base_units: baseUnits,
          call_data: `0x${seqHex}`,
          gas_limit: '21000',
          ...common,
        },
      ];
    }
    // ERC-20: the transaction goes to the token contract and carries no native value.
    const callData = `0xa9059cbb${word(rec.depositAddress.slice(2))}${word(BigInt(baseUnits).toString(16))}${seqHex}`;
    return [
      {
        type: 'transfer',
        to_address: token.contract,
        amount: 0,
        amount_in_base_units: '0',
        call_data: callData,
        gas_limit: '65000',
        ...common,
      },
    ];
  }
  if (network.type === 'starknet') {
    const calls = [
      { contractAddress: token.contract, entrypoint: 'transfer', calldata: [rec.depositAddress, baseUnits, '0'] },
      { contractAddress: fakeAddress('starknet', 'watchdog'), entrypoint: 'watch', calldata: [String(seq)] },
    ];
    return [
      {
        type: 'transfer',
        to_address: rec.depositAddress,
        amount: amount.value,
        amount_in_base_units: baseUnits,
        call_data: JSON.stringify(calls),
        ...common,
      },
    ];
  }
  return [
    { type: 'transfer', to_address: rec.depositAddress, amount: amount.value, amount_in_base_units: baseUnits, call_data: memo, ...common },
  ];
}

/** The memo a deposit on this family must carry to be matched to its swap, or null. */
function memoFor(network: CatalogNetwork, seq: number, baseUnits: string, token: { symbol: string }): string | null {
  switch (network.type) {
    case 'ton':
      // Layerswap's TON call data: {amount, asset, comment} (wallet-deposits.md §1); the comment is the swap's sequence number.
      return JSON.stringify({ amount: baseUnits, asset: token.symbol, comment: String(seq) });
    case 'bitcoin':
    case 'solana':
    case 'stellar':
      return String(seq);
    default:
      return null;
  }
}

const word = (hexDigits: string) => hexDigits.toLowerCase().padStart(64, '0');

import { isAddress, type Hex } from 'viem';
import type { DepositAction } from '../layerswap/schemas.js';
import { readTypedData, type TypedDataJson } from '../layerswap/typed-data.js';

/**
 * What the wallet is asked to sign for a gasless swap: the `sign` action's typed data, verbatim
 * (Layerswap's app hands it to eth_signTypedData_v4 as it is), once it says what the page says:
 * the swap's network (domain chainId), its token (verifyingContract), the connected wallet
 * (message.from), the action's amount (message.value) and payee (message.to, or a permit's spender).
 * Anything else is not shown to the wallet at all: money instructions are never contradictory.
 */
export interface SignRequest {
  typedData: TypedDataJson;
  chainId: number;
  /** The token's contract and the amount in its smallest units, for the page's balance check. */
  token: Hex;
  amountUnits: string;
}

const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

export function signRequest(action: DepositAction | undefined, expect: { from: string; chainId: number }): SignRequest | undefined {
  if (action?.type !== 'sign') return undefined;
  const read = readTypedData(action.typed_data);
  if (!read) return undefined;
  const { domain, message } = read.json;
  const contract = action.token?.contract;
  if (!contract || !isAddress(contract) || !same(domain.verifyingContract, contract)) return undefined;
  if (Number(domain.chainId) !== expect.chainId || !same(message.from, expect.from)) return undefined;
  const value = typeof message.value === 'bigint' ? message.value.toString() : String(message.value ?? '');
  if (!/^\d+$/.test(value) || (action.amount_in_base_units != null && action.amount_in_base_units !== value)) return undefined;
  if (!action.to_address || !same(message.to ?? message.spender, action.to_address)) return undefined;
  return { typedData: read.json, chainId: expect.chainId, token: contract, amountUnits: value };
}

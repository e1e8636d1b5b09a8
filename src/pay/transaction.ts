import { encodeFunctionData, erc20Abi, isAddress, isHex, parseUnits, type Hex } from 'viem';
import type { DepositAction } from '../layerswap/schemas.js';

/**
 * The one EVM transaction the wallet is asked to send, from the swap's deposit actions:
 * - a `transfer` action is sent as it is, as Layerswap's own app does (depositExecution.ts,
 *   transactionBuilder.ts: `{to: to_address, value: amount, data: call_data}`);
 * - a deposit-address swap has only `manual_transfer` (call_data null): the same plain transfer a
 *   person makes by hand from the card, the amount to the deposit address (native), or the token's
 *   `transfer(to_address, amount)` (ERC-20). Nothing else is ever built.
 * Undefined when the actions hold nothing an EVM wallet can send (the page then says so).
 */
export interface EvmTransaction {
  chainId: number;
  to: Hex;
  /** Wei, as a decimal string (JSON has no bigint). */
  value: string;
  data?: Hex;
  /** The token's contract and the amount in its smallest units, for the page's balance check. */
  token?: Hex;
  amountUnits: string;
  gas?: string;
}

export function evmTransaction(actions: readonly DepositAction[], chainIdText: string | undefined): EvmTransaction | undefined {
  const chainId = Number(chainIdText);
  if (!Number.isSafeInteger(chainId) || chainId <= 0) return undefined;
  const action = actions.find((a) => a.type === 'transfer') ?? actions.find((a) => a.type === 'manual_transfer');
  if (!action?.to_address || !isAddress(action.to_address)) return undefined;
  const contract = action.token?.contract && isAddress(action.token.contract) ? (action.token.contract as Hex) : undefined;
  const decimals = action.token?.decimals ?? 18;
  const units =
    action.amount_in_base_units ?? (typeof action.amount === 'number' ? parseUnits(String(action.amount), decimals).toString() : undefined);
  if (units === undefined || !/^\d+$/.test(units)) return undefined;
  const gas = action.gas_limit && /^\d+$/.test(action.gas_limit) ? { gas: action.gas_limit } : {};
  if (action.type === 'transfer') {
    if (action.call_data != null && !isHex(action.call_data)) return undefined;
    // ERC-20: the action goes to the token contract with value 0; what is paid is in the call data.
    const toToken = contract !== undefined && action.to_address.toLowerCase() === contract.toLowerCase();
    return {
      chainId,
      to: action.to_address as Hex,
      value: toToken ? '0' : units,
      ...(action.call_data ? { data: action.call_data as Hex } : {}),
      ...(toToken ? { token: contract, amountUnits: tokenUnits(action.call_data) ?? units } : { amountUnits: units }),
      ...gas,
    };
  }
  if (contract) {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [action.to_address as Hex, BigInt(units)] });
    return { chainId, to: contract, value: '0', data, token: contract, amountUnits: units, ...gas };
  }
  return { chainId, to: action.to_address as Hex, value: units, amountUnits: units, ...gas };
}

/** The amount of an ERC-20 transfer(address,uint256) call (its second word), for the balance check. */
function tokenUnits(callData: string | null | undefined): string | undefined {
  if (!callData?.startsWith('0xa9059cbb') || callData.length < 138) return undefined;
  return BigInt(`0x${callData.slice(74, 138)}`).toString();
}

import { createPublicClient, erc20Abi, http, type Hex } from 'viem';
import type { Shortfall } from './families.js';
import type { EvmTransaction } from './transaction.js';

/**
 * What an EVM wallet holds against what its payment needs, read by the server from the network's
 * own RPC (the swap's `node_url`) before the wallet is asked: a WalletConnect wallet answers only
 * what it signs, so the page cannot read it through the wallet (an injected one it still does,
 * main.ts). The token's amount, then the native amount plus gas at the network's gas price.
 * Undefined when it is enough or cannot be read (then the wallet's own check stands).
 */
export async function evmShortfall(nodeUrl: string, from: Hex, tx: EvmTransaction): Promise<Shortfall | undefined> {
  try {
    const client = createPublicClient({ transport: http(nodeUrl, { retryCount: 0, timeout: 5_000 }) });
    const [native, price, token] = await Promise.all([
      client.getBalance({ address: from }),
      client.getGasPrice(),
      tx.token ? client.readContract({ address: tx.token, abi: erc20Abi, functionName: 'balanceOf', args: [from] }) : undefined,
    ]);
    if (token !== undefined && token < BigInt(tx.amountUnits)) return { kind: 'amount', have: token, need: BigInt(tx.amountUnits) };
    const value = BigInt(tx.value);
    if (value > 0n && native < value) return { kind: 'amount', have: native, need: value };
    return native < value + BigInt(tx.gas ?? '21000') * price ? { kind: 'fee' } : undefined;
  } catch {
    return undefined;
  }
}

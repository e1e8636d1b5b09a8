import type { PublicClient } from 'viem';
import type { SeenTransfer, WatchEntry } from './watcher.js';

/**
 * What makes a transfer seen in eth_getLogs (or a block's transactions) evidence: its receipt,
 * asked of the same RPC, says the transaction succeeded in that block and carries that very
 * transfer. A log without such a receipt (an RPC that invents it, a transaction a reorganisation
 * dropped) is not reported; a reported one is checked again at each new head until it is as deep
 * as the network needs, and taken back when its receipt is gone or no longer backs it. Between its
 * first receipt and its last, a token transfer still logged where its receipt put it needs no
 * receipt at that head (evm-scan.ts: one eth_getLogs for them all): only a missing log asks again;
 * a native transfer needs none while the blocks read since name each other as parents up to the
 * head (a hash chain from the block its receipt named).
 */

/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** Confirmations a sighting is re-checked for when the network's count is not known. */
const DEFAULT_FINAL_DEPTH = 12;

/** Receipts a log may miss before it is dropped unreported (an RPC whose receipts lag its logs a block or two). */
const MISSES = 3;

export interface Tracked {
  entry: WatchEntry;
  t: SeenTransfer;
  /** Reported to tracking (its receipt backed it once). */
  reported: boolean;
  /** The head it was last checked at. */
  checkedAt: number;
  misses: number;
  /** The block hash its last receipt named (lowercase). */
  blockHash?: string;
}

interface RpcReceipt {
  status?: string;
  blockNumber?: string;
  blockHash?: string;
  to?: string | null;
  logs?: Array<{ address?: string; topics?: string[]; data?: string }>;
}

/** The block the receipt puts the transfer in, or undefined when it does not back the transfer. */
export function backedAt(receipt: RpcReceipt | null, t: SeenTransfer): number | undefined {
  if (!receipt || receipt.status !== '0x1' || receipt.blockNumber === undefined) return undefined;
  const to = BigInt(t.to);
  const ok =
    t.contract === null
      ? receipt.to !== undefined && receipt.to !== null && BigInt(receipt.to) === to
      : (receipt.logs ?? []).some(
          (lg) =>
            lg.address?.toLowerCase() === t.contract &&
            lg.topics?.[0]?.toLowerCase() === TRANSFER_TOPIC &&
            lg.topics[2] !== undefined &&
            BigInt(lg.topics[2]) === to &&
            lg.data !== undefined &&
            lg.data !== '0x' &&
            BigInt(lg.data) === t.value,
        );
  return ok ? Number(receipt.blockNumber) : undefined;
}

export async function receiptOf(client: PublicClient, txHash: string): Promise<RpcReceipt | null> {
  return (await client.request({ method: 'eth_getTransactionReceipt', params: [txHash as `0x${string}`] })) as RpcReceipt | null;
}

export type Verdict = { kind: 'report'; block: number } | { kind: 'retract' } | { kind: 'drop' } | { kind: 'wait' } | { kind: 'final' };

/** What one receipt says of a tracked transfer at `head`. */
export function judge(tr: Tracked, receipt: RpcReceipt | null, head: number): Verdict {
  const block = backedAt(receipt, tr.t);
  if (block === undefined) {
    if (tr.reported) return { kind: 'retract' };
    return ++tr.misses >= MISSES ? { kind: 'drop' } : { kind: 'wait' };
  }
  if (!tr.reported || block !== tr.t.block) return { kind: 'report', block };
  return deepEnough(tr, head) ? { kind: 'final' } : { kind: 'wait' };
}

/** The transfer's block is as deep as its network needs at `head`: its last check, by receipt. */
export function deepEnough(tr: Tracked, head: number): boolean {
  return head - tr.t.block + 1 >= (tr.entry.depth || DEFAULT_FINAL_DEPTH);
}

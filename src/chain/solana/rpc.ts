import { createSolanaRpc } from '@solana/kit';
import type { Logger } from '../../log.js';
import type { SeenTransfer, WatchEntry } from '../watcher.js';
import type { Credit, RpcBlock, SignatureStatus } from './scan.js';

/** The Solana reader's few RPC calls (watcher.ts), and its match of a block's credits to the watched swaps. */

/** A credit found for a watched swap: unreported until its status backs it, then re-checked until finalized. */
export interface TrackedCredit {
  entry: WatchEntry;
  t: SeenTransfer;
  slot: number;
  reported: boolean;
  misses: number;
}

/** The calls the watcher makes, over @solana/kit's JSON-RPC client (numbers come back as bigint). */
export interface SolanaRpc {
  genesisHash(): Promise<string>;
  slot(): Promise<number>;
  blocks(from: number, to: number): Promise<number[]>;
  block(slot: number): Promise<RpcBlock | null>;
  height(slot: number): Promise<number | undefined>;
  statuses(signatures: string[]): Promise<Array<SignatureStatus | null>>;
}

const COMMITMENT = 'confirmed' as const;

export function solanaRpc(url: string, timeoutMs: number): SolanaRpc {
  const rpc = createSolanaRpc(url);
  const opts = () => ({ abortSignal: AbortSignal.timeout(timeoutMs) });
  // One generic path for getBlock's 'accounts' shape, which kit types per option set.
  const getBlock = rpc.getBlock as unknown as (slot: bigint, cfg: object) => { send(o: object): Promise<RpcBlock | null> };
  return {
    genesisHash: async () => String(await rpc.getGenesisHash().send(opts())),
    slot: async () => Number(await rpc.getSlot({ commitment: COMMITMENT }).send(opts())),
    blocks: async (from, to) =>
      (await rpc.getBlocks(BigInt(from), BigInt(to), { commitment: COMMITMENT }).send(opts())).map((s) => Number(s)),
    block: (slot) =>
      getBlock(BigInt(slot), {
        commitment: COMMITMENT,
        encoding: 'json',
        transactionDetails: 'accounts',
        maxSupportedTransactionVersion: 0,
        rewards: false,
      }).send(opts()),
    height: async (slot) => {
      const b = await getBlock(BigInt(slot), { commitment: COMMITMENT, transactionDetails: 'none', rewards: false }).send(opts());
      return b?.blockHeight === null || b?.blockHeight === undefined ? undefined : Number(b.blockHeight);
    },
    statuses: async (signatures) => {
      const out: Array<SignatureStatus | null> = [];
      // The method takes at most 256 signatures a call.
      for (let i = 0; i < signatures.length; i += 256) {
        const chunk = signatures.slice(i, i + 256) as unknown as Parameters<typeof rpc.getSignatureStatuses>[0];
        const res = await rpc.getSignatureStatuses(chunk, { searchTransactionHistory: false }).send(opts());
        out.push(...(res.value as Array<SignatureStatus | null>));
      }
      return out;
    },
  };
}

/** The credits for the given entries (by their deposit address), as transfers; the events decide which are tracked. */
export function matchCredits(
  l: { name: string; tracked: Map<string, TrackedCredit> },
  credits: readonly Credit[],
  entries: readonly WatchEntry[],
  at: number,
  accept: (e: WatchEntry, t: SeenTransfer) => boolean,
): void {
  const byAddress = new Map<string, WatchEntry[]>();
  for (const e of entries) byAddress.set(e.address, [...(byAddress.get(e.address) ?? []), e]);
  for (const c of credits) {
    for (const e of byAddress.get(c.to) ?? []) {
      const key = `${e.swapId}|${c.txHash}|${c.contract ?? ''}`;
      if (l.tracked.has(key)) continue;
      const { slot, ...rest } = c;
      const t: SeenTransfer = { ...rest, network: l.name, at };
      if (!accept(e, t)) continue;
      l.tracked.set(key, { entry: e, t, slot, reported: false, misses: 0 });
    }
  }
}

/** Another chain's RPC (or none to check against): the one error line, never the URL (the loop is disabled). */
export function logOtherCluster(name: string, expected: string | undefined, got: string, log: Logger): void {
  const fields = { network: name, expected: expected ?? null, got };
  if (expected === undefined)
    log.error(fields, 'no genesis hash known to check the Solana RPC against: not watched; deposits are followed by polling the API');
  else log.error(fields, 'chain RPC is for another chain (genesis hash): not watched; deposits are followed by polling the API');
}

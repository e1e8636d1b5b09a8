import { createSolanaRpc } from '@solana/kit';
import type { Logger } from '../../log.js';
import type { SeenTransfer, WatchEntry } from '../watcher.js';
import type { Credit, RpcBlock, SignatureStatus } from './scan.js';

/** The Solana watcher's per-network loop (watcher.ts): its state and its few RPC calls. */

/** A credit found for a watched swap: unreported until its status backs it, then re-checked until finalized. */
export interface TrackedCredit {
  entry: WatchEntry;
  t: SeenTransfer;
  slot: number;
  reported: boolean;
  misses: number;
}

export interface SolanaLoop {
  name: string;
  rpc: SolanaRpc;
  entries: Map<string, WatchEntry>;
  /** Entries watched after the loop started: the recent slots already read are matched for them once. */
  fresh: Map<string, WatchEntry>;
  /** The last slot fully read. */
  scanned?: number;
  /** The newest block height read (confirmations are counted from it). */
  height?: number;
  /** Credits of the slots read lately (the lookback), for swaps watched late. */
  recent: Map<number, Credit[]>;
  tracked: Map<string, TrackedCredit>;
  failures: number;
  up: boolean;
  answered: boolean;
  verified: boolean;
  disabled: boolean;
  running: boolean;
  again: boolean;
  retryAt: number;
  nextMs: number;
  timer?: NodeJS.Timeout;
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

function solanaRpc(url: string, timeoutMs: number): SolanaRpc {
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

export function newSolanaLoop(name: string, url: string, opts: { timeoutMs?: number; checked: boolean }): SolanaLoop {
  return {
    name,
    rpc: solanaRpc(url, opts.timeoutMs ?? 10_000),
    entries: new Map(),
    fresh: new Map(),
    recent: new Map(),
    tracked: new Map(),
    failures: 0,
    up: true,
    answered: false,
    verified: !opts.checked,
    disabled: false,
    running: false,
    again: false,
    retryAt: 0,
    nextMs: 0,
  };
}

/** The credits for the given entries (by their deposit address), as transfers; the events decide which are tracked. */
export function matchCredits(
  l: SolanaLoop,
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

/** Another chain's RPC (or none to check against): the loop is disabled, with one error line (never the URL). */
export function disable(l: SolanaLoop, expected: string | undefined, got: string, log: Logger): void {
  l.disabled = true;
  l.up = false;
  clearTimeout(l.timer);
  const fields = { network: l.name, expected: expected ?? null, got };
  if (expected === undefined)
    log.error(fields, 'no genesis hash known to check the Solana RPC against: not watched; deposits are followed by polling the API');
  else log.error(fields, 'chain RPC is for another chain (genesis hash): not watched; deposits are followed by polling the API');
}

import { createPublicClient, http, parseAbiItem, type Address, type PublicClient } from 'viem';
import type { Logger } from '../log.js';
import type { Tracked } from './evidence.js';
import type { WatchEntry, WatcherEvents } from './watcher.js';

/** The EVM watcher's per-network loop (evm.ts): its state, how one is made, and its reads of a block range. */

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export interface NetworkLoop {
  name: string;
  client: PublicClient;
  entries: Map<string, WatchEntry>;
  /** Entries added after the loop started: their lookback (the blocks already scanned) is read once. */
  fresh: Map<string, WatchEntry>;
  /** The last block fully scanned. */
  scanned?: number;
  failures: number;
  up: boolean;
  timer?: NodeJS.Timeout;
  running: boolean;
  /** A poke came during a tick: tick again at once after it. */
  again: boolean;
  /** Its RPC's token bucket (shared by the networks one URL serves). */
  bucket: Bucket;
  /** Not before this (ms) while failing: a watch added meanwhile does not try at once. */
  retryAt: number;
  /** Its chain id was checked since the last failure. */
  verified: boolean;
  /** Another chain's RPC (or none to check against): never read again. */
  disabled: boolean;
  /** Transfers found, by swap and transaction: unreported until a receipt backs them, then re-checked until final. */
  tracked: Map<string, Tracked>;
  /** When to tick next (ms from the last tick): what a driven loop's job waits. */
  nextMs: number;
}

/** Requests that may go now, as of `refilled`; whether the RPC ever answered. */
export interface Bucket {
  tokens: number;
  refilled: number;
  answered: boolean;
}

/** A network's loop, before its first tick. */
export function newLoop(name: string, url: string, bucket: Bucket, opts: { timeoutMs?: number; chainId?: unknown }): NetworkLoop {
  return {
    name,
    // cacheTime 0: viem otherwise answers getBlockNumber from a 4 s cache, and every new
    // block (a deposit, a confirmation) would reach the card up to 4 s late.
    client: createPublicClient({ cacheTime: 0, transport: http(url, { retryCount: 0, timeout: opts.timeoutMs ?? 10_000 }) }),
    entries: new Map(),
    fresh: new Map(),
    failures: 0,
    up: true,
    running: false,
    again: false,
    retryAt: 0,
    verified: !opts.chainId,
    disabled: false,
    tracked: new Map(),
    nextMs: 0,
    bucket,
  };
}

/**
 * Reads blocks `from`..`to` for transfers to the entries' addresses (one eth_getLogs; each block
 * only when some entry expects the native coin) and tracks each new one the events accept; `gap`
 * spends the RPC's rate limit before each request.
 */
export async function scanRange(
  l: NetworkLoop,
  from: number,
  to: number,
  entries: readonly WatchEntry[],
  gap: (l: NetworkLoop) => Promise<void>,
  events: Pick<WatcherEvents, 'accept'>,
): Promise<void> {
  if (from > to) return;
  const byAddress = new Map<string, WatchEntry[]>();
  for (const e of entries) {
    const k = e.address.toLowerCase();
    byAddress.set(k, [...(byAddress.get(k) ?? []), e]);
  }
  if (byAddress.size === 0) return;
  const times = new Map<number, number>();
  await gap(l);
  const logs = await l.client.getLogs({
    event: TRANSFER,
    args: { to: [...byAddress.keys()] as Address[] },
    fromBlock: BigInt(from),
    toBlock: BigInt(to),
  });
  const found: Array<[WatchEntry, Parameters<WatcherEvents['transfer']>[1]]> = [];
  for (const lg of logs) {
    const dest = lg.args.to?.toLowerCase();
    if (!dest || lg.blockNumber === null || lg.transactionHash === null) continue;
    for (const e of byAddress.get(dest) ?? []) {
      found.push([
        e,
        {
          network: l.name,
          to: dest,
          txHash: lg.transactionHash,
          block: Number(lg.blockNumber),
          contract: lg.address.toLowerCase(),
          value: lg.args.value ?? 0n,
          at: 0,
        },
      ]);
    }
  }
  // Native transfers leave no log: read the blocks, only when someone expects the native coin.
  if (entries.some((e) => e.token.contract === null)) {
    for (let b = from; b <= to; b++) {
      await gap(l);
      const block = await l.client.getBlock({ blockNumber: BigInt(b), includeTransactions: true });
      times.set(b, Number(block.timestamp) * 1000);
      for (const tx of block.transactions) {
        const dest = tx.to?.toLowerCase();
        if (!dest || tx.value === 0n) continue;
        for (const e of byAddress.get(dest) ?? []) {
          found.push([e, { network: l.name, to: dest, txHash: tx.hash, block: b, contract: null, value: tx.value, at: 0 }]);
        }
      }
    }
  }
  for (const [e, t] of found) {
    const key = `${e.swapId}|${t.txHash}`;
    const seen = { ...t, at: times.get(t.block) ?? Date.now() };
    if (l.tracked.has(key) || !(events.accept?.(e, seen) ?? true)) continue;
    l.tracked.set(key, { entry: e, t: seen, reported: false, checkedAt: -1, misses: 0 });
  }
}

/** Another chain's RPC (or none to check against): the loop is disabled, with one error line. */
export function disableForOtherChain(l: NetworkLoop, expected: number | undefined, got: number, log: Logger): void {
  l.disabled = true;
  l.up = false;
  clearTimeout(l.timer);
  const fields = { network: l.name, expected: expected ?? null, got };
  if (expected === undefined)
    log.error(fields, 'no chain id in the catalogue to check the chain RPC against: not watched; deposits are followed by polling the API');
  else log.error(fields, 'chain RPC is for another chain: not watched; deposits are followed by polling the API');
}

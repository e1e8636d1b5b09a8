import { judge, receiptOf } from './evidence.js';
import { evmClient, logOtherChain, scanRange, stillChained, stillLogged, type RangeReader } from './evm-scan.js';
import { createNetworkWatcher, settle, type NetworkLoopOptions, type NetworkReader, type ReaderContext } from './network-loop.js';
import type { ChainWatcher, WatchEntry } from './watcher.js';

/**
 * The EVM chain watcher (viem): its reader in the shared network loop (network-loop.ts: back-off,
 * health, the head interval). Per network, a tick reads the head, then for the new block range one
 * eth_getLogs for ERC-20 Transfer logs to every watched address at once (topic 2 is the OR list of
 * addresses), and, only when some swap expects the native coin, each new block with its
 * transactions (a native transfer leaves no log). Its cost grows with networks and blocks, not
 * with swaps. Requests to one RPC are rate-limited (a token bucket: `minGapMs` apart on average,
 * a tick's few requests in a burst). Before it is believed, at start and after every failure, the
 * RPC's eth_chainId must be the network's (`chainId`): another chain's RPC is disabled with one
 * error line. A transfer is reported only when its receipt backs it, and checked again at each new
 * head until final (evidence.ts): the token transfers still logged in their blocks by one eth_getLogs
 * for them all, the native ones by the hash chain of the blocks read since, the rest by their receipts.
 */

/** At most this many blocks per eth_getLogs (providers cap ranges); a watcher that fell behind catches up in steps. */
const MAX_RANGE = 500;

const WORDS = {
  gone: 'a transfer seen on chain is gone (reorganisation or a faulty RPC): taken back',
  unbacked: "a transfer in the RPC's logs has no receipt to back it: not believed",
};

export interface EvmWatcherOptions extends NetworkLoopOptions {
  /** Requests to one RPC are this far apart on average (ms; default 100: 10 a second). */
  minGapMs?: number;
  /** Requests to one RPC that may go out at once before the average applies (default 4: a tick's head, logs and a block or two). */
  burst?: number;
  /** Blocks before the head to look back when a network starts being watched (default 20). */
  lookback?: number;
  /**
   * The network's chain id (the catalogue's): the RPC must answer eth_chainId with it, at start and
   * after each failure, or it is not watched. Absent: not checked (the sandbox's own chain).
   */
  chainId?: (network: string) => Promise<number | undefined>;
}

export function createEvmWatcher(opts: EvmWatcherOptions): ChainWatcher {
  const lookback = opts.lookback ?? 20;
  const reader = (ctx: ReaderContext): NetworkReader => {
    const r: RangeReader = {
      name: ctx.name,
      client: evmClient(ctx.url, opts.timeoutMs),
      tracked: new Map(),
      blocks: { byNumber: new Map(), tip: -1 },
      gap: ctx.gap,
    };
    const scan = (from: number, to: number, entries: readonly WatchEntry[]) => scanRange(r, from, to, entries, opts.events);
    return {
      // The RPC's eth_chainId against the network's: false (one error line) when they differ.
      ...(opts.chainId && {
        verify: async () => {
          const expected = await opts.chainId?.(ctx.name);
          await ctx.gap();
          const got = await r.client.getChainId();
          if (expected !== undefined && got === expected) return true;
          logOtherChain(ctx.name, expected, got, ctx.log);
          return false;
        },
      }),
      head: async () => {
        await ctx.gap();
        return Number(await r.client.getBlockNumber());
      },
      catchUp: (scanned, fresh) => scan(Math.max(0, scanned - lookback) + 1, scanned, fresh),
      read: async (head, scanned, entries) => {
        const from = (scanned ?? Math.max(0, head - lookback)) + 1;
        const to = Math.min(head, from + MAX_RANGE - 1);
        if (from <= to) await scan(from, to, entries);
        return { scanned: Math.max(scanned ?? 0, to, from - 1), behind: to < head };
      },
      // Each tracked transfer, once per head: its receipt reports it when it backs it and takes it back
      // when it stops; between the first and the last, a token transfer still logged in its block needs none,
      // nor a native one whose block the blocks read since still chain up to the head.
      confirm: async (head, scanned) => {
        const due = [...r.tracked].filter(([, tr]) => tr.checkedAt !== head);
        const pending = due.map(([, tr]) => tr);
        const chained = stillChained(r, pending, head);
        const logged = await stillLogged(r, pending, head, MAX_RANGE);
        for (const [key, tr] of due) {
          if (r.tracked.get(key) !== tr) continue; // unwatched meanwhile
          if (logged.has(tr) || chained.has(tr)) {
            tr.checkedAt = head;
            continue;
          }
          await ctx.gap();
          const receipt = await receiptOf(r.client, tr.t.txHash);
          const v = judge(tr, receipt, head);
          tr.blockHash = receipt?.blockHash?.toLowerCase();
          tr.checkedAt = head;
          if (v.kind === 'report') tr.t = { ...tr.t, block: v.block };
          settle(ctx, r.tracked, key, tr, v, WORDS);
        }
        return Math.min(head, scanned);
      },
      unwatch: (swapId) => {
        for (const [key, tr] of r.tracked) if (tr.entry.swapId === swapId) r.tracked.delete(key);
      },
    };
  };
  return createNetworkWatcher({ name: 'evm', minGapMs: opts.minGapMs ?? 100, burst: opts.burst ?? 4, bucketPerUrl: true, reader }, opts);
}

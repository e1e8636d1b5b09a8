import { createNetworkWatcher, type NetworkLoopOptions, type NetworkReader, type ReaderContext } from '../network-loop.js';
import type { ChainWatcher, SeenTransfer, WatchEntry } from '../watcher.js';
import { newTonReads, rawAddress, readNew, transfersOf, type Seen } from './read.js';
import { contractKey, rawOf } from './transfers.js';

/**
 * The TON chain watcher (@ton/ton's TonClient over toncenter's HTTP API v2, `jsonRPC`). Per
 * network one loop: `getMasterchainInfo` every poll (the head), and only when a new masterchain
 * block came, one `getTransactions` per watched address for what is new since the last read (a
 * page of 20, paged back when more came). Layerswap's TON deposits go to a shared address told
 * apart by the comment, so all the network's swaps usually share one address: the cost is per
 * network and block, not per swap. A transfer is reported with its comment and sender; which
 * swap it belongs to (the comment), and what it is for that swap, is tracking's (chain-evidence.ts).
 * Jetton deposits are the `transfer_notification`s the deposit address receives, believed only
 * from its real wallet of the jetton (jettons.ts). A transaction the API returns is final on TON
 * (no reorganisation once in a masterchain block): reported once, never taken back.
 * Failures, back-off and health are the shared network loop's (network-loop.ts).
 */

/** Its RPC: a toncenter v2 jsonRPC URL (an API key may ride in it: never logged). */
export interface TonWatcherOptions extends NetworkLoopOptions {
  /** Requests to one RPC are this far apart on average (ms; default 1000: toncenter's keyless limit is 1 a second). */
  minGapMs?: number;
  /** Requests that may go at once before the average applies (default 3). */
  burst?: number;
  /** How far back (s) an address's first read goes (default 600). */
  lookbackSec?: number;
  pageSize?: number;
  maxPages?: number;
}

/**
 * A watched swap: its address (and sender) as raw workchain:hex, its jetton master raw (null:
 * native), and the lt up to which it was offered the address's transfers (read oldest first: one
 * number per swap, no set that grows).
 */
interface Watched {
  entry: WatchEntry;
  raw: string;
  own: string | null;
  offered: bigint;
}

export function createTonWatcher(opts: TonWatcherOptions): ChainWatcher {
  const lookbackSec = opts.lookbackSec ?? 600;
  const reader = (ctx: ReaderContext): NetworkReader => {
    const l = newTonReads(ctx.name, ctx.url, opts.timeoutMs ?? 10_000);
    const watched = new Map<string, Watched>();

    /** Each entry at `raw` told of each transfer it has not been told of (tracking decides what it is). */
    const offer = (raw: string, seen: readonly Seen[], only?: ReadonlySet<string>) => {
      if (seen.length === 0) return;
      const memos = new Set<string>();
      for (const rec of watched.values()) if (rec.raw === raw && rec.entry.memo !== undefined) memos.add(rec.entry.memo);
      for (const rec of watched.values()) {
        if (rec.raw !== raw || (only && !only.has(rec.entry.swapId))) continue;
        for (const s of seen) {
          // Each transfer once per swap: `seen` is oldest first, the swap's mark the last one offered.
          if (s.lt <= rec.offered) continue;
          rec.offered = s.lt;
          const t = seenTransfer(ctx.name, rec, s, memos);
          if (opts.events.accept?.(rec.entry, t) ?? true) opts.events.transfer(rec.entry, t);
        }
      }
    };

    return {
      head: async () => {
        await ctx.gap();
        return (await l.client.getMasterchainInfo()).latestSeqno;
      },
      // Swaps watched since the last tick are matched against what was read before them (no request).
      catchUp: async (_scanned, fresh) => {
        const ids = new Set(fresh.map((e) => e.swapId));
        for (const raw of new Set([...watched.values()].map((e) => e.raw))) offer(raw, l.recent.get(raw) ?? [], ids);
      },
      read: async (head, scanned) => {
        const moved = head !== scanned;
        for (const raw of new Set([...watched.values()].map((e) => e.raw))) {
          if (!moved && l.cursors.has(raw)) continue;
          const horizon = Math.floor(Date.now() / 1000) - lookbackSec;
          const txs = await readNew(l, raw, { pageSize: opts.pageSize ?? 20, maxPages: opts.maxPages ?? 5, horizon }, ctx.gap);
          const seen = await transfersOf(l, raw, txs, head, ctx.gap, (wallet) =>
            ctx.log.warn(
              { network: l.name, wallet },
              'a jetton notification from a contract that is not a real jetton wallet: not believed',
            ),
          );
          l.recent.set(
            raw,
            [...(l.recent.get(raw) ?? []), ...seen].filter((s) => s.utime >= horizon),
          );
          offer(raw, seen);
        }
        return { scanned: head, behind: false };
      },
      // A transaction toncenter returns is final: nothing to check again.
      confirm: async (head) => head,
      watch: (entry) => {
        const raw = rawAddress(entry);
        if (!raw) return false;
        const from = entry.from ? rawOf(entry.from) : undefined;
        const own = entry.token.contract ? (rawOf(entry.token.contract) ?? null) : null;
        watched.set(entry.swapId, { entry: { ...entry, ...(from ? { from } : {}) }, raw, own, offered: -1n });
        return true;
      },
      unwatch: (swapId) => {
        const raw = watched.get(swapId)?.raw;
        watched.delete(swapId);
        if (raw && ![...watched.values()].some((e) => e.raw === raw)) {
          l.cursors.delete(raw);
          l.recent.delete(raw);
        }
      },
    };
  };
  return createNetworkWatcher({ name: 'ton', minGapMs: opts.minGapMs ?? 1000, burst: opts.burst ?? 3, ownCursors: true, reader }, opts);
}

/** A transfer read at the swap's address, as tracking is told of it. */
function seenTransfer(network: string, rec: Watched, s: Seen, memos: ReadonlySet<string>): SeenTransfer {
  const { entry, own } = rec;
  const master = s.master ? s.master.toRawString() : null;
  return {
    network,
    to: entry.address,
    txHash: s.txHash,
    block: s.block,
    // The swap's own jetton in the catalogue's spelling; another as its master's canonical form.
    contract: s.master === null ? null : master === own ? (entry.token.contract as string).toLowerCase() : contractKey(s.master),
    value: s.value,
    at: s.utime * 1000,
    memo: s.memo,
    memoTaken: s.memo !== null && memos.has(s.memo),
    ...(s.from ? { from: s.from.toRawString() } : {}),
  };
}

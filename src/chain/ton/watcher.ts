import { silentLogger, type Logger } from '../../log.js';
import type { ChainWatcher, SeenTransfer, WatchEntry, WatcherEvents } from '../watcher.js';
import { newTonLoop, rawAddress, readNew, transfersOf, type Seen, type TonLoop } from './loop.js';
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
 * Failures back off (doubling to 30 s); an RPC that keeps failing is reported down once.
 */

const MAX_BACKOFF_MS = 30_000;
const UNREACHABLE_RETRY_MS = 10 * 60_000;

export interface TonWatcherOptions {
  /** Network name → toncenter v2 jsonRPC URL (an API key may ride in it: never logged). */
  rpcs: ReadonlyMap<string, string>;
  events: WatcherEvents;
  /** How often the head is read (ms; default 2 s). */
  pollMs?: number;
  /** Requests to one RPC are this far apart on average (ms; default 1000: toncenter's keyless limit is 1 a second). */
  minGapMs?: number;
  /** Requests that may go at once before the average applies (default 3). */
  burst?: number;
  /** How far back (s) an address's first read goes (default 600). */
  lookbackSec?: number;
  pageSize?: number;
  maxPages?: number;
  downAfter?: number;
  timeoutMs?: number;
  unreachableRetryMs?: number;
  logger?: Logger;
  driven?: boolean;
}

export function createTonWatcher(opts: TonWatcherOptions): ChainWatcher {
  const log = opts.logger ?? silentLogger;
  const pollMs = opts.pollMs ?? 2000;
  const minGap = opts.minGapMs ?? 1000;
  const burst = Math.max(1, opts.burst ?? 3);
  const lookbackSec = opts.lookbackSec ?? 600;
  const downAfter = opts.downAfter ?? 2;
  const unreachableMs = opts.unreachableRetryMs ?? UNREACHABLE_RETRY_MS;
  const loops = new Map<string, TonLoop>();
  const bySwap = new Map<string, string>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  let unreachableTold = false;
  let closed = false;

  const loopFor = (name: string): TonLoop | undefined => {
    let l = loops.get(name);
    if (l) return l;
    const url = opts.rpcs.get(name);
    if (!url) return undefined;
    l = newTonLoop(name, url, opts.timeoutMs ?? 10_000);
    loops.set(name, l);
    return l;
  };

  /** One request's share of the RPC's rate limit (a token bucket per network). */
  const gapFor = (l: TonLoop) => async () => {
    if (minGap <= 0) return;
    const b = buckets.get(l.name) ?? { tokens: burst, at: Date.now() };
    buckets.set(l.name, b);
    for (;;) {
      const now = Date.now();
      b.tokens = Math.min(burst, b.tokens + (now - b.at) / minGap);
      b.at = now;
      if (b.tokens >= 1) break;
      await new Promise((r) => setTimeout(r, (1 - b.tokens) * minGap));
    }
    b.tokens -= 1;
  };

  const schedule = (l: TonLoop, ms: number) => {
    l.nextMs = ms;
    if (closed || l.entries.size === 0 || opts.driven) return;
    clearTimeout(l.timer);
    l.timer = setTimeout(() => void tick(l), ms);
    l.timer.unref();
  };

  /** Each entry at `raw` told of each transfer it has not been told of (tracking decides what it is). */
  const offer = (l: TonLoop, raw: string, seen: readonly Seen[], only?: ReadonlySet<string>) => {
    if (seen.length === 0) return;
    const memos = new Set<string>();
    for (const rec of l.entries.values()) if (rec.raw === raw && rec.entry.memo !== undefined) memos.add(rec.entry.memo);
    for (const rec of l.entries.values()) {
      const { entry, own } = rec;
      if (rec.raw !== raw || (only && !only.has(entry.swapId))) continue;
      for (const s of seen) {
        // Each transfer once per swap: `seen` is oldest first, the swap's mark the last one offered.
        if (s.lt <= rec.offered) continue;
        rec.offered = s.lt;
        const master = s.master ? s.master.toRawString() : null;
        const t: SeenTransfer = {
          network: l.name,
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
        if (opts.events.accept?.(entry, t) ?? true) opts.events.transfer(entry, t);
      }
    }
  };

  const tick = async (l: TonLoop) => {
    if (closed) return;
    if (l.running) {
      l.again = true;
      return;
    }
    l.running = true;
    l.again = false;
    const gap = gapFor(l);
    const fresh = new Set(l.fresh);
    l.fresh.clear();
    try {
      await gap();
      const head = (await l.client.getMasterchainInfo()).latestSeqno;
      l.answered = true;
      l.retryAt = 0;
      const addresses = new Set([...l.entries.values()].map((e) => e.raw));
      const moved = head !== l.head;
      for (const raw of addresses) {
        const first = !l.cursors.has(raw);
        if (moved || first) {
          const horizon = Math.floor(Date.now() / 1000) - lookbackSec;
          const txs = await readNew(l, raw, { pageSize: opts.pageSize ?? 20, maxPages: opts.maxPages ?? 5, horizon }, gap);
          const seen = await transfersOf(l, raw, txs, head, gap, (wallet) =>
            log.warn({ network: l.name, wallet }, 'a jetton notification from a contract that is not a real jetton wallet: not believed'),
          );
          l.recent.set(
            raw,
            [...(l.recent.get(raw) ?? []), ...seen].filter((s) => s.utime >= horizon),
          );
          offer(l, raw, seen);
        }
        // Swaps watched since the last tick are matched against what was read before them too (no request).
        if (fresh.size > 0) offer(l, raw, l.recent.get(raw) ?? [], fresh);
      }
      l.head = head;
      if (l.failures > 0 || !l.up) {
        if (!l.up) {
          log.info({ network: l.name }, 'chain RPC answers again: watching deposits on chain');
          l.up = true;
          opts.events.health(l.name, true);
        }
        l.failures = 0;
      }
      opts.events.head(l.name, head);
      schedule(l, l.again ? 0 : pollMs);
    } catch (err) {
      for (const id of fresh) if (l.entries.has(id)) l.fresh.add(id);
      failed(l, err);
    } finally {
      l.running = false;
    }
  };

  const failed = (l: TonLoop, err: unknown) => {
    l.failures++;
    const never = !l.answered;
    if (l.up && l.failures >= downAfter) {
      l.up = false;
      // Once per outage, the network and the error kind only: the URL may carry an API key.
      const fields = { network: l.name, error: err instanceof Error ? err.name : 'error' };
      if (!never) log.warn(fields, 'chain RPC failing: falling back to polling the API');
      else if (!unreachableTold)
        log.warn(fields, 'chain RPC unreachable: deposits are followed by polling the API (tried again every few minutes)');
      else log.debug(fields, 'chain RPC unreachable');
      if (never) unreachableTold = true;
      opts.events.health(l.name, false);
    }
    const wait = never && !l.up ? unreachableMs : Math.min(MAX_BACKOFF_MS, pollMs * 2 ** Math.min(l.failures, 10));
    l.retryAt = Date.now() + wait;
    schedule(l, wait);
  };

  return {
    family: 'ton',
    covers: (network) => opts.rpcs.has(network),
    healthy: (network) => {
      const l = loops.get(network);
      return !!l && l.up && l.head !== undefined;
    },
    watch(entry) {
      const l = loopFor(entry.network);
      const raw = rawAddress(entry);
      if (!l || closed || !raw) return;
      const had = l.entries.size;
      const from = entry.from ? rawOf(entry.from) : undefined;
      const kept: WatchEntry = { ...entry, ...(from ? { from } : {}) };
      const own = entry.token.contract ? (rawOf(entry.token.contract) ?? null) : null;
      l.entries.set(entry.swapId, { entry: kept, raw, own, offered: -1n });
      l.fresh.add(entry.swapId);
      bySwap.set(entry.swapId, entry.network);
      if (had === 0) schedule(l, Math.max(0, l.retryAt - Date.now()));
    },
    unwatch(swapId) {
      const network = bySwap.get(swapId);
      if (network === undefined) return;
      bySwap.delete(swapId);
      const l = loops.get(network);
      if (!l) return;
      const raw = l.entries.get(swapId)?.raw;
      l.entries.delete(swapId);
      l.fresh.delete(swapId);
      if (raw && ![...l.entries.values()].some((e) => e.raw === raw)) {
        l.cursors.delete(raw);
        l.recent.delete(raw);
      }
      if (l.entries.size === 0) clearTimeout(l.timer);
    },
    poke() {
      for (const l of loops.values()) if (l.entries.size > 0 && l.up) void tick(l);
    },
    async tickNow(network) {
      const l = loops.get(network);
      if (!l || l.entries.size === 0) return { waitMs: pollMs };
      if (Date.now() < l.retryAt) return { waitMs: l.retryAt - Date.now(), ...(l.head !== undefined ? { scanned: l.head } : {}) };
      await tick(l);
      return { waitMs: l.nextMs, ...(l.head !== undefined ? { scanned: l.head } : {}) };
    },
    async close() {
      closed = true;
      for (const l of loops.values()) clearTimeout(l.timer);
    },
  };
}

import { silentLogger, type Logger } from '../log.js';
import { judge, receiptOf } from './evidence.js';
import { disableForOtherChain, newLoop, scanRange, type Bucket, type NetworkLoop } from './evm-loop.js';
import type { ChainWatcher, WatchEntry, WatcherEvents } from './watcher.js';

/**
 * The EVM chain watcher (viem). Per network: one loop that reads the head, then for the new block
 * range one eth_getLogs for ERC-20 Transfer logs to every watched address at once (topic 2 is the
 * OR list of addresses), and, only when some swap expects the native coin, each new block with its
 * transactions (a native transfer leaves no log). Its cost grows with networks and blocks, not
 * with swaps. Requests to one RPC are rate-limited (a token bucket: `minGapMs` apart on average,
 * a tick's few requests in a burst, so a block's reads are not spaced out one gap after another);
 * failures back off (doubling to 30 s), and an RPC that keeps failing is reported down once
 * (tracking then polls the API as before). Before it is believed, at start and after every
 * failure, the RPC's eth_chainId must be the network's (`chainId`): another chain's RPC is
 * disabled with one error line. A transfer is reported only when its receipt backs it, and
 * checked again at each new head until final (evidence.ts).
 */

/** At most this many blocks per eth_getLogs (providers cap ranges); a watcher that fell behind catches up in steps. */
const MAX_RANGE = 500;
const MAX_BACKOFF_MS = 30_000;
/** An RPC that never answered (a catalogue's public node offline, a wrong URL) is tried this seldom. */
const UNREACHABLE_RETRY_MS = 10 * 60_000;

export interface EvmWatcherOptions {
  /** Network name → JSON-RPC URL. */
  rpcs: ReadonlyMap<string, string>;
  events: WatcherEvents;
  /** How often to ask for a new head (ms; default 2 s). */
  pollMs?: number;
  /** Requests to one RPC are this far apart on average (ms; default 100: 10 a second). */
  minGapMs?: number;
  /** Requests to one RPC that may go out at once before the average applies (default 4: a tick's head, logs and a block or two). */
  burst?: number;
  /** Blocks before the head to look back when a network starts being watched (default 20). */
  lookback?: number;
  /** Consecutive failures before the RPC counts as down (default 2). */
  downAfter?: number;
  /** Request timeout (ms; default 10 s). */
  timeoutMs?: number;
  /** How often an RPC that has never answered is tried again (ms; default 10 min). */
  unreachableRetryMs?: number;
  logger?: Logger;
  /**
   * The network's chain id (the catalogue's): the RPC must answer eth_chainId with it, at start and
   * after each failure, or it is not watched. Absent: not checked (the sandbox's own chain).
   */
  chainId?: (network: string) => Promise<number | undefined>;
  /** Ticks only through tickNow (a network's watch job, tracking/chain-jobs.ts), never on its own timers. */
  driven?: boolean;
}

export function createEvmWatcher(opts: EvmWatcherOptions): ChainWatcher {
  const log = opts.logger ?? silentLogger;
  const pollMs = opts.pollMs ?? 2000;
  const minGap = opts.minGapMs ?? 100;
  const burst = Math.max(1, opts.burst ?? 4);
  const unreachableMs = opts.unreachableRetryMs ?? UNREACHABLE_RETRY_MS;
  let unreachableTold = false;
  const downAfter = opts.downAfter ?? 2;
  const lookback = opts.lookback ?? 20;
  const loops = new Map<string, NetworkLoop>();
  const buckets = new Map<string, Bucket>();
  const bySwap = new Map<string, string>();
  let closed = false;

  const loopFor = (name: string): NetworkLoop | undefined => {
    let l = loops.get(name);
    if (l) return l;
    const url = opts.rpcs.get(name);
    if (!url) return undefined;
    l = newLoop(name, url, buckets.get(url) ?? { tokens: burst, refilled: Date.now(), answered: false }, opts);
    buckets.set(url, l.bucket);
    loops.set(name, l);
    return l;
  };

  /**
   * One request's share of the RPC's rate limit: waits only when the bucket is empty. (A fixed
   * gap before every request put one gap between a tick's head read and its logs, on every block:
   * a deposit reached the card a gap later, two when a late-watched swap's range was read first.)
   */
  const gap = async ({ bucket: b }: NetworkLoop) => {
    if (minGap <= 0) return;
    for (;;) {
      const now = Date.now();
      b.tokens = Math.min(burst, b.tokens + (now - b.refilled) / minGap);
      b.refilled = now;
      if (b.tokens >= 1) break;
      await new Promise((r) => setTimeout(r, (1 - b.tokens) * minGap));
    }
    b.tokens -= 1;
  };

  const schedule = (l: NetworkLoop, ms: number) => {
    l.nextMs = ms;
    if (closed || l.disabled || l.entries.size === 0 || opts.driven) return;
    clearTimeout(l.timer);
    l.timer = setTimeout(() => void tick(l), ms);
    l.timer.unref();
  };

  const tick = async (l: NetworkLoop) => {
    if (closed) return;
    if (l.running) {
      l.again = true;
      return;
    }
    l.running = true;
    l.again = false;
    try {
      if (!l.verified && !(await verifyChain(l))) return;
      await gap(l);
      const head = Number(await l.client.getBlockNumber());
      l.bucket.answered = true;
      l.retryAt = 0;
      if (l.fresh.size > 0 && l.scanned !== undefined) {
        // A swap watched late (a restart, a first poll after its deposit) on a running loop: the
        // blocks already scanned without it, back to the lookback, are read for it alone.
        const fresh = [...l.fresh.values()];
        await scan(l, Math.max(0, l.scanned - lookback) + 1, l.scanned, fresh);
        for (const e of fresh) if (l.fresh.get(e.swapId) === e) l.fresh.delete(e.swapId);
      }
      const from = (l.scanned ?? Math.max(0, head - lookback)) + 1;
      const to = Math.min(head, from + MAX_RANGE - 1);
      if (from <= to) await scan(l, from, to);
      l.scanned = Math.max(l.scanned ?? 0, to, from - 1);
      await check(l, head);
      if (l.failures > 0 || !l.up) {
        if (!l.up) log.info({ network: l.name }, 'chain RPC answers again: watching deposits on chain');
        l.failures = 0;
        if (!l.up) {
          l.up = true;
          opts.events.health(l.name, true);
        }
      }
      opts.events.head(l.name, Math.min(head, l.scanned));
      schedule(l, to < head || l.again ? 0 : pollMs);
    } catch (err) {
      l.failures++;
      // A reconnect is checked again: the URL may now lead to another node.
      l.verified = !opts.chainId;
      const never = !l.bucket.answered;
      if (l.up && l.failures >= downAfter) {
        l.up = false;
        // Once per outage: the RPC's URL may carry a key, so only the network and the error kind.
        const fields = { network: l.name, error: err instanceof Error ? err.name : 'error' };
        if (!never) log.warn(fields, 'chain RPC failing: falling back to polling the API');
        // Never answered (CHAIN_WATCH=auto with a catalogue whose public nodes are out of reach):
        // one line for the whole watcher, then the API's polling, and a try now and then.
        else if (!unreachableTold)
          log.warn(fields, 'chain RPC unreachable: deposits are followed by polling the API (tried again every few minutes)');
        else log.debug(fields, 'chain RPC unreachable');
        if (never) unreachableTold = true;
        opts.events.health(l.name, false);
      }
      const wait = never && !l.up ? unreachableMs : Math.min(MAX_BACKOFF_MS, pollMs * 2 ** Math.min(l.failures, 10));
      l.retryAt = Date.now() + wait;
      schedule(l, wait);
    } finally {
      l.running = false;
    }
  };

  const scan = (l: NetworkLoop, from: number, to: number, only?: readonly WatchEntry[]) =>
    scanRange(l, from, to, only ?? [...l.entries.values()], gap, opts.events);

  /** Each tracked transfer's receipt, once per head: reported when it backs it, taken back when it stops. */
  const check = async (l: NetworkLoop, head: number) => {
    for (const [key, tr] of l.tracked) {
      if (tr.checkedAt === head) continue;
      await gap(l);
      const v = judge(tr, await receiptOf(l.client, tr.t.txHash), head);
      tr.checkedAt = head;
      if (v.kind === 'report') {
        tr.reported = true;
        tr.t = { ...tr.t, block: v.block };
        opts.events.transfer(tr.entry, tr.t);
      } else if (v.kind === 'retract') {
        l.tracked.delete(key);
        log.warn(
          { network: l.name, swapId: tr.entry.swapId },
          'a transfer seen on chain is gone (reorganisation or a faulty RPC): taken back',
        );
        opts.events.retract?.(tr.entry, tr.t.txHash);
      } else if (v.kind === 'drop') {
        l.tracked.delete(key);
        log.warn({ network: l.name, swapId: tr.entry.swapId }, "a transfer in the RPC's logs has no receipt to back it: not believed");
      } else if (v.kind === 'final') l.tracked.delete(key);
    }
  };

  /** The RPC's eth_chainId against the network's: false (and the loop disabled, one error line) when they differ. */
  const verifyChain = async (l: NetworkLoop): Promise<boolean> => {
    const expected = await opts.chainId?.(l.name);
    await gap(l);
    const got = await l.client.getChainId();
    if (expected !== undefined && got === expected) {
      l.verified = true;
      return true;
    }
    disableForOtherChain(l, expected, got, log);
    opts.events.health(l.name, false);
    return false;
  };

  return {
    family: 'evm',
    covers: (network) => opts.rpcs.has(network),
    // Healthy once it has answered: until then the API keeps its cadence.
    healthy: (network) => {
      const l = loops.get(network);
      return !!l && l.up && l.scanned !== undefined;
    },
    watch(entry) {
      const l = loopFor(entry.network);
      if (!l || closed || l.disabled) return;
      const had = l.entries.size;
      l.entries.set(entry.swapId, entry);
      if (l.scanned !== undefined) l.fresh.set(entry.swapId, entry);
      bySwap.set(entry.swapId, entry.network);
      if (had === 0) schedule(l, Math.max(0, l.retryAt - Date.now()));
    },
    unwatch(swapId) {
      const network = bySwap.get(swapId);
      if (network === undefined) return;
      bySwap.delete(swapId);
      const l = loops.get(network);
      l?.entries.delete(swapId);
      l?.fresh.delete(swapId);
      for (const [key, tr] of l?.tracked ?? []) if (tr.entry.swapId === swapId) l?.tracked.delete(key);
      if (l && l.entries.size === 0) {
        clearTimeout(l.timer);
        // Idle: the next watch starts from the head's lookback, not a catch-up over every block since.
        l.scanned = undefined;
      }
    },
    poke() {
      for (const l of loops.values()) if (l.entries.size > 0 && l.up) void tick(l);
    },
    async tickNow(network, scanned) {
      const l = loops.get(network);
      if (!l || l.entries.size === 0) return { waitMs: pollMs };
      if (l.disabled) return { waitMs: unreachableMs };
      if (Date.now() < l.retryAt) return { waitMs: l.retryAt - Date.now(), ...(l.scanned !== undefined ? { scanned: l.scanned } : {}) };
      if (scanned !== undefined) {
        // Where the network's last run got to, whichever worker ran it: no block is read twice.
        // Entries this loop has not read for yet get their lookback.
        if (l.scanned === undefined) for (const e of l.entries.values()) l.fresh.set(e.swapId, e);
        l.scanned = scanned;
      }
      await tick(l);
      return { waitMs: l.nextMs, ...(l.scanned !== undefined ? { scanned: l.scanned } : {}) };
    },
    async close() {
      closed = true;
      for (const l of loops.values()) clearTimeout(l.timer);
    },
  };
}

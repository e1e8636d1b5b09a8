import { silentLogger, type Logger } from '../log.js';
import type { ChainWatcher, SeenTransfer, WatchEntry, WatcherEvents } from './watcher.js';

/**
 * The per-network watch loop every chain family shares: a tick reads the head, what is new since
 * the last block read (for every watched address at once) and the sightings' evidence, then waits
 * the head interval. Failures back off (doubling to 30 s); an RPC that keeps failing is reported
 * down once per outage (tracking then polls the API), one that never answered is logged in one
 * line for the whole watcher and tried again every 10 minutes. Requests to one RPC share a token
 * bucket. What a family reads, and what it believes, is its `NetworkReader` (evm.ts,
 * solana/watcher.ts, ton/watcher.ts): a new family writes only that.
 */

const MAX_BACKOFF_MS = 30_000;
/** An RPC that never answered (a catalogue's public node offline, a wrong URL) is tried this seldom. */
const UNREACHABLE_RETRY_MS = 10 * 60_000;

/** What a family reads on one network (its own state inside); the loop calls it one step at a time. */
export interface NetworkReader {
  /**
   * Whether the RPC serves this network, asked at start and after every failure; false: the loop
   * is disabled for good (the reader has logged the one error line). Absent: nothing to check.
   */
  verify?(): Promise<boolean>;
  /** The chain's head (a block, a slot, a masterchain seqno). */
  head(): Promise<number>;
  /** Swaps watched after the loop had read up to `scanned`: what was read before them, for them alone. */
  catchUp(scanned: number, fresh: readonly WatchEntry[]): Promise<void>;
  /** What came after `scanned` (undefined: a first read, from the lookback) up to `head`, for every entry. */
  read(head: number, scanned: number | undefined, entries: readonly WatchEntry[]): Promise<{ scanned: number; behind: boolean }>;
  /** The sightings' evidence checked again (after `scanned` was kept); the head to report, if any yet. */
  confirm(head: number, scanned: number): Promise<number | undefined>;
  /** False: not an address of this family (not watched). Absent: every entry is. */
  watch?(entry: WatchEntry): boolean;
  unwatch?(swapId: string): void;
  /** The last swap on the network left. */
  idle?(): void;
}

/** What a reader is given: its network, its RPC, and one request's share of the RPC's rate limit. */
export interface ReaderContext {
  name: string;
  url: string;
  gap(): Promise<void>;
  log: Logger;
  events: WatcherEvents;
}

/** Options every family's watcher takes (each adds its own). */
export interface NetworkLoopOptions {
  /** Network name → RPC URL (may carry a key: never logged). */
  rpcs: ReadonlyMap<string, string>;
  events: WatcherEvents;
  /** How often to ask for a new head (ms; default 2 s). */
  pollMs?: number;
  /** Consecutive failures before the RPC counts as down (default 2). */
  downAfter?: number;
  /** How often an RPC that has never answered is tried again (ms; default 10 min). */
  unreachableRetryMs?: number;
  /** Request timeout (ms; default 10 s): the reader's. */
  timeoutMs?: number;
  logger?: Logger;
  /** Ticks only through tickNow (a network's watch job, tracking/chain-jobs.ts), never on its own timers. */
  driven?: boolean;
}

export interface Family {
  name: string;
  /** Requests to one RPC this far apart on average (ms; 0: no limit), `burst` of them at once. */
  minGapMs: number;
  burst: number;
  /** One bucket (rate limit, and whether it ever answered) per RPC URL, shared by the networks it serves; else per network. */
  bucketPerUrl?: boolean;
  /**
   * The reader keeps its own cursor per address (TON): the loop's `scanned` is only the head last
   * read, neither taken from the network's job nor forgotten when the network goes idle.
   */
  ownCursors?: boolean;
  reader(ctx: ReaderContext): NetworkReader;
}

interface Bucket {
  tokens: number;
  refilled: number;
  answered: boolean;
}

interface Loop {
  name: string;
  reader: NetworkReader;
  entries: Map<string, WatchEntry>;
  /** Entries watched after the loop started: what was read before them is read for them once. */
  fresh: Map<string, WatchEntry>;
  /** The last block fully read. */
  scanned?: number;
  failures: number;
  up: boolean;
  /** Its RPC's token bucket. */
  bucket: Bucket;
  verified: boolean;
  /** Another chain's RPC (or none to check against): never read again. */
  disabled: boolean;
  running: boolean;
  /** A poke came during a tick: tick again at once after it. */
  again: boolean;
  /** Not before this (ms) while failing: a watch added meanwhile does not try at once. */
  retryAt: number;
  /** When to tick next (ms from the last tick): what a driven loop's job waits. */
  nextMs: number;
  timer?: NodeJS.Timeout;
}

/** A watcher for one family: the loop per network around the family's reader. */
export function createNetworkWatcher(family: Family, opts: NetworkLoopOptions): ChainWatcher {
  const log = opts.logger ?? silentLogger;
  const pollMs = opts.pollMs ?? 2000;
  const downAfter = opts.downAfter ?? 2;
  const unreachableMs = opts.unreachableRetryMs ?? UNREACHABLE_RETRY_MS;
  const burst = Math.max(1, family.burst);
  const loops = new Map<string, Loop>();
  const buckets = new Map<string, Bucket>();
  const bySwap = new Map<string, string>();
  let unreachableTold = false;
  let closed = false;

  /**
   * One request's share of the RPC's rate limit: waits only when the bucket is empty (a tick's few
   * requests go in a burst, so a block's reads are not spaced out one gap after another).
   */
  const gap = async (b: Bucket) => {
    const minGap = family.minGapMs;
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

  const loopFor = (name: string): Loop | undefined => {
    let l = loops.get(name);
    if (l) return l;
    const url = opts.rpcs.get(name);
    if (!url) return undefined;
    const key = family.bucketPerUrl ? url : name;
    const bucket = buckets.get(key) ?? { tokens: burst, refilled: Date.now(), answered: false };
    buckets.set(key, bucket);
    const reader = family.reader({ name, url, gap: () => gap(bucket), log, events: opts.events });
    const idle = { failures: 0, up: true, disabled: false, running: false, again: false, retryAt: 0, nextMs: 0 };
    l = { name, reader, bucket, entries: new Map(), fresh: new Map(), verified: !reader.verify, ...idle };
    loops.set(name, l);
    return l;
  };

  const schedule = (l: Loop, ms: number) => {
    l.nextMs = ms;
    if (closed || l.disabled || l.entries.size === 0 || opts.driven) return;
    clearTimeout(l.timer);
    l.timer = setTimeout(() => void tick(l), ms);
    l.timer.unref();
  };

  const tick = async (l: Loop) => {
    if (closed) return;
    if (l.running) {
      l.again = true;
      return;
    }
    l.running = true;
    l.again = false;
    try {
      if (!l.verified && !(await verify(l))) return;
      const head = await l.reader.head();
      l.bucket.answered = true;
      l.retryAt = 0;
      if (l.fresh.size > 0 && l.scanned !== undefined) {
        // Swaps watched late (a restart, a first poll after the deposit) on a running loop: what was
        // already read without them, back to the lookback, is read for them alone.
        const fresh = [...l.fresh.values()];
        await l.reader.catchUp(l.scanned, fresh);
        for (const e of fresh) if (l.fresh.get(e.swapId) === e) l.fresh.delete(e.swapId);
      }
      const read = await l.reader.read(head, l.scanned, [...l.entries.values()]);
      l.scanned = read.scanned;
      const told = await l.reader.confirm(head, read.scanned);
      if (l.failures > 0 || !l.up) {
        if (!l.up) log.info({ network: l.name }, 'chain RPC answers again: watching deposits on chain');
        l.failures = 0;
        if (!l.up) {
          l.up = true;
          opts.events.health(l.name, true);
        }
      }
      if (told !== undefined) opts.events.head(l.name, told);
      schedule(l, read.behind || l.again ? 0 : pollMs);
    } catch (err) {
      failed(l, err);
    } finally {
      l.running = false;
    }
  };

  const failed = (l: Loop, err: unknown) => {
    l.failures++;
    // A reconnect is checked again: the URL may now lead to another node.
    l.verified = !l.reader.verify;
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
  };

  /** The reader's check of the RPC; another chain's (the reader logged it) disables the loop. */
  const verify = async (l: Loop): Promise<boolean> => {
    if (await l.reader.verify?.()) {
      l.verified = true;
      return true;
    }
    l.disabled = true;
    l.up = false;
    clearTimeout(l.timer);
    opts.events.health(l.name, false);
    return false;
  };

  const cursor = (l: Loop) => (l.scanned !== undefined ? { scanned: l.scanned } : {});

  return {
    family: family.name,
    covers: (network) => opts.rpcs.has(network),
    // Healthy once it has answered: until then the API keeps its cadence.
    healthy: (network) => {
      const l = loops.get(network);
      return !!l && l.up && l.scanned !== undefined;
    },
    watch(entry) {
      const l = loopFor(entry.network);
      if (!l || closed || l.disabled || !(l.reader.watch?.(entry) ?? true)) return;
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
      if (!l) return;
      l.entries.delete(swapId);
      l.fresh.delete(swapId);
      l.reader.unwatch?.(swapId);
      if (l.entries.size > 0) return;
      clearTimeout(l.timer);
      // Idle: the next watch starts from the head's lookback, not a catch-up over every block since.
      if (!family.ownCursors) l.scanned = undefined;
      l.reader.idle?.();
    },
    poke() {
      for (const l of loops.values()) if (l.entries.size > 0 && l.up) void tick(l);
    },
    async tickNow(network, scanned) {
      const l = loops.get(network);
      if (!l || l.entries.size === 0) return { waitMs: pollMs };
      if (l.disabled) return { waitMs: unreachableMs };
      if (scanned !== undefined && !family.ownCursors) {
        // Where the network's last run got to, whichever worker ran it: no block is read twice.
        // Entries this loop has not read for yet get their lookback. Taken before the back-off
        // below, which hands the cursor back: this loop's own would move the network's back.
        if (l.scanned === undefined) for (const e of l.entries.values()) l.fresh.set(e.swapId, e);
        l.scanned = scanned;
      }
      if (Date.now() < l.retryAt) return { waitMs: l.retryAt - Date.now(), ...cursor(l) };
      await tick(l);
      return { waitMs: l.nextMs, ...cursor(l) };
    },
    async close() {
      closed = true;
      for (const l of loops.values()) clearTimeout(l.timer);
    },
  };
}

/** A transfer found and followed until its evidence is final (EVM: its receipt; Solana: its status). */
export interface Followed {
  entry: WatchEntry;
  t: SeenTransfer;
  reported: boolean;
}

/**
 * A verdict acted on: reported (again, after a move), taken back with one warning, dropped
 * unreported with one warning, or forgotten once final. `words` name the family's evidence in
 * those warnings.
 */
export function settle(
  ctx: Pick<ReaderContext, 'name' | 'log' | 'events'>,
  tracked: Map<string, Followed>,
  key: string,
  tr: Followed,
  v: { kind: string },
  words: { gone: string; unbacked: string },
): void {
  const fields = { network: ctx.name, swapId: tr.entry.swapId };
  if (v.kind === 'report') {
    tr.reported = true;
    ctx.events.transfer(tr.entry, tr.t);
  } else if (v.kind === 'retract') {
    tracked.delete(key);
    ctx.log.warn(fields, words.gone);
    ctx.events.retract?.(tr.entry, tr.t.txHash);
  } else if (v.kind === 'drop') {
    tracked.delete(key);
    ctx.log.warn(fields, words.unbacked);
  } else if (v.kind === 'final') tracked.delete(key);
}

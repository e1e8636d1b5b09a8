import { silentLogger, type Logger } from '../../log.js';
import type { ChainWatcher, WatcherEvents } from '../watcher.js';
import { disable, matchCredits, newSolanaLoop, type SolanaLoop } from './loop.js';
import { creditsOf, judgeStatus } from './scan.js';

/**
 * The Solana chain watcher (@solana/kit). Per network, per tick: one getSlot (commitment
 * confirmed); for the new slots one getBlocks and one getBlock each, with transactionDetails
 * 'accounts' (account keys and balances before and after, no instructions), read once for every
 * watched address together: SOL to the deposit address, and any SPL mint to a token account it
 * owns (its associated token account). Then one getSignatureStatuses for all the transfers found
 * and not yet finalized (up to 256 a call). So the cost grows with slots, not with swaps, and
 * nothing is read while no swap is watched on the network. A transfer is reported when its status
 * backs it (succeeded, in that slot), re-checked each tick until finalized, and taken back when its
 * status is gone or moved. Confirmations are block heights (getBlock's blockHeight), counted from
 * the newest block read. Before it is believed, at start and after every failure, the RPC's
 * genesis hash must be the network's. Failures back off and report the RPC down once, as the EVM
 * watcher does (evm.ts): tracking then polls the API.
 */

/** Slots read in one tick at most (a watcher that fell behind catches up in steps). */
const MAX_SLOTS = 100;
const MAX_BACKOFF_MS = 30_000;
const UNREACHABLE_RETRY_MS = 10 * 60_000;

/** Genesis hashes of the public clusters, by the service's network name (the catalogue's chain_id for Solana is ''). */
const SOLANA_GENESIS: Readonly<Record<string, string>> = {
  SOLANA_MAINNET: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d',
  SOLANA_DEVNET: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG',
  SOLANA_TESTNET: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY',
};

/** The genesis hash a Solana network's RPC must answer: the catalogue's chain_id when it is one (the sandbox's chain), else the public cluster's. */
export function solanaGenesis(name: string, chainId: string | null | undefined): string | undefined {
  if (chainId && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(chainId)) return chainId;
  return SOLANA_GENESIS[name];
}

export interface SolanaWatcherOptions {
  /** Network name → JSON-RPC URL (may carry a key: never logged). */
  rpcs: ReadonlyMap<string, string>;
  events: WatcherEvents;
  /** How often to ask for a new slot (ms; default 2 s). */
  pollMs?: number;
  /** Slots before the newest read when a network starts being watched, and kept for swaps watched late (default 20: ~8 s). */
  lookback?: number;
  downAfter?: number;
  timeoutMs?: number;
  unreachableRetryMs?: number;
  logger?: Logger;
  /** The network's genesis hash: the RPC's must match, or it is not watched. Absent: not checked (a local chain). */
  genesisHash?: (network: string) => Promise<string | undefined>;
  /** Ticks only through tickNow (a network's watch job), never on its own timers. */
  driven?: boolean;
}

export function createSolanaWatcher(opts: SolanaWatcherOptions): ChainWatcher {
  const log = opts.logger ?? silentLogger;
  const pollMs = opts.pollMs ?? 2000;
  const lookback = opts.lookback ?? 20;
  const downAfter = opts.downAfter ?? 2;
  const unreachableMs = opts.unreachableRetryMs ?? UNREACHABLE_RETRY_MS;
  const loops = new Map<string, SolanaLoop>();
  const bySwap = new Map<string, string>();
  let unreachableTold = false;
  let closed = false;
  const accept = opts.events.accept ?? (() => true);

  const loopFor = (name: string) => {
    let l = loops.get(name);
    const url = opts.rpcs.get(name);
    if (l || !url) return l;
    l = newSolanaLoop(name, url, { ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}), checked: !!opts.genesisHash });
    loops.set(name, l);
    return l;
  };

  const schedule = (l: SolanaLoop, ms: number) => {
    l.nextMs = ms;
    if (closed || l.disabled || l.entries.size === 0 || opts.driven) return;
    clearTimeout(l.timer);
    l.timer = setTimeout(() => void tick(l), ms);
    l.timer.unref();
  };

  /** Reads slots from..to (the confirmed blocks among them) and keeps their credits for the lookback. */
  const read = async (l: SolanaLoop, from: number, to: number) => {
    if (from > to) return [];
    const slots = await l.rpc.blocks(from, to);
    const out = [];
    for (const slot of slots) {
      const block = await l.rpc.block(slot);
      if (!block) continue;
      const credits = creditsOf(slot, block);
      l.recent.set(slot, credits);
      if (block.blockHeight !== null) l.height = Math.max(l.height ?? 0, Number(block.blockHeight));
      out.push({ credits, at: block.blockTime ? Number(block.blockTime) * 1000 : Date.now() });
    }
    for (const s of l.recent.keys()) if (s <= to - lookback) l.recent.delete(s);
    return out;
  };

  const tick = async (l: SolanaLoop) => {
    if (closed) return;
    if (l.running) {
      l.again = true;
      return;
    }
    l.running = true;
    l.again = false;
    try {
      if (!l.verified && !(await verify(l))) return;
      const slot = await l.rpc.slot();
      l.answered = true;
      l.retryAt = 0;
      if (l.fresh.size > 0 && l.scanned !== undefined) {
        // Swaps watched late on a running loop: the slots already read (the lookback) are matched for them alone.
        const fresh = [...l.fresh.values()];
        const missing = [];
        for (let s = Math.max(0, l.scanned - lookback) + 1; s <= l.scanned; s++) if (!l.recent.has(s)) missing.push(s);
        if (missing.length > 0) await read(l, missing[0] as number, missing[missing.length - 1] as number);
        for (const [s, credits] of l.recent) if (s <= l.scanned) matchCredits(l, credits, fresh, Date.now(), accept);
        for (const e of fresh) if (l.fresh.get(e.swapId) === e) l.fresh.delete(e.swapId);
      }
      const from = (l.scanned ?? Math.max(0, slot - lookback)) + 1;
      const to = Math.min(slot, from + MAX_SLOTS - 1);
      const entries = [...l.entries.values()];
      for (const b of await read(l, from, to)) matchCredits(l, b.credits, entries, b.at, accept);
      l.scanned = Math.max(l.scanned ?? 0, to, from - 1);
      await check(l);
      if (l.failures > 0 || !l.up) {
        if (!l.up) log.info({ network: l.name }, 'chain RPC answers again: watching deposits on chain');
        l.failures = 0;
        if (!l.up) {
          l.up = true;
          opts.events.health(l.name, true);
        }
      }
      if (l.height !== undefined) opts.events.head(l.name, l.height);
      schedule(l, to < slot || l.again ? 0 : pollMs);
    } catch (err) {
      failed(l, err);
    } finally {
      l.running = false;
    }
  };

  const failed = (l: SolanaLoop, err: unknown) => {
    l.failures++;
    l.verified = !opts.genesisHash;
    const never = !l.answered;
    if (l.up && l.failures >= downAfter) {
      l.up = false;
      // Once per outage, and never the URL (it may carry a key): the network and the error's kind.
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

  /** Every tracked transfer's status in one call (per 256): reported when it backs it, taken back when it stops. */
  const check = async (l: SolanaLoop) => {
    if (l.tracked.size === 0) return;
    const list = [...l.tracked];
    const sigs = [...new Set(list.map(([, tr]) => tr.t.txHash))];
    const statuses = await l.rpc.statuses(sigs);
    const bySig = new Map(sigs.map((sig, i) => [sig, statuses[i] ?? null]));
    for (const [key, tr] of list) {
      const v = judgeStatus(tr, bySig.get(tr.t.txHash) ?? null);
      if (v.kind === 'moved') {
        // Another fork holds it: its new block height, and reported again there.
        const height = await l.rpc.height(v.slot);
        if (height === undefined) continue;
        tr.slot = v.slot;
        tr.t = { ...tr.t, block: height };
        tr.reported = true;
        opts.events.transfer(tr.entry, tr.t);
      } else if (v.kind === 'report') {
        tr.reported = true;
        opts.events.transfer(tr.entry, tr.t);
      } else if (v.kind === 'retract') {
        l.tracked.delete(key);
        log.warn(
          { network: l.name, swapId: tr.entry.swapId },
          'a transfer seen on chain is gone (a dropped fork or a faulty RPC): taken back',
        );
        opts.events.retract?.(tr.entry, tr.t.txHash);
      } else if (v.kind === 'drop') {
        l.tracked.delete(key);
        log.warn({ network: l.name, swapId: tr.entry.swapId }, "a transfer in the RPC's block has no status to back it: not believed");
      } else if (v.kind === 'final') l.tracked.delete(key);
    }
  };

  const verify = async (l: SolanaLoop): Promise<boolean> => {
    const expected = await opts.genesisHash?.(l.name);
    const got = await l.rpc.genesisHash();
    if (expected !== undefined && got === expected) {
      l.verified = true;
      return true;
    }
    disable(l, expected, got, log);
    opts.events.health(l.name, false);
    return false;
  };

  return {
    family: 'solana',
    covers: (network) => opts.rpcs.has(network),
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
      if (!l) return;
      l.entries.delete(swapId);
      l.fresh.delete(swapId);
      for (const [key, tr] of l.tracked) if (tr.entry.swapId === swapId) l.tracked.delete(key);
      if (l.entries.size === 0) {
        clearTimeout(l.timer);
        // Idle: the next watch starts from the newest slot's lookback, not a catch-up over every slot since.
        l.scanned = undefined;
        l.recent.clear();
      }
    },
    poke() {
      for (const l of loops.values()) if (l.entries.size > 0 && l.up) void tick(l);
    },
    async tickNow(network, scanned) {
      const l = loops.get(network);
      if (!l || l.entries.size === 0) return { waitMs: pollMs };
      if (l.disabled) return { waitMs: unreachableMs };
      const at = l.scanned !== undefined ? { scanned: l.scanned } : {};
      if (Date.now() < l.retryAt) return { waitMs: l.retryAt - Date.now(), ...at };
      if (scanned !== undefined && scanned !== l.scanned) {
        // Where the network's last run got to, whichever worker ran it: no slot is read twice.
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

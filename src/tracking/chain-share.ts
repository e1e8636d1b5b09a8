import type { Redis } from 'ioredis';
import type { TrackingKeys } from '../contracts/keys.js';
import { BEFORE_DEPOSIT } from '../layerswap/phase.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import type { WatchEntry } from '../chain/watcher.js';
import * as ev from './chain-evidence.js';
import { ChainWatch, LATE_GRACE_MS, type ChainWatchDeps } from './chain-watch.js';
import type { SwapState } from './observe.js';

/**
 * The chain watch shared by every worker: one watcher per network, whatever the number of
 * workers. The poll job (in any worker) writes what it learns into Redis: the swap's deposit
 * address (field w of its hash) and the swap in its network's set (`TrackingKeys.chainNetwork`),
 * and makes sure the network's watch job exists (chain-jobs.ts). That one job (job id = the
 * network) runs in one worker at a time: each run reads the network's set, watches what is new
 * there and forgets what left, reads the chain once, and reschedules itself at the head interval.
 * A worker that dies leaves the job to the next one. Whether the network's RPC answers is in Redis
 * too (`chainDown`), so every worker's poll jobs space out their API polls alike.
 */

export interface ChainShare {
  /** Lists the swap on its network and makes sure the network's watch job exists. */
  add(network: string, swapId: string): Promise<void>;
  /** Makes sure the network's watch job exists, without pulling it forward (a job lost to a fault comes back). */
  keep(network: string): Promise<void>;
  remove(network: string, swapId: string): Promise<void>;
  members(network: string): Promise<string[]>;
  setDown(network: string, down: boolean): Promise<void>;
  isDown(network: string): Promise<boolean>;
}

/** How often a worker's poll jobs check that a network's watch job exists (real time: a safety net, not a cadence). */
const KEEP_MS = 5_000;

/** A network's RPC said down is believed this long without being said again (a holder that died while it was down). */
const DOWN_TTL_MS = 10 * 60_000;

export function redisChainShare(
  redis: Redis,
  keys: TrackingKeys,
  ensureJob: (network: string) => Promise<void>,
  keepJob: (network: string) => Promise<void>,
): ChainShare {
  return {
    async add(network, swapId) {
      await redis.sadd(keys.chainNetwork(network), swapId);
      await ensureJob(network);
    },
    keep: keepJob,
    remove: async (network, swapId) => void (await redis.srem(keys.chainNetwork(network), swapId)),
    members: (network) => redis.smembers(keys.chainNetwork(network)),
    setDown: async (network, down) =>
      void (down ? await redis.set(keys.chainDown(network), '1', 'PX', DOWN_TTL_MS) : await redis.del(keys.chainDown(network))),
    isDown: async (network) => (await redis.exists(keys.chainDown(network))) === 1,
  };
}

export class SharedChainWatch extends ChainWatch {
  /** Swaps this worker's poll jobs listed, by network (spares a Redis write per poll). */
  private readonly listed = new Map<string, string>();
  /** When this worker last made sure a network's job exists (at most every KEEP_MS). */
  private readonly kept = new Map<string, number>();
  private readonly before: Array<() => Promise<void>> = [];

  /** Runs first at close (this worker's part in the watch jobs). */
  closing(fn: () => Promise<void>): void {
    this.before.push(fn);
  }

  override async close(): Promise<void> {
    for (const fn of this.before) await fn();
    await super.close();
  }

  constructor(
    deps: ChainWatchDeps,
    private readonly share: ChainShare,
  ) {
    super(deps);
  }

  /** The poll jobs of listed swaps bring a network's watch job back if a fault removed it. */
  private async keep(network: string): Promise<void> {
    const at = Date.now();
    if (at - (this.kept.get(network) ?? 0) < KEEP_MS) return;
    this.kept.set(network, at);
    await this.share.keep(network);
  }

  /** Spaced-out API polls while the swap is listed and its network's RPC answers (per Redis, for every worker). */
  override async replacesPolls(swapId: string, st: SwapState): Promise<boolean> {
    const network = this.listed.get(swapId);
    return network !== undefined && BEFORE_DEPOSIT.has(st.status) && !(await this.share.isDown(network));
  }

  /** The poll job's side: lists a waiting swap on its network; an expired one stays listed for its late grace; others leave. */
  override async afterPoll(swapId: string, status: string, details: SwapDetails | undefined): Promise<void> {
    if (!this.active) return;
    if (BEFORE_DEPOSIT.has(status)) {
      const known = this.listed.get(swapId);
      if (known) return this.keep(known);
      const entry = await this.record(swapId, details);
      if (!entry || !this.watcherFor(entry.network)) return;
      await this.share.add(entry.network, swapId);
      this.listed.set(swapId, entry.network);
      return;
    }
    const network = this.listed.get(swapId) ?? (await this.stored(swapId))?.network;
    this.listed.delete(swapId);
    if (!network) return;
    // The network's watcher reads the late list: an expired swap is still told of a late transfer, once.
    if (status === 'expired') await this.deps.late?.add(swapId, this.deps.now());
    else await this.share.remove(network, swapId);
  }

  /** The swap's deposit address and what the cards need of it, kept in its hash for whichever worker watches. */
  private async record(swapId: string, details: SwapDetails | undefined): Promise<WatchEntry | undefined> {
    const entry = details ? ev.entryOf(details) : await this.stored(swapId);
    if (!entry) return undefined;
    if (details) {
      const amount = details.swap.requested_amount ?? details.quote?.requested_amount;
      const display = details.swap.source_network?.display_name || entry.network;
      const kept = { ...entry, display, ...(typeof amount === 'number' ? { amount: ev.decimalText(amount) } : {}) };
      await this.deps.store.setChainField(swapId, 'w', JSON.stringify(kept));
    }
    await this.deps.prepare?.(entry.network).catch(() => undefined);
    return entry;
  }

  private async stored(swapId: string): Promise<WatchEntry | undefined> {
    const raw = (await this.deps.store.chainFields(swapId)).w;
    return raw ? (JSON.parse(raw) as WatchEntry) : undefined;
  }

  /** A worker's start: the lists are in Redis already; waiting swaps are listed again (a swap first polled before an upgrade). */
  override async restore(swapIds: readonly string[]): Promise<number> {
    if (!this.active) return 0;
    const states = await this.deps.store.loadMany(swapIds);
    await Promise.all(swapIds.map((id, i) => (states[i] ? this.afterPoll(id, states[i].status, undefined) : undefined)));
    return 0;
  }

  /**
   * The network's watch job, before it reads the chain: watches the swaps listed and not yet
   * watched here (an expired one for the rest of its grace), forgets those no longer listed.
   * Returns how many are listed (none: the job ends).
   */
  async sync(network: string): Promise<number> {
    const ids = new Set(await this.share.members(network));
    const late = new Map(await (this.deps.late?.since(this.deps.now() - LATE_GRACE_MS) ?? Promise.resolve([])));
    for (const id of ids) {
      if (this.watched.has(id)) continue;
      const at = late.get(id);
      if (at === undefined && (await this.deps.store.load(id))?.status === 'expired') {
        // Its grace is over (or it was never told): the watch is done.
        await this.share.remove(network, id);
        ids.delete(id);
        continue;
      }
      await this.start(id, undefined);
      const w = this.watched.get(id);
      if (w && at !== undefined) this.expire(id, w, at);
    }
    for (const [id, w] of this.watched) {
      if (w.entry.network !== network) continue;
      if (!ids.has(id)) this.drop(id);
      else if (!w.expired && late.has(id)) this.expire(id, w, late.get(id) ?? this.deps.now());
    }
    return ids.size;
  }

  /** The network's watch job: one read of the chain from `scanned`; the wait before the next (ms) and the last block read. */
  async tick(network: string, scanned: number | undefined): Promise<{ waitMs: number; scanned?: number } | undefined> {
    return this.watcherFor(network)?.tickNow?.(network, scanned);
  }

  protected override drop(swapId: string, ended = false): void {
    const network = this.watched.get(swapId)?.entry.network;
    super.drop(swapId, ended);
    if (ended && network) void this.share.remove(network, swapId).catch(() => undefined);
  }

  override onHealth(network: string, up: boolean): void {
    void this.share.setDown(network, !up).catch(() => undefined);
    super.onHealth(network, up);
  }
}

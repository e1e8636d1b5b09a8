import { createEvmWatcher } from '../chain/evm.js';
import { createTonWatcher } from '../chain/ton/watcher.js';
import { ChainWatch, type ChainWatchDeps } from './chain-watch.js';
import { redisChainShare, SharedChainWatch, type ChainShare } from './chain-share.js';
import { CHAIN_QUEUE, ChainJobs } from './chain-jobs.js';
import type { Redis } from 'ioredis';
import type { Queue, Worker } from 'bullmq';
import type { TrackingKeys } from '../contracts/keys.js';

/** Chain watchers (CHAIN_WATCH): RPC URL per network name (CHAIN_RPC_URLS, EVM or TON), and what the catalogue says of a network. */
export interface ChainSettings {
  evmRpcs: ReadonlyMap<string, string>;
  /** An RPC for a network not in evmRpcs (CHAIN_WATCH=auto: the catalogue's node_url). */
  fallbackRpc?: (network: string) => Promise<string | undefined>;
  network: ChainWatchDeps['network'];
  /** How often each network's head is read (ms; default 2 s). */
  pollMs?: number;
}

/**
 * The chain watch over one EVM watcher (one per family; EVM is the only one today), when an RPC is
 * configured or can be found: undefined leaves every swap to API polling.
 */
function startChainWatch(
  settings: ChainSettings | undefined,
  deps: Omit<ChainWatchDeps, 'watchers' | 'prepare' | 'network'>,
  /** One watcher per network across workers (chain-share.ts, chain-jobs.ts): its watch job drives the watcher. */
  share?: ChainShare,
): ChainWatch | undefined {
  if (!settings || (settings.evmRpcs.size === 0 && !settings.fallbackRpc)) return undefined;
  const rpcs = new Map(settings.evmRpcs);
  const fallback = settings.fallbackRpc;
  let cw: ChainWatch | undefined = undefined;
  const evm = createEvmWatcher({
    rpcs,
    ...(settings.pollMs ? { pollMs: settings.pollMs } : {}),
    logger: deps.logger,
    driven: share !== undefined,
    // The catalogue's chain id: an RPC of another chain is never believed.
    chainId: async (n) => (await settings.network(n).catch(() => undefined))?.chainId,
    events: {
      accept: (e, t) => cw?.accepts(e, t) ?? false,
      transfer: (e, t) => cw?.onTransfer(e, t),
      retract: (e, tx) => cw?.onRetract(e, tx),
      head: (n, h) => cw?.onHead(n, h),
      health: (n, up) => cw?.onHealth(n, up),
    },
  });
  // A network first met with no RPC configured gets the catalogue's, once.
  const prepare = fallback
    ? async (n: string) => {
        if (rpcs.has(n)) return;
        const u = await fallback(n);
        if (u) rpcs.set(n, u);
      }
    : undefined;
  // TON networks (the catalogue's type says which): their own watcher, the configured or catalogue URL moved to it.
  const tonRpcs = new Map<string, string>();
  const ton = createTonWatcher({
    rpcs: tonRpcs,
    ...(settings.pollMs ? { pollMs: settings.pollMs } : {}),
    logger: deps.logger,
    driven: share !== undefined,
    events: {
      accept: (e, t) => cw?.accepts(e, t) ?? false,
      transfer: (e, t) => cw?.onTransfer(e, t),
      head: (n, h) => cw?.onHead(n, h),
      health: (n, up) => cw?.onHealth(n, up),
    },
  });
  const families = new Map<string, string>();
  const prepareAny = async (n: string) => {
    if (!families.has(n)) {
      const family = (await settings.network(n).catch(() => undefined))?.family;
      if (family) families.set(n, family);
    }
    if (families.get(n) !== 'ton') return prepare?.(n);
    rpcs.delete(n);
    if (tonRpcs.has(n)) return;
    const u = settings.evmRpcs.get(n) ?? (await fallback?.(n));
    if (u) tonRpcs.set(n, u);
  };
  const all = { ...deps, watchers: [ton, evm], network: settings.network, prepare: prepareAny };
  cw = share ? new SharedChainWatch(all, share) : new ChainWatch(all);
  return cw;
}

/**
 * A worker's share of the chain watch: the watch over Redis lists of watched addresses
 * (chain-share.ts) and this worker's part in running the networks' watch jobs (chain-jobs.ts).
 */
export function startSharedChainWatch(
  settings: ChainSettings | undefined,
  opts: {
    base: Omit<ChainWatchDeps, 'watchers' | 'prepare' | 'network'>;
    redis: Redis;
    keys: TrackingKeys;
    connection: () => Redis;
    onError: (err: unknown, network: string) => void;
    /** Logs a queue's or worker's Redis errors. */
    watchErrors: (e: Queue | Worker) => void;
  },
): ChainWatch | undefined {
  if (!settings || (settings.evmRpcs.size === 0 && !settings.fallbackRpc)) return undefined;
  const pollMs = settings.pollMs ?? 2000;
  // A run cut short by a dead worker is taken over once its lock expires: a few head intervals.
  const jobs = new ChainJobs(opts.redis, opts.keys.queuePrefix(CHAIN_QUEUE), { pollMs, lockMs: Math.max(5_000, 4 * pollMs) });
  const watch = startChainWatch(
    settings,
    opts.base,
    redisChainShare(
      opts.redis,
      opts.keys,
      (n) => jobs.ensure(n),
      (n) => jobs.keep(n),
    ),
  );
  if (!(watch instanceof SharedChainWatch)) return undefined;
  watch.closing(() => jobs.close());
  opts.watchErrors(jobs.queue);
  opts.watchErrors(jobs.start(opts.connection(), watch, opts.onError));
  return watch;
}

import { createEvmWatcher } from '../chain/evm.js';
import { createSolanaWatcher } from '../chain/solana/watcher.js';
import type { WatcherEvents } from '../chain/watcher.js';
import { createTonWatcher } from '../chain/ton/watcher.js';
import { ChainWatch, type ChainWatchDeps } from './chain-watch.js';
import { redisChainShare, SharedChainWatch, type ChainShare } from './chain-share.js';
import { CHAIN_QUEUE, ChainJobs } from './chain-jobs.js';
import type { Redis } from 'ioredis';
import type { Queue, Worker } from 'bullmq';
import type { TrackingKeys } from '../contracts/keys.js';

/** Chain watchers (CHAIN_WATCH): RPC URL per network name (CHAIN_RPC_URLS: EVM, Solana, TON), and what the catalogue says of a network. */
export interface ChainSettings {
  evmRpcs: ReadonlyMap<string, string>;
  /** An RPC for a network not in evmRpcs (CHAIN_WATCH=auto: the catalogue's node_url). */
  fallbackRpc?: (network: string) => Promise<string | undefined>;
  network: ChainWatchDeps['network'];
  /** How often each network's head is read (ms; default 2 s). */
  pollMs?: number;
  /** EVM requests to one RPC this far apart on average (ms; default 100: evm.ts). */
  evmGapMs?: number;
}

/**
 * The chain watch over one watcher per family (EVM, Solana), when an RPC is configured or can be
 * found: undefined leaves every swap to API polling.
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
  const events: WatcherEvents = {
    accept: (e, t) => cw?.accepts(e, t) ?? false,
    transfer: (e, t) => cw?.onTransfer(e, t),
    retract: (e, tx) => cw?.onRetract(e, tx),
    head: (n, h) => cw?.onHead(n, h),
    health: (n, up) => cw?.onHealth(n, up),
  };
  const evm = createEvmWatcher({
    rpcs,
    ...(settings.pollMs ? { pollMs: settings.pollMs } : {}),
    ...(settings.evmGapMs !== undefined ? { minGapMs: settings.evmGapMs } : {}),
    logger: deps.logger,
    driven: share !== undefined,
    // The catalogue's chain id: an RPC of another chain is never believed.
    chainId: async (n) => (await settings.network(n).catch(() => undefined))?.chainId,
    events,
  });
  // Solana and TON networks (the catalogue's type): their CHAIN_RPC_URLS entry or node_url goes to their family's watcher.
  const solanaRpcs = new Map<string, string>();
  const solana = createSolanaWatcher({
    rpcs: solanaRpcs,
    ...(settings.pollMs ? { pollMs: settings.pollMs } : {}),
    logger: deps.logger,
    driven: share !== undefined,
    genesisHash: async (n) => (await settings.network(n).catch(() => undefined))?.genesisHash,
    events,
  });
  const tonRpcs = new Map<string, string>();
  const ton = createTonWatcher({
    rpcs: tonRpcs,
    ...(settings.pollMs ? { pollMs: settings.pollMs } : {}),
    logger: deps.logger,
    driven: share !== undefined,
    events,
  });
  const own = new Map([
    ['solana', solanaRpcs],
    ['ton', tonRpcs],
  ]);
  // A network first met with no RPC configured gets the catalogue's, once; each goes to its family's watcher.
  const prepare = async (n: string) => {
    if (solanaRpcs.has(n) || tonRpcs.has(n)) return;
    const family = (await settings.network(n).catch(() => undefined))?.family;
    const map = family ? own.get(family) : undefined;
    if (map) {
      const u = rpcs.get(n) ?? (await fallback?.(n));
      rpcs.delete(n);
      if (u) map.set(n, u);
      return;
    }
    if (rpcs.has(n) || !fallback) return;
    const u = await fallback(n);
    if (u) rpcs.set(n, u);
  };
  const all = { ...deps, watchers: [ton, evm, solana], network: settings.network, prepare };
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

import { createEvmWatcher } from '../chain/evm.js';
import { ChainWatch, type ChainWatchDeps } from './chain-watch.js';

/** Chain watchers (CHAIN_WATCH): EVM RPC URL per network name, and what the catalogue says of a network. */
export interface ChainSettings {
  evmRpcs: ReadonlyMap<string, string>;
  /** An RPC for an EVM network not in evmRpcs (CHAIN_WATCH=auto: the catalogue's node_url). */
  fallbackRpc?: (network: string) => Promise<string | undefined>;
  network: ChainWatchDeps['network'];
  /** How often each network's head is read (ms; default 2 s). */
  pollMs?: number;
}

/**
 * The chain watch over one EVM watcher (one per family; EVM is the only one today), when an RPC is
 * configured or can be found: undefined leaves every swap to API polling.
 */
export function startChainWatch(
  settings: ChainSettings | undefined,
  deps: Omit<ChainWatchDeps, 'watchers' | 'prepare' | 'network'>,
): ChainWatch | undefined {
  if (!settings || (settings.evmRpcs.size === 0 && !settings.fallbackRpc)) return undefined;
  const rpcs = new Map(settings.evmRpcs);
  const fallback = settings.fallbackRpc;
  let cw: ChainWatch | undefined = undefined;
  const evm = createEvmWatcher({
    rpcs,
    ...(settings.pollMs ? { pollMs: settings.pollMs } : {}),
    logger: deps.logger,
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
  cw = new ChainWatch({ ...deps, watchers: [evm], network: settings.network, ...(prepare ? { prepare } : {}) });
  return cw;
}

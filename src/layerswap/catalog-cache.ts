import { silentLogger, type Logger } from '../log.js';
import type { LayerswapApi } from './api.js';
import type { Destination, Network } from './schemas.js';

/**
 * The network list and route lists change rarely and are read on almost every command, so they
 * are cached: fresh for ttlMs, then served stale while one background request refreshes them.
 * A failed refresh keeps the stale copy (the bot keeps working through a service blip); only a
 * first load that fails reaches the caller.
 */

export interface CatalogCacheOptions {
  /** How long a copy counts as fresh. Default 5 minutes. */
  ttlMs?: number;
  now?: () => number;
  logger?: Logger;
  /** After a failed refresh, how long to serve stale before trying again. Default min(ttlMs, 30 s). */
  retryAfterFailureMs?: number;
  /** Route lists kept at most (keys come from user input). Default 500. */
  maxDestinationEntries?: number;
}

/** One cached value with single-flight loading. */
class Entry<T> {
  value: T | undefined;
  fetchedAt = 0;
  failedAt: number | undefined;
  inflight: Promise<T> | undefined;
}

export class CatalogCache {
  private readonly ttlMs: number;
  private readonly retryAfterFailureMs: number;
  private readonly maxDestinationEntries: number;
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly networkEntry = new Entry<Network[]>();
  private readonly destinationEntries = new Map<string, Entry<Destination[]>>();

  constructor(
    private readonly api: LayerswapApi,
    opts: CatalogCacheOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 5 * 60_000;
    this.retryAfterFailureMs = opts.retryAfterFailureMs ?? Math.min(this.ttlMs, 30_000);
    this.maxDestinationEntries = opts.maxDestinationEntries ?? 500;
    this.now = opts.now ?? Date.now;
    this.log = (opts.logger ?? silentLogger).child({ component: 'catalog-cache' });
  }

  networks(): Promise<Network[]> {
    return this.read(this.networkEntry, 'networks', () => this.api.getNetworks());
  }

  destinations(params: { source_network: string; source_token?: string }): Promise<Destination[]> {
    const key = `${params.source_network}\u0000${params.source_token ?? ''}`;
    let entry = this.destinationEntries.get(key);
    if (entry) {
      // Re-insert: Map order doubles as least-recently-used order for eviction.
      this.destinationEntries.delete(key);
    } else {
      entry = new Entry<Destination[]>();
      if (this.destinationEntries.size >= this.maxDestinationEntries) {
        const oldest = this.destinationEntries.keys().next().value;
        if (oldest !== undefined) this.destinationEntries.delete(oldest);
      }
    }
    this.destinationEntries.set(key, entry);
    // include_swaps: routes that swap between assets (SOL -> ETH) are routes users can take too.
    const query = { source_network: params.source_network, include_swaps: true, ...(params.source_token === undefined ? {} : { source_token: params.source_token }) };
    return this.read(entry, `destinations of ${params.source_network}`, () => this.api.getDestinations(query));
  }

  /** The cached network list, fresh or stale, without waiting; undefined before the first load. */
  peekNetworks(): Network[] | undefined {
    return this.networkEntry.value;
  }

  /** The network with exactly this name (e.g. "ARBITRUM_MAINNET"). Alias matching is the bot's job. */
  async networkByName(name: string): Promise<Network | undefined> {
    return (await this.networks()).find((n) => n.name === name);
  }

  /** Forget everything (e.g. after the API key changed). */
  clear(): void {
    this.networkEntry.value = undefined;
    this.networkEntry.fetchedAt = 0;
    this.networkEntry.failedAt = undefined;
    this.destinationEntries.clear();
  }

  private read<T>(entry: Entry<T>, what: string, load: () => Promise<T>): Promise<T> {
    if (entry.value === undefined) return this.refresh(entry, what, load);
    const now = this.now();
    const stale = now - entry.fetchedAt >= this.ttlMs;
    const backingOff = entry.failedAt !== undefined && now - entry.failedAt < this.retryAfterFailureMs;
    if (stale && !backingOff && !entry.inflight) {
      // Served stale now; the refresh's failure is logged, never thrown at this caller.
      this.refresh(entry, what, load).catch(() => undefined);
    }
    return Promise.resolve(entry.value);
  }

  /** Single flight: however many callers ask, one request is in progress per entry. */
  private refresh<T>(entry: Entry<T>, what: string, load: () => Promise<T>): Promise<T> {
    if (entry.inflight) return entry.inflight;
    const p = (async () => {
      try {
        const value = await load();
        entry.value = value;
        entry.fetchedAt = this.now();
        entry.failedAt = undefined;
        return value;
      } catch (err) {
        entry.failedAt = this.now();
        if (entry.value !== undefined) {
          this.log.warn({ err: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }, `could not refresh ${what}; serving the cached copy`);
        }
        throw err;
      } finally {
        entry.inflight = undefined;
      }
    })();
    entry.inflight = p;
    return p;
  }
}

import { asError, silentLogger, type Logger } from '../log.js';
import type { LayerswapApi } from './api.js';
import type { Destination, Exchange, ExchangeNetwork, Network } from './schemas.js';

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
  /** How long amount limits count as fresh. Default 20 s (the official app refreshes them that often). */
  limitsTtlMs?: number;
}

/** GET /limits data: min and max in source-token units, and the same in USD. */
export interface RouteLimits {
  min_amount?: number | null;
  max_amount?: number | null;
  min_amount_in_usd?: number | null;
  max_amount_in_usd?: number | null;
}

export interface LimitsQuery {
  source_network: string;
  source_token: string;
  destination_network: string;
  destination_token: string;
  use_deposit_address?: boolean;
  refuel?: boolean;
  /** Limits may depend on the destination (Layerswap's app asks again once it is known). */
  destination_address?: string;
}

export type ExchangeSide = 'source' | 'destination';
/**
 * Narrows an exchange list. Source side: exchanges that withdraw this token on this network
 * (GET /source_exchanges?source_network=&source_token=). Destination side: exchanges reachable
 * from this source token (GET /destination_exchanges?source_network=&source_token=).
 */
export interface ExchangeFilter {
  network: string;
  token: string;
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
  private readonly limitsTtlMs: number;
  private readonly limitEntries = new Map<string, Entry<RouteLimits>>();
  private readonly exchangeEntries = new Map<string, Entry<Exchange[]>>();
  private readonly exchangeNetworkEntries = new Map<string, Entry<ExchangeNetwork[]>>();

  constructor(
    private readonly api: LayerswapApi,
    opts: CatalogCacheOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 5 * 60_000;
    this.limitsTtlMs = opts.limitsTtlMs ?? 20_000;
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
    const query = {
      source_network: params.source_network,
      include_swaps: true,
      ...(params.source_token === undefined ? {} : { source_token: params.source_token }),
    };
    return this.read(entry, `destinations of ${params.source_network}`, () => this.api.getDestinations(query));
  }

  /**
   * Min and max amount of a route, cached briefly. Undefined when they cannot be loaded (the
   * service refused or is down): callers show less and carry on.
   */
  async limits(q: LimitsQuery): Promise<RouteLimits | undefined> {
    const key = [
      q.source_network,
      q.source_token,
      q.destination_network,
      q.destination_token,
      q.use_deposit_address ?? '',
      q.refuel ?? '',
      q.destination_address ?? '',
    ].join('\u0000');
    const entry = this.entryOf(this.limitEntries, key);
    const now = this.now();
    // Limits move with liquidity: a copy past its short TTL is fetched again, never served stale.
    if (entry.value !== undefined && now - entry.fetchedAt >= this.limitsTtlMs) entry.value = undefined;
    return this.read(entry, 'limits', () => this.api.getLimits(q, { maxRetries: 0 })).catch(() => undefined);
  }

  /**
   * Exchanges that can be a swap's source (withdrawn from) or destination (deposited to), all of
   * them or narrowed by a filter (see ExchangeFilter). Empty when the read fails: exchanges are
   * an extra, never a reason for a command to fail.
   */
  async exchanges(side: ExchangeSide, filter?: ExchangeFilter): Promise<Exchange[]> {
    const key = `${side}\u0000${filter?.network ?? ''}\u0000${filter?.token ?? ''}`;
    const params = filter ? { source_network: filter.network, source_token: filter.token } : {};
    const load = side === 'source' ? () => this.api.getSourceExchanges(params) : () => this.api.getDestinationExchanges(params);
    return this.read(this.entryOf(this.exchangeEntries, key), `${side} exchanges`, load).catch(() => []);
  }

  /**
   * The networks (each with its token) one exchange works with on a route. Source side: where it
   * withdraws to reach `other`, the route's destination (GET /exchange_withdrawal_networks).
   * Destination side: where it takes deposits coming from `other`, the route's source
   * (GET /exchange_deposit_networks). Undefined when the read fails, so callers can tell
   * "none" from "unknown".
   */
  async exchangeNetworks(side: ExchangeSide, exchange: string, other: ExchangeFilter): Promise<ExchangeNetwork[] | undefined> {
    const key = `${side}\u0000${exchange}\u0000${other.network}\u0000${other.token}`;
    const load =
      side === 'source'
        ? () =>
            this.api.getExchangeWithdrawalNetworks({
              source_exchange: exchange,
              destination_network: other.network,
              destination_token: other.token,
            })
        : () =>
            this.api.getExchangeDepositNetworks({
              destination_exchange: exchange,
              source_network: other.network,
              source_token: other.token,
            });
    return this.read(this.entryOf(this.exchangeNetworkEntries, key), `${exchange} networks`, load).catch(() => undefined);
  }

  /** An entry of a keyed map, evicting the least recently used past maxDestinationEntries. */
  private entryOf<T>(map: Map<string, Entry<T>>, key: string): Entry<T> {
    let entry = map.get(key);
    if (entry) map.delete(key);
    else {
      entry = new Entry<T>();
      if (map.size >= this.maxDestinationEntries) {
        const oldest = map.keys().next().value;
        if (oldest !== undefined) map.delete(oldest);
      }
    }
    map.set(key, entry);
    return entry;
  }

  /**
   * Loads what autocomplete reads without waiting (peekNetworks, peekExchanges), so no keystroke
   * ever triggers a request. Rejects only when the network list cannot load.
   */
  async warm(): Promise<void> {
    await Promise.all([this.networks(), this.exchanges('source'), this.exchanges('destination')]);
  }

  /** The cached network list, fresh or stale, without waiting; undefined before the first load. */
  peekNetworks(): Network[] | undefined {
    return this.networkEntry.value;
  }

  /** The cached unfiltered exchange list of one side, fresh or stale, without waiting; undefined before the first load. */
  peekExchanges(side: ExchangeSide): Exchange[] | undefined {
    return this.exchangeEntries.get(`${side}\u0000\u0000`)?.value;
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
    this.limitEntries.clear();
    this.exchangeEntries.clear();
    this.exchangeNetworkEntries.clear();
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
          this.log.warn({ err: asError(err) }, `could not refresh ${what}; serving the cached copy`);
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

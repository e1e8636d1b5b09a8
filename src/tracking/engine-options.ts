import type { RedisOptions } from 'ioredis';
import type { ChatTarget, Platform } from '../contracts/incoming.js';
import type { Messenger } from '../contracts/messenger.js';
import type { ChatLanguages, TrackingRenderer, TrackingService } from '../contracts/tracking.js';
import type { LayerswapApi } from '../layerswap/api.js';
import type { Logger } from '../log.js';
import type { WebhookCadence } from './cadence.js';
import type { ChainSettings } from './chain-start.js';
import type { WatchSettings } from './address-watch.js';
import type { NotifyDeps } from './notify-job.js';
import type { SwapState } from './observe.js';
import type { PaceRule } from './pacing.js';
import type { RateLimit } from './queues.js';
import type { ReplayGuard } from './webhook.js';

/** What the tracking engine (engine.ts) is built from, and what it gives its callers. */
export interface TrackingDeps {
  /** A redis://, rediss:// or unix:// URL, or ioredis options. */
  redis: string | RedisOptions;
  prefix: string;
  api: LayerswapApi;
  limits: { maxPerChat: number; maxPerUser: number };
  cadence: {
    fastMs: number;
    slowMs: number;
    stuckFactor: number;
    giveUpAfterMs?: number;
    notFoundGiveUpMs?: number;
    notFoundMinPolls?: number;
    /** Set when webhooks are trusted (LAYERSWAP_WEBHOOK_SECRET): polling becomes a safety net. */
    webhooks?: WebhookCadence;
  };
  logger?: Logger;
  /**
   * The /language choices (the core's LanguageStore): pushed updates are in a chat's chosen
   * language and a moved chat's choice goes with it. Without it: the language a chat followed in.
   */
  languages?: ChatLanguages;
  /** The clock for swap state times and waits; defaults to Date.now (tests pass a sandbox clock). */
  now?: () => number;
  /** How many real ms a wait of `ms` on that clock lasts (default: as many; the bench's sandbox clock runs faster). */
  realDelay?: (ms: number) => number;
  /** Requests per window to the swap service over all pollers (default 50/s). */
  apiRate?: RateLimit;
  platformRates?: Partial<Record<Platform, RateLimit>>;
  /** Per-chat pacing (default: Telegram groups and channels 20/min). */
  pacing?: (target: ChatTarget) => PaceRule | undefined;
  /** How long finished swaps stay listed, in seconds (default 7 days). */
  retentionSeconds?: number;
  /** Watched addresses: check schedule and share of the API budget (defaults: address-watch.ts DEFAULT_WATCH). */
  watch?: Partial<Omit<WatchSettings, 'apiPerSecond'>>;
  /** Fault injection for tests: runs after a platform accepted a new message, before it is recorded. */
  faults?: { afterSend?: NotifyDeps['afterSend'] };
  /** Chain watchers (CHAIN_WATCH): EVM RPC URL per network name, and what the catalogue says of a network. */
  chain?: ChainSettings;
  workers?: {
    /** BullMQ lock; a killed worker's jobs are picked up again after it expires (default 30 s). */
    lockDurationMs?: number;
    stalledIntervalMs?: number;
    /** Notify jobs in hand per platform (default: twice the platform's messages per window, 10 to 100). */
    notifyConcurrency?: number;
    /** First retry delay of a notify job after a transient failure (default 2 s, doubling). */
    notifyBackoffMs?: number;
    /** The longest wait between retries of a notify job (default 5 min); it retries until delivered. */
    notifyBackoffMaxMs?: number;
    /** How often the worker re-creates missing poll jobs for followed swaps (default 5 min). */
    reconcileIntervalMs?: number;
  };
}

export interface WorkerOptions {
  /** One per platform to deliver to; a platform without one gets no notify worker. */
  messengers: Partial<Record<Platform, Messenger>>;
  /** Status cards, key moments and notices, rendered by the core. */
  render: TrackingRenderer;
  /** A platform's own renderer instead of the core's (agents' keys, 'mcp': events, not chat cards). */
  renderers?: Partial<Record<Platform, TrackingRenderer>>;
  poll?: boolean;
  notify?: boolean;
  concurrency?: number;
}

export interface Tracking {
  service: TrackingService;
  startWorkers(opts: WorkerOptions): Promise<void>;
  /** Pulls a swap's poll job forward (a webhook hint): service.pollNow. */
  pollNow(swapId: string): Promise<void>;
  /** Drains: jobs in hand finish, nothing new starts, connections close. */
  close(): Promise<void>;
  /** The last state the poller stored (operators, tests). */
  swapState(swapId: string): Promise<SwapState | undefined>;
  /** Notify jobs not finished yet, over all platforms. */
  pendingNotifications(): Promise<number>;
  /** Re-creates missing poll jobs for every followed swap that is not final; returns how many swaps. */
  reconcile(): Promise<number>;
  /** Webhook replay protection shared by every web process (pass to createWebhookHandler). */
  webhookReplayGuard: ReplayGuard;
}

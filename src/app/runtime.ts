import type { Redis } from 'ioredis';
import { createCore, type CoreDeps } from '../bot/create-core.js';
import type { BotCore } from '../bot/core.js';
import { assertProcessConfig, type Config } from '../config.js';
import { CatalogCache } from '../layerswap/catalog-cache.js';
import { LayerswapClient } from '../layerswap/client.js';
import { asError, type Logger } from '../log.js';
import { clusterUrl, createRedis, probeRedis } from '../redis.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../redis-server.js';
import { persistenceProblem, redisPersistence } from '../redis-persistence.js';
import { scrapeTracking } from './metrics-source.js';
import { SystemClock, type SandboxServer } from '../sandbox/types.js';
import { createTracking, type Tracking, type TrackingDeps } from '../tracking/engine.js';
import { catalogueChainId } from '../tracking/chain-evidence.js';
import { LanguageStore } from '../i18n/store.js';
import { payLinksOf } from '../pay/links.js';
import { StartupError } from './startup-error.js';

/**
 * The composition root: one place that turns Config into running parts (Redis, the API client or
 * the in-process sandbox, the catalogue cache, tracking and the command core). Processes pick
 * what they start from it; closing it releases everything in reverse order.
 */
export type Role = 'start' | 'web' | 'worker' | 'console';

export interface Runtime {
  readonly config: Config;
  readonly logger: Logger;
  readonly redisUrl: string;
  /** The core's connection (drafts, rate limits, history, update dedup). */
  readonly redis: Redis;
  readonly api: LayerswapClient;
  readonly catalog: CatalogCache;
  readonly sandbox: SandboxServer | undefined;
  readonly tracking: Tracking;
  readonly core: BotCore;
  /** What the core was built from: the agent surface (src/mcp) builds its contexts over the same parts. */
  readonly coreDeps: CoreDeps;
  /** Adds a named on-close step (adapters register their stop here); runs before the runtime's own. */
  onClose(name: string, step: () => Promise<void>): void;
  /**
   * Runs the close steps, newest first. A step that takes longer than STEP_BUDGET_MS is left
   * behind (logged) so the ones after it still run.
   */
  close(): Promise<void>;
  /** True once close() was called. */
  readonly closing: boolean;
  /** The close steps that have not finished (for the shutdown deadline's log line). */
  unfinished(): string[];
}

/** The longest one close step may hold up the ones after it. */
const STEP_BUDGET_MS = 12_000;

export async function createRuntime(config: Config, logger: Logger, role: Role): Promise<Runtime> {
  // Web and worker share Redis and the service with other processes: the one check (config.ts) says what is missing.
  assertProcessConfig(config, role);
  const closers: Array<{ name: string; fn: () => Promise<void> }> = [];
  const unfinished = new Set<string>();
  const step = async (what: string, fn: () => Promise<void>) => {
    unfinished.add(what);
    const done = Promise.resolve()
      .then(fn)
      .then(
        () => 'done' as const,
        (err: unknown) => void logger.warn({ err: asError(err) }, `shutdown: ${what} did not close cleanly`),
      )
      .finally(() => unfinished.delete(what));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), STEP_BUDGET_MS)));
    if ((await Promise.race([done, late])) === 'late')
      logger.warn(`shutdown: ${what} did not close within ${STEP_BUDGET_MS / 1000} s; going on without it`);
    clearTimeout(timer);
  };
  const closeAll = async () => {
    for (const c of closers.reverse()) await step(c.name, c.fn);
  };
  try {
    // Redis: the configured one, or (one-process roles only) our own redis-server.
    let redisUrl = config.REDIS_CLUSTER_NODES ? clusterUrl(config.REDIS_CLUSTER_NODES) : config.REDIS_URL;
    if (!redisUrl) {
      const embedded: EmbeddedRedis = await startEmbeddedRedis({ dataDir: config.DATA_DIR, logger });
      closers.push({ name: 'embedded redis', fn: () => embedded.stop() });
      redisUrl = embedded.url;
      logger.info(
        { dataDir: config.DATA_DIR },
        'started an embedded redis-server (append-only, under DATA_DIR); set REDIS_URL to use your own',
      );
    } else if (role === 'console') {
      // The terminal chat cannot wait for Redis behind a banner and fail every command: say why, once, and stop.
      const why = await probeRedis(redisUrl);
      if (why) throw new StartupError(unreachable(config, why));
    }

    // The swap service: the one LAYERSWAP_API_URL names (keyless: quotes only), else the sandbox in this process.
    let sandbox: SandboxServer | undefined;
    let baseUrl = config.LAYERSWAP_API_URL;
    let apiKey = config.LAYERSWAP_API_KEY;
    if (config.useSandbox) {
      // Loaded only here: a process against the real API never loads the sandbox (nor its chains).
      const { startSandbox } = await import('../sandbox/server.js');
      sandbox = await startSandbox({
        host: '127.0.0.1',
        apiKey: config.SANDBOX_API_KEY,
        speed: config.SANDBOX_SPEED,
        timings: { depositDelayMs: config.SANDBOX_DEPOSIT_DELAY_MS, chainPickupMs: config.SANDBOX_CHAIN_PICKUP_MS },
        ...(config.SANDBOX_CHAIN === '1' ? { chain: {} } : {}),
      });
      const running = sandbox;
      closers.push({ name: 'sandbox', fn: () => running.close() });
      baseUrl = sandbox.url;
      apiKey = sandbox.apiKey;
    }
    const api = new LayerswapClient({
      baseUrl,
      apiKey,
      timeoutMs: config.LAYERSWAP_TIMEOUT_MS,
      maxRetries: config.LAYERSWAP_MAX_RETRIES,
      logger,
    });
    closers.push({ name: 'api client', fn: () => api.close() });
    const catalog = new CatalogCache(api, { logger });

    const redis = createRedis(redisUrl, { logger, name: 'core', maxRetriesPerRequest: 3 });
    closers.push({ name: 'redis', fn: async () => void (await redis.quit()) });

    // The sandbox's clock runs SANDBOX_SPEED times faster and stamps its swaps with it: the bot
    // reads the same clock, or a card would say "expected by 17:46 (about 2 minutes from now)"
    // of a swap done in seconds. (At speed 1 the two are one.) A sandbox in another process
    // (`swapbot sandbox --speed N`) tells its clock as SANDBOX_CLOCK.
    const sandboxClock =
      sandbox && config.SANDBOX_SPEED !== 1
        ? sandbox.clock
        : config.SANDBOX_CLOCK && new SystemClock(config.SANDBOX_CLOCK.speed, config.SANDBOX_CLOCK.origin);
    const clock = sandboxClock ? { now: () => sandboxClock.now() } : {};
    const tracking = createTracking({
      ...clock,
      redis: redisUrl,
      prefix: config.REDIS_PREFIX,
      api,
      limits: { maxPerChat: config.MAX_TRACKED_PER_CHAT, maxPerUser: config.MAX_TRACKED_PER_USER },
      cadence: pollCadence(config, sandbox !== undefined),
      apiRate: { max: config.LAYERSWAP_RATE_LIMIT, duration: 1000 },
      watch: { minMs: config.WATCH_MIN_MS, maxMs: config.WATCH_MAX_MS, share: config.WATCH_API_PERCENT / 100 },
      logger,
      languages: new LanguageStore(redis, config.REDIS_PREFIX),
      ...(chainOptions(config, sandbox, catalog) ?? {}),
    });
    closers.push({ name: 'tracking', fn: () => tracking.close() });
    // /metrics reads queue depths and followed swaps from Redis when scraped.
    closers.push({ name: 'metrics', fn: scrapeTracking(redis, config.REDIS_PREFIX, logger, config.secretValues) });

    const coreDeps: CoreDeps = {
      ...clock,
      api,
      catalog,
      redis,
      keyPrefix: config.REDIS_PREFIX,
      tracking: tracking.service,
      limits: { commandsPerMinute: config.COMMANDS_PER_MINUTE, draftTtlSeconds: config.DRAFT_TTL_SECONDS },
      logger,
      ...(payLinksOf(config) ? { payLinks: payLinksOf(config) } : {}),
    };
    const core = createCore(coreDeps);

    let closed: Promise<void> | undefined;
    const runtime: Runtime = {
      config,
      logger,
      redisUrl,
      redis,
      api,
      catalog,
      sandbox,
      tracking,
      core,
      coreDeps,
      onClose: (name, fn) => closers.push({ name, fn }),
      // Adapters (added last) stop first; Redis and the sandbox go last.
      close: () => (closed ??= closeAll()),
      get closing() {
        return closed !== undefined;
      },
      unfinished: () => [...unfinished],
    };
    return runtime;
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** Why the terminal chat does not start: the variable to fix, its value without the password, the cause. */
function unreachable(config: Config, why: string): string {
  const [name, shown] = config.REDIS_CLUSTER_NODES
    ? ['REDIS_CLUSTER_NODES', config.REDIS_CLUSTER_NODES.replace(/\/\/([^:@/]*):[^@/]*@/g, '//$1:***@')]
    : ['REDIS_URL', withoutPassword(config.REDIS_URL ?? '')];
  return (
    `swapbot cannot reach Redis at ${name}=${shown}: ${why}.\n` +
    `Start Redis there, correct ${name}, or unset it to let swapbot start its own redis-server (needs redis-server on PATH).`
  );
}

function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

/**
 * Resolves true once Redis answers a PING, or false if the runtime closes first. Quiet while it
 * waits: the outage log has said once what the connections report, and `waiting` (naming
 * REDIS_URL) is logged once, at the first failed PING.
 */
export async function untilRedisAnswers(rt: Runtime, waiting?: string): Promise<boolean> {
  let said = false;
  while (!rt.closing) {
    if ((await rt.redis.ping().catch(() => undefined)) === 'PONG') return true;
    if (!said && waiting && !rt.closing) rt.logger.error(waiting);
    said = true;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  return false;
}

/**
 * The in-process sandbox moves a swap from deposit to payout in seconds, and it sends no
 * webhooks, so unless the operator chose a cadence, poll it about as often as a webhook would
 * hint: the terminal demo then shows every confirmation instead of jumping to "completed".
 * With LAYERSWAP_WEBHOOK_SECRET, polling becomes a safety net (tracking/cadence.ts).
 */
export function pollCadence(config: Config, sandbox: boolean): TrackingDeps['cadence'] {
  const chosen = (k: string) => config.setVariables.includes(k);
  const speed = config.SANDBOX_SPEED;
  return {
    fastMs: sandbox && !chosen('POLL_FAST_MS') ? Math.max(200, Math.round(1000 / speed)) : config.POLL_FAST_MS,
    slowMs: sandbox && !chosen('POLL_SLOW_MS') ? Math.max(400, Math.round(2000 / speed)) : config.POLL_SLOW_MS,
    stuckFactor: config.STUCK_AFTER_FACTOR,
    // A webhook is the trigger once Layerswap sends them (the in-process sandbox sends none).
    ...(config.LAYERSWAP_WEBHOOK_SECRET && !sandbox
      ? { webhooks: { safetyMs: config.POLL_SAFETY_MS, waitingPollMs: config.POLL_WAITING_MS, tailMs: 6 * config.POLL_FAST_MS } }
      : {}),
  };
}

/**
 * The chain watchers' RPCs: CHAIN_RPC_URLS, the sandbox's own chain (SANDBOX_CHAIN=1), and with
 * CHAIN_WATCH=auto a network's node_url from the catalogue (not the in-process sandbox's: those
 * are public mainnet nodes its swaps never touch).
 */
function chainOptions(config: Config, sandbox: SandboxServer | undefined, catalog: CatalogCache): Pick<TrackingDeps, 'chain'> | undefined {
  if (config.CHAIN_WATCH === 'off') return undefined;
  const rpcs = new Map<string, string>();
  for (const pair of config.CHAIN_RPC_URLS?.split(',') ?? []) {
    const at = pair.indexOf('=');
    rpcs.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  const chainUrl = sandbox?.chain?.url;
  // The in-process sandbox's Solana network on its local chain (SANDBOX_CHAIN=1).
  const solanaUrl = sandbox?.solana?.url;
  // The families with a watcher (src/chain/): EVM, Solana, and TON (toncenter's API v2 at the node_url).
  const evm = async (name: string) => {
    const n = await catalog.networkByName(name);
    return n && (n.type === 'evm' || n.type === 'solana' || n.type === 'ton') ? n : undefined;
  };
  return {
    chain: {
      evmRpcs: rpcs,
      ...(sandbox && !chainUrl
        ? {}
        : {
            fallbackRpc: async (name: string) => {
              const n = await evm(name);
              if (n?.type === 'solana') return sandbox ? solanaUrl : (n.node_url ?? undefined);
              // The sandbox's catalogue names its own TON RPC as the node_url (--chain).
              return n ? ((n.type === 'evm' ? chainUrl : undefined) ?? n.node_url ?? undefined) : undefined;
            },
          }),
      network: async (name) => {
        const n = await evm(name);
        if (!n) return undefined;
        const required = (n as { max_confirmations?: unknown }).max_confirmations;
        // The chain id the watcher checks its RPC against.
        const chainId = catalogueChainId(n.chain_id);
        const genesisHash =
          n.type === 'solana' ? (await import('../chain/solana/watcher.js')).solanaGenesis(n.name, n.chain_id) : undefined;
        return {
          ...(n.type ? { family: n.type } : {}),
          ...(typeof required === 'number' ? { required } : {}),
          ...(chainId !== undefined && n.type === 'evm' ? { chainId } : {}),
          ...(genesisHash ? { genesisHash } : {}),
          tokens: n.tokens.map((t) => ({ symbol: t.symbol, contract: t.contract ?? null, decimals: t.decimals ?? 18 })),
        };
      },
    },
  };
}

/**
 * Once Redis answers: one warning line when a Redis restart would lose tracking (no append-only
 * file), or, with REQUIRE_PERSISTENCE=1, a refusal to start (a StartupError naming the setting).
 * A Redis that does not say (CONFIG refused) is only warned about.
 */
export async function checkPersistence(rt: Runtime): Promise<void> {
  const p = await redisPersistence(rt.redis);
  const problem = persistenceProblem(p);
  if (!problem) return;
  if (rt.config.REQUIRE_PERSISTENCE === '1' && p.kind !== 'unknown')
    throw new StartupError(`swapbot: ${problem}. REQUIRE_PERSISTENCE=1: not starting.`);
  rt.logger.warn(problem);
}

import { z } from 'zod';
import { payWalletSettings } from './pay/wallet-settings.js';
import { clusterNodesProblem, redisDbProblem, redisPassword } from './redis-url.js';

/**
 * The environment, parsed once at start into a frozen Config. Every problem is listed in one
 * message with how to fix it; secrets are remembered so log.ts can redact them everywhere.
 */

/**
 * Numbers are plain decimal digits only: `0x3e8`, `1e4`, `+5` or ` 5 ` are refused with a message
 * saying so rather than silently read as something else. A value out of range names the range.
 */
const DIGITS = 'must be a whole number in plain digits, such as 3000 (no sign, decimal point, 0x or exponent)';
const DECIMAL = 'must be a plain decimal number, such as 1.5 (no sign, 0x or exponent)';
const int = (min: number, max: number, note = '') =>
  z
    .string()
    .regex(/^\d+$/, DIGITS)
    .transform(Number)
    .pipe(z.number().min(min, `must be ${min}-${max}${note}`).max(max, `must be ${min}-${max}${note}`));
const decimal = (above: number, max: number) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, DECIMAL)
    .transform(Number)
    .pipe(z.number().gt(above, `must be above ${above} and at most ${max}`).max(max, `must be above ${above} and at most ${max}`));
const intOrOff = (min: number, max: number) =>
  z.string().transform((v, ctx) => {
    if (v === 'off') return 'off' as const;
    if (!/^\d+$/.test(v)) ctx.addIssue({ code: 'custom', message: `use off or ${DIGITS.replace('must be ', '')}` });
    else if (Number(v) < min || Number(v) > max) ctx.addIssue({ code: 'custom', message: `must be ${min}-${max} (milliseconds) or off` });
    return Number(v);
  });
const url = (protocols: string[], hint: string) =>
  z
    .string()
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, hint)
    .transform((v) => v.replace(/\/+$/, ''));
const nonEmpty = z.string().min(1);

const schema = z.object({
  LAYERSWAP_API_URL: url(['http:', 'https:'], 'must be an http(s) URL such as https://api.layerswap.io').default(
    'https://api.layerswap.io',
  ),
  LAYERSWAP_API_KEY: nonEmpty.optional(),
  LAYERSWAP_TIMEOUT_MS: int(100, 120_000).default(15_000),
  LAYERSWAP_MAX_RETRIES: int(0, 10).default(2),
  LAYERSWAP_RATE_LIMIT: int(1, 10_000).default(50),
  LAYERSWAP_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/, 'must be the Svix secret from the Layerswap dashboard (starts with whsec_)')
    .optional(),
  SANDBOX_API_KEY: nonEmpty.default('sandbox'),
  SANDBOX_DEPOSIT_DELAY_MS: intOrOff(0, 86_400_000).default(4_000),
  SANDBOX_CHAIN_PICKUP_MS: int(0, 86_400_000).default(3_000),
  SANDBOX_SPEED: decimal(0, 10_000).default(1),
  SANDBOX_CHAIN: z.enum(['0', '1']).default('0'),
  // The clock of a sandbox in another process, as `swapbot sandbox` prints it: its start (Unix ms) @ its speed.
  SANDBOX_CLOCK: z
    .string()
    .regex(/^\d{1,15}@\d+(\.\d+)?$/, 'must be what `swapbot sandbox` prints, such as 1795891312000@10 (its start in Unix ms, @, its speed)')
    .transform((v) => {
      const [origin, speed] = v.split('@');
      return { origin: Number(origin), speed: Number(speed) };
    })
    .refine((c) => c.speed > 0 && c.speed <= 10_000, 'its speed must be above 0 and at most 10000')
    .optional(),
  CHAIN_WATCH: z.enum(['auto', 'off'], { message: "must be 'auto' (watch deposit addresses on chain) or 'off'" }).default('auto'),
  CHAIN_RPC_URLS: z
    .string()
    .superRefine((v, ctx) => {
      // Names the bad entries by position and network, never by URL (it may carry a provider key).
      const bad = v.split(',').flatMap((p, i) => {
        const entry = p.trim();
        if (/^[A-Z0-9_]+=https?:\/\/[^\s,]+$/.test(entry) && URL.canParse(entry.slice(entry.indexOf('=') + 1))) return [];
        const name = /^([A-Z0-9_]+)=/.exec(entry)?.[1];
        return [name ? `entry ${i + 1} (${name}: not an http(s) URL)` : `entry ${i + 1} (no NETWORK_NAME= before the URL)`];
      });
      if (bad.length)
        ctx.addIssue({
          code: 'custom',
          message: `${bad.join(', ')}: must be NETWORK_NAME=url pairs separated by commas, such as ARBITRUM_MAINNET=https://arb1.example/rpc`,
        });
    })
    .optional(),
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]{20,}$/, 'must look like 123456:ABC-DEF... as given by @BotFather')
    .optional(),
  TELEGRAM_API_ROOT: url(['http:', 'https:'], 'must be an http(s) URL such as https://api.telegram.org').default(
    'https://api.telegram.org',
  ),
  TELEGRAM_WEBHOOK_URL: url(['https:', 'http:'], 'must be the public https URL Telegram should call').optional(),
  // Telegram's max_connections for the webhook (1-100): how many updates it sends at once.
  TELEGRAM_WEBHOOK_MAX_CONNECTIONS: int(1, 100).default(40),
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}$/, 'use 1-256 characters of A-Z, a-z, 0-9, _ and -')
    .optional(),
  DISCORD_TOKEN: nonEmpty.optional(),
  DISCORD_APPLICATION_ID: z
    .string()
    .regex(/^\d{5,25}$/, 'must be the numeric application id from the Discord developer portal')
    .optional(),
  DISCORD_GUILD_ID: z
    .string()
    .regex(/^\d{5,25}$/, 'must be a numeric server (guild) id')
    .optional(),
  DISCORD_API_URL: url(['http:', 'https:'], 'must be an http(s) URL such as https://discord.com/api').default('https://discord.com/api'),
  DISCORD_GATEWAY_URL: url(['ws:', 'wss:'], 'must be a ws(s) URL').optional(),
  DISCORD_TRACK_ROLE: nonEmpty.optional(),
  DISCORD_INTERACTIONS: z
    .enum(['gateway', 'http'], {
      message: "must be 'gateway' (a gateway connection) or 'http' (POST /discord/interactions on the web process)",
    })
    .default('gateway'),
  DISCORD_PUBLIC_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be the 64 hex characters of the Public Key from the developer portal (General Information)')
    .optional(),
  REDIS_URL: url(['redis:', 'rediss:', 'unix:'], 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379')
    .superRefine((v, ctx) => {
      const problem = redisDbProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  // host:port,host:port (or redis://[user:pass@]host:port entries): the nodes to discover a Redis Cluster from.
  REDIS_CLUSTER_NODES: z
    .string()
    .superRefine((v, ctx) => {
      const problem = clusterNodesProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  METRICS_TOKEN: z
    .string()
    .regex(
      /^[\x21-\x7e]{16,256}$/,
      'use 16-256 printable characters without spaces (GET /metrics then needs Authorization: Bearer <token>)',
    )
    .optional(),
  // The Telegram bot's @username (without @): an agent's hand-off link is https://t.me/<it>?start=ag_<token> (src/mcp).
  TELEGRAM_BOT_USERNAME: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{3,31}$/, "use the bot's username without @ (5-32 characters of A-Z, a-z, 0-9 and _)")
    .optional(),
  // `swapbot mcp` (stdio): the agent key every call is made with (swapbot mcp-key create prints one).
  SWAPBOT_MCP_KEY: z.string().optional(),
  // 1: refuse to start on a Redis whose persistence is not the append-only file (redis-persistence.ts).
  REQUIRE_PERSISTENCE: z.enum(['0', '1'], { message: "must be '1' (refuse a Redis without appendonly yes) or '0'" }).default('0'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'use 1-40 characters of A-Z, a-z, 0-9, _ . and -')
    .default('swapbot'),
  DATA_DIR: nonEmpty.default('.data'),
  PORT: int(0, 65_535, ' (0 picks any free port)').default(3000),
  // The worker's /health and /metrics port when web and worker share one host and one environment.
  WORKER_PORT: int(0, 65_535, ' (0 picks any free port)').optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'use one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  COMMANDS_PER_MINUTE: int(1, 10_000).default(20),
  MAX_TRACKED_PER_USER: int(1, 10_000).default(25),
  MAX_TRACKED_PER_CHAT: int(1, 100_000).default(100),
  DRAFT_TTL_SECONDS: int(60, 7 * 86_400).default(3_600),
  POLL_FAST_MS: int(200, 600_000).default(5_000),
  POLL_SLOW_MS: int(200, 3_600_000).default(20_000),
  POLL_SAFETY_MS: int(1_000, 86_400_000).default(300_000),
  POLL_WAITING_MS: int(1_000, 3_600_000).default(60_000),
  STUCK_AFTER_FACTOR: decimal(0, 1_000)
    .refine((v) => v >= 1, 'must be 1-1000: "stuck" means slower than expected')
    .default(4),
  CONSOLE_LINGER_SECONDS: int(0, 86_400).optional(),
  TRACK_POLL_CONCURRENCY: int(1, 1_000).default(20),
  // Watched addresses (tracking/address-watch.ts): checked every WATCH_MIN_MS after something new,
  // the interval doubling while nothing is, up to WATCH_MAX_MS; never more than this share of the API budget.
  WATCH_MIN_MS: int(1_000, 86_400_000, ' (milliseconds)').default(60_000),
  WATCH_MAX_MS: int(1_000, 86_400_000, ' (milliseconds)').default(900_000),
  WATCH_API_PERCENT: int(1, 100, ' (percent of LAYERSWAP_RATE_LIMIT)').default(10),
  // The pay-from-wallet page (src/pay, docs/pay.md): its public base URL, the links' HMAC secret and ages.
  PAY_PUBLIC_URL: url(
    ['https:', 'http:'],
    'must be the https URL where this web process is reachable, such as https://bot.example.com',
  ).optional(),
  PAY_LINK_SECRET: z
    .string()
    .regex(/^[\x21-\x7e]{32,256}$/, 'use 32-256 random printable characters without spaces')
    .optional(),
  PAY_LINK_TTL_SECONDS: int(60, 86_400).default(1_800),
  PAY_INITDATA_MAX_AGE_SECONDS: int(60, 86_400).default(3_600),
  ...payWalletSettings,
});

type Raw = z.infer<typeof schema>;

export interface Config extends Readonly<Raw> {
  /**
   * Neither LAYERSWAP_API_KEY nor LAYERSWAP_API_URL: the bot runs the sandbox in-process and talks
   * to it. A URL without a key is the real service, keyless: quotes work, creating swaps does not.
   */
  readonly useSandbox: boolean;
  readonly telegramEnabled: boolean;
  readonly discordEnabled: boolean;
  /** Every secret value in force, for redaction. Never printed. */
  readonly secretValues: readonly string[];
  /** The variables the environment set (the rest are defaults). */
  readonly setVariables: readonly string[];
}

/** Variables whose values are secrets: redacted in every log line and error. */
const SECRET_VARIABLES = [
  'LAYERSWAP_API_KEY',
  'LAYERSWAP_WEBHOOK_SECRET',
  'SANDBOX_API_KEY',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_WEBHOOK_SECRET',
  'DISCORD_TOKEN',
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'METRICS_TOKEN',
  'PAY_LINK_SECRET',
  'SWAPBOT_MCP_KEY',
  // RPC URLs often carry a provider key in the path.
  'CHAIN_RPC_URLS',
] as const;

export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(
      `swapbot cannot start: the configuration has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n` +
        problems.map((p) => `  - ${p}`).join('\n') +
        '\nSet these in the environment or in .env (see .env.example and docs/configuration.md).',
    );
    this.problems = problems;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, kind?: ProcessKind): Config {
  // Empty strings mean "unset": that is how most dotenv files and platforms express it.
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key]?.trim();
    if (v) input[key] = v;
  }
  // Field by field, so the checks across fields below still run when some value is malformed.
  const problems: string[] = [];
  const valid: Partial<Record<string, unknown>> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const result = (field as z.ZodType).safeParse(input[key]);
    if (result.success) {
      valid[key] = result.data;
      continue;
    }
    const secret = (SECRET_VARIABLES as readonly string[]).includes(key);
    // Never echo a secret's value back, even a malformed one.
    const shown = secret ? '(hidden)' : JSON.stringify(input[key]);
    for (const issue of result.error.issues) problems.push(`${key}=${shown}: ${issue.message}`);
  }
  problems.push(...combinationProblems(valid as Partial<Raw>, input));
  // What the process about to start needs, in the same one listing.
  if (kind)
    problems.push(
      ...processProblems(
        {
          telegramEnabled: Boolean(input.TELEGRAM_BOT_TOKEN),
          discordEnabled: Boolean(input.DISCORD_TOKEN),
          REDIS_URL: input.REDIS_URL,
          REDIS_CLUSTER_NODES: input.REDIS_CLUSTER_NODES,
          useSandbox: !input.LAYERSWAP_API_KEY && input.LAYERSWAP_API_URL === undefined,
        },
        kind,
      ),
    );
  if (problems.length) throw new ConfigError(problems);
  const raw = schema.parse(input);

  const secretValues = SECRET_VARIABLES.flatMap((k) => {
    const v = raw[k];
    if (typeof v !== 'string' || !v) return [];
    if (k === 'REDIS_URL') return redisPassword(v);
    if (k === 'CHAIN_RPC_URLS') return v.split(',').flatMap((p) => rpcSecrets(p.slice(p.indexOf('=') + 1).trim()));
    if (k === 'REDIS_CLUSTER_NODES') return v.split(',').flatMap((entry) => redisPassword(entry.trim()));
    return [v];
  });
  return Object.freeze({
    ...raw,
    useSandbox: !raw.LAYERSWAP_API_KEY && input.LAYERSWAP_API_URL === undefined,
    telegramEnabled: Boolean(raw.TELEGRAM_BOT_TOKEN),
    discordEnabled: Boolean(raw.DISCORD_TOKEN),
    secretValues: Object.freeze(secretValues),
    setVariables: Object.freeze(Object.keys(input)),
  });
}

/** An RPC URL and the parts of it that carry a provider key (its password, a long path or query). */
function rpcSecrets(url: string): string[] {
  const u = URL.parse(url);
  if (!u) return [url];
  const rest = `${u.pathname}${u.search}`;
  return [url, ...(u.password ? [decodeURIComponent(u.password)] : []), ...(rest.length >= 16 ? [rest] : [])];
}

/** Values that are fine alone but not together. `set` holds what the environment set, valid or not. */
function combinationProblems(v: Partial<Raw>, set: Record<string, string>): string[] {
  const problems: string[] = [];
  if (set.TELEGRAM_WEBHOOK_URL && !set.TELEGRAM_WEBHOOK_SECRET)
    problems.push(
      'TELEGRAM_WEBHOOK_SECRET is missing: a webhook needs a secret so only Telegram can call it; set any 32+ random characters of A-Z, a-z, 0-9, _ and -',
    );
  if (set.TELEGRAM_WEBHOOK_URL && !set.TELEGRAM_BOT_TOKEN)
    problems.push('TELEGRAM_WEBHOOK_URL is set but TELEGRAM_BOT_TOKEN is not: set the token from @BotFather, or unset the webhook URL');
  if (set.DISCORD_TOKEN && !set.DISCORD_APPLICATION_ID)
    problems.push(
      'DISCORD_APPLICATION_ID is missing: Discord needs it with DISCORD_TOKEN; copy it from the developer portal (General Information)',
    );
  if (!set.DISCORD_TOKEN && (set.DISCORD_APPLICATION_ID || set.DISCORD_GUILD_ID))
    problems.push(
      `DISCORD_TOKEN is missing: ${set.DISCORD_APPLICATION_ID ? 'DISCORD_APPLICATION_ID' : 'DISCORD_GUILD_ID'} is set, but Discord runs only with the bot token from the developer portal (Bot)`,
    );
  if (set.DISCORD_INTERACTIONS === 'http' && !set.DISCORD_PUBLIC_KEY)
    problems.push(
      'DISCORD_PUBLIC_KEY is missing: DISCORD_INTERACTIONS=http verifies every interaction with it; copy the Public Key from the developer portal (General Information)',
    );
  if (set.DISCORD_INTERACTIONS === 'http' && set.DISCORD_GATEWAY_URL)
    problems.push('DISCORD_GATEWAY_URL is set but DISCORD_INTERACTIONS=http makes no gateway connection: unset one of them');
  if (set.REDIS_URL && set.REDIS_CLUSTER_NODES)
    problems.push(
      'REDIS_URL and REDIS_CLUSTER_NODES are both set: use REDIS_CLUSTER_NODES alone for a Redis Cluster (credentials go in its entries, such as redis://:password@host:6379), or REDIS_URL alone for one Redis',
    );
  if (set.PAY_PUBLIC_URL && !set.PAY_LINK_SECRET)
    problems.push('PAY_LINK_SECRET is missing: the pay page (PAY_PUBLIC_URL) signs its links with it; set 32+ random printable characters');
  if (
    set.SANDBOX_CLOCK &&
    (set.LAYERSWAP_API_URL === undefined || /(^|\.)layerswap\.io$/i.test(URL.parse(set.LAYERSWAP_API_URL)?.hostname ?? ''))
  )
    problems.push(
      set.LAYERSWAP_API_URL === undefined
        ? 'SANDBOX_CLOCK is for a sandbox in another process (LAYERSWAP_API_URL): the in-process sandbox shares its clock by itself (SANDBOX_SPEED); unset SANDBOX_CLOCK'
        : "SANDBOX_CLOCK is set but LAYERSWAP_API_URL is Layerswap's service: the bot would read a sandbox's clock against real swaps; unset SANDBOX_CLOCK",
    );
  if (v.POLL_FAST_MS !== undefined && v.POLL_SLOW_MS !== undefined && v.POLL_FAST_MS > v.POLL_SLOW_MS)
    problems.push(`POLL_FAST_MS (${v.POLL_FAST_MS}) is above POLL_SLOW_MS (${v.POLL_SLOW_MS}): the fast cadence must be the shorter one`);
  if (v.WATCH_MIN_MS !== undefined && v.WATCH_MAX_MS !== undefined && v.WATCH_MIN_MS > v.WATCH_MAX_MS)
    problems.push(
      `WATCH_MIN_MS (${v.WATCH_MIN_MS}) is above WATCH_MAX_MS (${v.WATCH_MAX_MS}): the check interval backs off from the first to the second`,
    );
  return problems;
}

/** The processes `swapbot` runs that read this configuration (register-commands checks its own). */
export type ProcessKind = 'start' | 'web' | 'worker' | 'console' | 'register-commands';

/**
 * What one process needs beyond a valid configuration; the CLI calls this for the process it is
 * about to start. Empty when it can run.
 */
export function processProblems(
  config: Pick<Config, 'telegramEnabled' | 'discordEnabled' | 'REDIS_URL' | 'REDIS_CLUSTER_NODES' | 'useSandbox'>,
  kind: ProcessKind,
): string[] {
  const problems: string[] = [];
  const platforms = config.telegramEnabled || config.discordEnabled;
  if (kind === 'worker' && !platforms)
    problems.push(
      'swapbot worker has nothing to deliver to: it sends tracking updates through Telegram or Discord; set TELEGRAM_BOT_TOKEN and/or DISCORD_TOKEN (the terminal chat runs its own worker: use `swapbot start` or `swapbot console`)',
    );
  if ((kind === 'web' || kind === 'worker') && !config.REDIS_URL && !config.REDIS_CLUSTER_NODES)
    problems.push(
      `REDIS_URL is missing: swapbot ${kind} runs beside other processes, so they must share one Redis; set REDIS_URL (for example redis://127.0.0.1:6379). The embedded Redis is for \`swapbot start\` only`,
    );
  if ((kind === 'web' || kind === 'worker') && config.useSandbox)
    problems.push(
      `LAYERSWAP_API_KEY is missing: swapbot ${kind} cannot share an in-process sandbox with other processes; set the key, or run \`swapbot sandbox\` and set LAYERSWAP_API_URL to it and LAYERSWAP_API_KEY to its key (\`sandbox\` unless SANDBOX_API_KEY says otherwise)`,
    );
  return problems;
}

/** processProblems as a ConfigError (exit code 2 in the CLI), or nothing when the process can run. */
export function assertProcessConfig(config: Config, kind: ProcessKind): void {
  const problems = processProblems(config, kind);
  if (problems.length) throw new ConfigError(problems);
}

/** The variables and their defaults, for docs and `swapbot --help`. */
export const CONFIG_KEYS = Object.keys(schema.shape);

import { z } from 'zod';

/**
 * The environment, parsed once at start into a frozen Config. Every problem is listed in one
 * message with how to fix it; secrets are remembered so log.ts can redact them everywhere.
 */

const int = (min: number, max: number) =>
  z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(min).max(max);
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
  LAYERSWAP_API_URL: url(['http:', 'https:'], 'must be an http(s) URL such as https://api.layerswap.io').default('https://api.layerswap.io'),
  LAYERSWAP_API_KEY: nonEmpty.optional(),
  LAYERSWAP_TIMEOUT_MS: int(100, 120_000).default(15_000),
  LAYERSWAP_MAX_RETRIES: int(0, 10).default(2),
  LAYERSWAP_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/=]+$/, 'must be the Svix secret from the Layerswap dashboard (starts with whsec_)').optional(),
  SANDBOX_API_KEY: nonEmpty.default('sandbox'),
  SANDBOX_DEPOSIT_DELAY_MS: z
    .union([z.literal('off'), int(0, 86_400_000)], { message: 'use a number of milliseconds or off' })
    .default(4_000),
  SANDBOX_SPEED: z.coerce.number({ message: 'must be a number' }).positive('must be above 0').max(10_000).default(1),
  TELEGRAM_BOT_TOKEN: z.string().regex(/^\d+:[\w-]{20,}$/, 'must look like 123456:ABC-DEF... as given by @BotFather').optional(),
  TELEGRAM_API_ROOT: url(['http:', 'https:'], 'must be an http(s) URL such as https://api.telegram.org').default('https://api.telegram.org'),
  TELEGRAM_WEBHOOK_URL: url(['https:', 'http:'], 'must be the public https URL Telegram should call').optional(),
  TELEGRAM_WEBHOOK_SECRET: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'use 1-256 characters of A-Z, a-z, 0-9, _ and -').optional(),
  DISCORD_TOKEN: nonEmpty.optional(),
  DISCORD_APPLICATION_ID: z.string().regex(/^\d{5,25}$/, 'must be the numeric application id from the Discord developer portal').optional(),
  DISCORD_GUILD_ID: z.string().regex(/^\d{5,25}$/, 'must be a numeric server (guild) id').optional(),
  DISCORD_API_URL: url(['http:', 'https:'], 'must be an http(s) URL such as https://discord.com/api').default('https://discord.com/api'),
  DISCORD_GATEWAY_URL: url(['ws:', 'wss:'], 'must be a ws(s) URL').optional(),
  DISCORD_TRACK_ROLE: nonEmpty.optional(),
  REDIS_URL: url(['redis:', 'rediss:', 'unix:'], 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379').optional(),
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'use 1-40 characters of A-Z, a-z, 0-9, _ . and -').default('swapbot'),
  DATA_DIR: nonEmpty.default('.data'),
  PORT: int(0, 65_535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { message: 'use one of fatal, error, warn, info, debug, trace, silent' }).default('info'),
  COMMANDS_PER_MINUTE: int(1, 10_000).default(20),
  MAX_TRACKED_PER_USER: int(1, 10_000).default(25),
  MAX_TRACKED_PER_CHAT: int(1, 100_000).default(100),
  DRAFT_TTL_SECONDS: int(60, 7 * 86_400).default(3_600),
  POLL_FAST_MS: int(200, 600_000).default(5_000),
  POLL_SLOW_MS: int(200, 3_600_000).default(20_000),
  STUCK_AFTER_FACTOR: z.coerce.number({ message: 'must be a number' }).min(1).max(1_000).default(4),
  CONSOLE_LINGER_SECONDS: int(0, 86_400).optional(),
  TRACK_POLL_CONCURRENCY: int(1, 1_000).default(20),
});

type Raw = z.infer<typeof schema>;

export interface Config extends Readonly<Raw> {
  /** No LAYERSWAP_API_KEY: the bot runs the sandbox in-process and talks to it. */
  readonly useSandbox: boolean;
  readonly telegramEnabled: boolean;
  readonly discordEnabled: boolean;
  /** Every secret value in force, for redaction. Never printed. */
  readonly secretValues: readonly string[];
  /** The variables the environment set (the rest are defaults). */
  readonly setVariables: readonly string[];
}

/** Variables whose values are secrets: redacted in every log line and error. */
export const SECRET_VARIABLES = [
  'LAYERSWAP_API_KEY',
  'LAYERSWAP_WEBHOOK_SECRET',
  'SANDBOX_API_KEY',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_WEBHOOK_SECRET',
  'DISCORD_TOKEN',
  'REDIS_URL',
] as const;

export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(`swapbot cannot start: the configuration has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n` +
      problems.map((p) => `  - ${p}`).join('\n') +
      '\nSet these in the environment or in .env (see .env.example and the README).');
    this.problems = problems;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "unset": that is how most dotenv files and platforms express it.
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key]?.trim();
    if (v) input[key] = v;
  }
  const parsed = schema.safeParse(input);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      const secret = (SECRET_VARIABLES as readonly string[]).includes(key);
      // Never echo a secret's value back, even a malformed one.
      const shown = secret ? '(hidden)' : JSON.stringify(input[key]);
      problems.push(`${key}=${shown}: ${issue.message}`);
    }
  }
  const raw = parsed.success ? parsed.data : undefined;
  if (raw) {
    if (raw.TELEGRAM_WEBHOOK_URL && !raw.TELEGRAM_WEBHOOK_SECRET)
      problems.push('TELEGRAM_WEBHOOK_SECRET is missing: a webhook needs a secret so only Telegram can call it; set any 32+ random characters of A-Z, a-z, 0-9, _ and -');
    if (raw.TELEGRAM_WEBHOOK_URL && !raw.TELEGRAM_BOT_TOKEN)
      problems.push('TELEGRAM_WEBHOOK_URL is set but TELEGRAM_BOT_TOKEN is not: set the token from @BotFather, or unset the webhook URL');
    if (raw.DISCORD_TOKEN && !raw.DISCORD_APPLICATION_ID)
      problems.push('DISCORD_APPLICATION_ID is missing: Discord needs it with DISCORD_TOKEN; copy it from the developer portal (General Information)');
    if (raw.POLL_FAST_MS > raw.POLL_SLOW_MS)
      problems.push(`POLL_FAST_MS (${raw.POLL_FAST_MS}) is above POLL_SLOW_MS (${raw.POLL_SLOW_MS}): the fast cadence must be the shorter one`);
  }
  if (problems.length || !raw) throw new ConfigError(problems);

  const secretValues = SECRET_VARIABLES.flatMap((k) => {
    const v = raw[k];
    if (typeof v !== 'string' || !v) return [];
    if (k === 'REDIS_URL') return redisPassword(v);
    return [v];
  });
  return Object.freeze({
    ...raw,
    useSandbox: !raw.LAYERSWAP_API_KEY,
    telegramEnabled: Boolean(raw.TELEGRAM_BOT_TOKEN),
    discordEnabled: Boolean(raw.DISCORD_TOKEN),
    secretValues: Object.freeze(secretValues),
    setVariables: Object.freeze(Object.keys(input)),
  });
}

function redisPassword(redisUrl: string): string[] {
  try {
    const u = new URL(redisUrl);
    return u.password ? [u.password, decodeURIComponent(u.password)] : [];
  } catch {
    return [];
  }
}

/** The variables and their defaults, for docs and `swapbot --help`. */
export const CONFIG_KEYS = Object.keys(schema.shape);

import { pino, type Logger } from 'pino';

/**
 * pino with secrets removed twice over: by path (headers, tokens, keys wherever they sit in a
 * log object) and by value (any known secret string inside a message, an error or a URL).
 */
export type { Logger };

const REDACT_PATHS = [
  'apiKey', '*.apiKey', 'token', '*.token', 'password', '*.password', 'secret', '*.secret',
  'headers["x-ls-apikey"]', '*.headers["x-ls-apikey"]', 'headers.authorization', '*.headers.authorization',
  'config.LAYERSWAP_API_KEY', 'config.TELEGRAM_BOT_TOKEN', 'config.DISCORD_TOKEN', 'config.REDIS_URL',
  'config.LAYERSWAP_WEBHOOK_SECRET', 'config.TELEGRAM_WEBHOOK_SECRET', 'config.SANDBOX_API_KEY', 'config.secretValues',
];

export const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret in a string. Secrets shorter than 4 chars are ignored. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4 && out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

function scrubValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return scrub(value, secrets);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    const copy: Record<string, unknown> = { type: value.name, message: scrub(value.message, secrets) };
    if (value.stack) copy.stack = scrub(value.stack, secrets);
    for (const [k, v] of Object.entries(value)) copy[k] = scrubValue(v, secrets, depth + 1);
    if (value.cause !== undefined) copy.cause = scrubValue(value.cause, secrets, depth + 1);
    return copy;
  }
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubValue(v, secrets, depth + 1);
  return out;
}

export interface LogOptions {
  level?: string;
  secrets?: readonly string[];
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
  name?: string;
}

export function createLogger(options: LogOptions = {}): Logger {
  const secrets = options.secrets ?? [];
  return pino(
    {
      name: options.name ?? 'swapbot',
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: {
        logMethod(args, method) {
          if (secrets.length === 0) return method.apply(this, args);
          const clean = args.map((a) => scrubValue(a, secrets)) as typeof args;
          return method.apply(this, clean);
        },
      },
    },
    (options.destination ?? process.stdout) as pino.DestinationStream,
  );
}

/** A logger that writes nothing, for tests and library defaults. */
export const silentLogger: Logger = pino({ level: 'silent' });

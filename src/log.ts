import { pino, type Logger } from 'pino';
import { mkdirSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * pino with secrets removed twice over: by path (headers, tokens, keys wherever they sit in a
 * log object) and by value (any known secret string inside a message, an error or a URL).
 */
export type { Logger };

const REDACT_PATHS = [
  'apiKey',
  '*.apiKey',
  'token',
  '*.token',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'headers["x-ls-apikey"]',
  '*.headers["x-ls-apikey"]',
  'headers.authorization',
  '*.headers.authorization',
  'config.LAYERSWAP_API_KEY',
  'config.TELEGRAM_BOT_TOKEN',
  'config.DISCORD_TOKEN',
  'config.REDIS_URL',
  'config.LAYERSWAP_WEBHOOK_SECRET',
  'config.TELEGRAM_WEBHOOK_SECRET',
  'config.SANDBOX_API_KEY',
  'config.secretValues',
];

const REDACTED = '[redacted]';

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
    try {
      // An error logged as it was thrown gets the one shape too (asError), scrubbed.
      return loggable(value, { secrets }, 0);
    } catch {
      // An exotic error class: its text, scrubbed, is enough; logging must never throw.
      return { type: value.name, message: scrub(value.message, secrets), ...(value.stack ? { stack: scrub(value.stack, secrets) } : {}) };
    }
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
  destination?: { write(chunk: string): unknown };
  /** With format 'line': error and fatal lines also go here (the terminal chat's stderr, its log being a file). */
  errorsTo?: { write(chunk: string): unknown };
  name?: string;
  /** 'json' (default): one JSON object a line, for log collectors. 'line': one readable line (the terminal chat). */
  format?: 'json' | 'line';
}

export interface ErrorLogOptions {
  /** Strings replaced wherever they appear: tokens, keys, passwords (the logger scrubs its own too). */
  secrets?: readonly string[];
  /** Removes what a source's text may embed besides secrets (a URL with a token in its path). */
  mask?: (text: string) => string;
  /** A message known to be safe, instead of the error's own (the stack's first line says it too). */
  message?: string;
  /** False for errors whose stack says nothing (a refusal by the swap service). */
  stack?: boolean;
}

/**
 * The one error-to-log shape, for the `err` key of every log line: anything thrown becomes a
 * fresh Error of the same class (pino's serializer names it) with its name, message and stack,
 * its own fields that are plain values (status, code, method, description), and its cause in the
 * same shape; never its objects (a request payload, headers, a wrapped response: user content
 * and tokens live there). Secrets and masked text are removed from every string. A non-Error
 * becomes an Error saying what it was.
 */
export function asError(value: unknown, options: ErrorLogOptions = {}): Error {
  return loggable(value, options, 0);
}

function loggable(value: unknown, options: ErrorLogOptions, depth: number): Error {
  const clean = (text: string) => scrub(options.mask ? options.mask(text) : text, options.secrets ?? []);
  if (!(value instanceof Error)) return new Error(clean(typeof value === 'string' ? value : `non-Error thrown: ${describeValue(value)}`));
  let copy: Error;
  try {
    copy = Object.create(Object.getPrototypeOf(value) as object) as Error;
  } catch {
    copy = new Error();
  }
  const hidden = (v: unknown) => ({ value: v, writable: true, configurable: true, enumerable: false });
  // Every enumerable key, inherited ones too (the serializer reads them all), as own values:
  // they shadow prototype getters that only work on the original (DOMException's `code`).
  for (const k in value) {
    let v: unknown;
    try {
      v = (value as unknown as Record<string, unknown>)[k];
    } catch {
      continue;
    }
    const plain = typeof v === 'string' ? clean(v) : typeof v === 'number' || typeof v === 'boolean' || v === null ? v : undefined;
    Object.defineProperty(copy, k, { ...hidden(plain), enumerable: true });
  }
  const name = value.name;
  const message = options.message !== undefined ? clean(options.message) : clean(value.message);
  Object.defineProperty(copy, 'name', hidden(name));
  Object.defineProperty(copy, 'message', hidden(message));
  const frames =
    options.stack === false
      ? undefined
      : value.stack
          ?.split('\n')
          .filter((l) => /^\s+at /.test(l))
          .join('\n');
  Object.defineProperty(
    copy,
    'stack',
    hidden(frames === undefined ? undefined : clean(`${name}: ${message}${frames ? `\n${frames}` : ''}`)),
  );
  if (value.cause !== undefined && depth < 3)
    Object.defineProperty(copy, 'cause', hidden(loggable(value.cause, { ...options, message: undefined }, depth + 1)));
  return copy;
}

function describeValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.slice(0, 500);
}

/** The logger of one queue job: every line carries the queue, the job id and the ids given (swapId, chat...). */
export function jobLogger(
  logger: Logger,
  job: { queueName: string; id?: string | undefined },
  ids: Record<string, string | number | undefined> = {},
): Logger {
  const bindings: Record<string, string | number> = { queue: job.queueName };
  if (job.id !== undefined) bindings.jobId = job.id;
  for (const [k, v] of Object.entries(ids)) if (v !== undefined) bindings[k] = v;
  return logger.child(bindings);
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's own keys, not shown as fields in a readable line. */
const OWN_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'err']);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
const oneLine = (s: string, max = 300): string => {
  const flat = s.replace(CONTROL, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** One pino JSON line as one readable line: time, level, message, fields, then the error's name and message. */
function formatLogLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return `${oneLine(json)}\n`;
  }
  const time = typeof o.time === 'number' ? new Date(o.time).toTimeString().slice(0, 8) : '';
  const level = LEVEL_NAMES[o.level as number] ?? String(o.level);
  const parts = [`${time} ${level}`.trim(), oneLine(String(o.msg ?? ''))];
  const fields = Object.entries(o)
    .filter(([k, v]) => !OWN_KEYS.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${oneLine(typeof v === 'string' ? v : JSON.stringify(v), 120)}`);
  if (fields.length > 0) parts.push(fields.join(' '));
  const err = o.err as { type?: unknown; message?: unknown } | string | undefined;
  if (typeof err === 'string') parts.push(`(${oneLine(err)})`);
  else if (err && typeof err === 'object') parts.push(`(${oneLine(`${String(err.type ?? 'Error')}: ${String(err.message ?? '')}`)})`);
  return `${parts.filter(Boolean).join('  ')}\n`;
}

export function createLogger(options: LogOptions = {}): Logger {
  const secrets = options.secrets ?? [];
  const out = options.destination ?? process.stdout;
  // Formatted in-process after redaction and scrubbing: pino hands over each line whole.
  const errorsTo = options.errorsTo;
  const destination =
    options.format === 'line'
      ? {
          write: (line: string) => {
            const text = formatLogLine(line);
            out.write(text);
            if (errorsTo && Number(/"level":(\d+)/.exec(line)?.[1]) >= 50) errorsTo.write(text);
          },
        }
      : out;
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
    destination as pino.DestinationStream,
  );
}

/**
 * The terminal chat's log, DATA_DIR/swapbot.log: appended with synchronous writes, so the last
 * lines are there even when the process exits at once.
 */
export function consoleLogFile(dataDir: string): { write(chunk: string): unknown } {
  mkdirSync(dataDir, { recursive: true });
  const fd = openSync(resolve(dataDir, 'swapbot.log'), 'a');
  return { write: (chunk: string) => writeSync(fd, chunk) };
}

/** A logger that writes nothing, for tests and library defaults. */
export const silentLogger: Logger = pino({ level: 'silent' });

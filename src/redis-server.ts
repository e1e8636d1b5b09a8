import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { silentLogger, type Logger } from './log.js';

/**
 * The embedded redis-server that `swapbot start` launches when REDIS_URL is unset: a unix socket
 * and an append-only file in the data directory (the connections to it are redis.ts's).
 */

export interface EmbeddedRedis {
  /** unix:///abs/path/redis.sock */
  url: string;
  stop(): Promise<void>;
}

/**
 * hash-max-listpack-value for the embedded Redis, and the value documented for production: each
 * followed swap's hash (tracking/swap-store.ts) stays a compact listpack, its card data being
 * ~0.5-1.5 KB.
 */
export const HASH_MAX_LISTPACK_VALUE = 2048;

const REDIS_MISSING_MESSAGE =
  'swapbot needs Redis to track swaps, and no redis-server was found on PATH. Install one ' +
  '(Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a running Redis ' +
  '(for example REDIS_URL=redis://127.0.0.1:6379).';

function findOnPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** PING over the socket; true when Redis answers (even NOAUTH). */
function pingSocket(path: string, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const sock = net.connect({ path });
    const finish = (ok: boolean) => {
      sock.destroy();
      done(ok);
    };
    sock.setTimeout(timeoutMs, () => finish(false));
    sock.on('error', () => finish(false));
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => finish(/^(\+PONG|-NOAUTH)/.test(d.toString())));
  });
}

const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * Starts redis-server on a unix socket under dataDir with append-only persistence, so followed
 * swaps survive a restart. A server already answering on that socket (left over by a killed run)
 * is reused.
 */
export async function startEmbeddedRedis(options: { dataDir: string; logger?: Logger; binary?: string }): Promise<EmbeddedRedis> {
  const logger = options.logger ?? silentLogger;
  const dir = resolve(options.dataDir);
  const socket = join(dir, 'redis.sock');
  if (Buffer.byteLength(socket) > 100) {
    throw new Error(`The Redis socket path ${socket} is too long for a unix socket (max ~100 bytes): set DATA_DIR to a shorter path`);
  }
  const url = `unix://${socket}`;
  const binary = options.binary ?? findOnPath('redis-server');
  if (!binary) throw new Error(REDIS_MISSING_MESSAGE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });

  if (existsSync(socket)) {
    if (await pingSocket(socket)) {
      logger.warn({ socket }, 'reusing the redis-server already running on this socket');
      return { url, stop: () => shutdownOverSocket(socket) };
    }
    rmSync(socket, { force: true });
  }

  const conf = join(dir, 'redis.conf');
  writeFileSync(
    conf,
    [
      'port 0',
      `unixsocket ${quote(socket)}`,
      'unixsocketperm 700',
      `dir ${quote(dir)}`,
      'appendonly yes',
      'appendfsync everysec',
      'maxmemory-policy noeviction',
      // The Redis 6 name of hash-max-listpack-value, still accepted by Redis 7.
      `hash-max-ziplist-value ${HASH_MAX_LISTPACK_VALUE}`,
      'daemonize no',
      'logfile ""',
      'save ""',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );

  const child = spawn(binary, [conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: { code: number | null; signal: string | null } | undefined;
  let spawnError: Error | undefined;
  const exit = new Promise<void>((res) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      res();
    });
    child.on('error', (err) => {
      spawnError = err;
      res();
    });
  });

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (spawnError) {
      const missing = (spawnError as NodeJS.ErrnoException).code === 'ENOENT';
      throw new Error(missing ? REDIS_MISSING_MESSAGE : `redis-server could not start: ${spawnError.message}`);
    }
    if (exited) {
      throw new Error(
        `redis-server exited at start (code ${exited.code ?? exited.signal}). Its last output:\n${output.trim().split('\n').slice(-8).join('\n')}`,
      );
    }
    if (await pingSocket(socket)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `redis-server did not answer on ${socket} within 15 s. Its last output:\n${output.trim().split('\n').slice(-8).join('\n')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  logger.info({ socket, pid: child.pid }, 'embedded redis-server started (append-only file in the data directory)');

  let stopping: Promise<void> | undefined;
  return {
    url,
    stop: () => {
      stopping ??= (async () => {
        if (exited) return;
        // SIGTERM makes redis-server flush the append-only file and exit cleanly.
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
        logger.info('embedded redis-server stopped');
      })();
      return stopping;
    },
  };
}

async function shutdownOverSocket(path: string): Promise<void> {
  const client = new Redis({ path, maxRetriesPerRequest: 1, retryStrategy: () => null, lazyConnect: true });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.call('SHUTDOWN').catch(() => undefined);
  } catch {
    // already gone
  } finally {
    client.disconnect();
  }
}

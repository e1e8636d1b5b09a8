import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Tests need a real Redis. Use REDIS_URL or 127.0.0.1:6379 when one answers; otherwise start a
 * throwaway redis-server on a free port for this run. The URL reaches tests as TEST_REDIS_URL.
 */
let child: ChildProcess | undefined;
let dir: string | undefined;

function ping(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const sock = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.on('error', () => done(false));
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => done(d.toString().startsWith('+PONG') || d.toString().startsWith('-NOAUTH')));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * End-to-end tests run the built CLI (dist/cli.js), as users do, and child processes run dist/:
 * one build per run, as `npm start` builds it (scripts/build.mjs, the Lua scripts included), and
 * none when no source changed since the last one (a single test file re-run starts at once).
 */
function build(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit', cwd: root });
}

export async function setup(): Promise<void> {
  // vitest.config.ts has two projects, and each runs the global setup: the second finds the
  // first's build current and its Redis answering.
  build();
  for (const candidate of [process.env.TEST_REDIS_URL, process.env.REDIS_URL, 'redis://127.0.0.1:6379']) {
    if (candidate && (await ping(candidate))) {
      process.env.TEST_REDIS_URL = candidate;
      return;
    }
  }
  const port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'swapbot-test-redis-'));
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  child = server;
  // redis-server logs to stdout when it accepts connections: wait for that line, not a polling loop.
  const ready = await new Promise<boolean>((resolve) => {
    let log = '';
    server.stdout.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('Ready to accept connections')) resolve(true);
    });
    server.on('error', () => resolve(false));
    server.on('exit', () => resolve(false));
  });
  const url = `redis://127.0.0.1:${port}`;
  if (ready && (await ping(url))) {
    process.env.TEST_REDIS_URL = url;
    return;
  }
  throw new Error(
    'Tests need Redis: none answers at REDIS_URL or 127.0.0.1:6379 and redis-server could not be started. Install it (apt-get install redis-server) or set REDIS_URL.',
  );
}

export async function teardown(): Promise<void> {
  child?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
}

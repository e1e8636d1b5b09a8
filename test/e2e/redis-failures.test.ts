import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, CLI, freePort } from '../support/cli.js';
import { waitFor, WAIT_MS } from '../support/wait.js';

/**
 * The built CLI against a Redis that is not there (a closed port) or goes away: the terminal chat
 * says so once and exits; a worker waits quietly with /health at 503, starts once Redis answers,
 * and logs each outage in two lines, never a raw stack trace.
 */
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const c of cleanups.reverse()) c();
});

/** A throwaway redis-server on this port; resolves once it accepts connections. */
function redisServer(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  cleanups.push(() => void child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let log = '';
    child.stdout.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('Ready to accept connections')) resolve(child);
    });
    child.on('exit', () => reject(new Error(`redis-server exited: ${log.slice(-500)}`)));
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

async function get(port: number, path: string): Promise<{ status: number; body: string } | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: res.status, body: await res.text() };
  } catch {
    return undefined;
  }
}

/**
 * Waits until the worker's swapbot_redis_errors_total reaches `n`. Scraped every 500 ms: a scrape
 * while Redis is away counts its own failed reads too, so frequent scrapes would inflate it.
 */
function errorsReach(port: number, n: number, what: string): Promise<void> {
  return vi.waitFor(async () => expect(await redisErrors(port), what).toBeGreaterThanOrEqual(n), { timeout: WAIT_MS, interval: 500 });
}

/** swapbot_redis_errors_total on the worker's /metrics. */
async function redisErrors(port: number): Promise<number> {
  const page = await get(port, '/metrics');
  return Number(/^swapbot_redis_errors_total (\d+)/m.exec(page?.body ?? '')?.[1] ?? 0);
}

describe('a wrong REDIS_URL or a Redis outage, in the built CLI', () => {
  it('the terminal chat says once that Redis does not answer, naming REDIS_URL, and exits non-zero', async () => {
    const closed = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'swapbot-noredis-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const { code, stdout, stderr } = await runCli(['start'], '/quote 0.5 eth ethereum -> optimism\n', {
      REDIS_URL: `redis://:hunter2pass@127.0.0.1:${closed}`,
      DATA_DIR: dataDir,
    });
    expect(code).toBe(1);
    // No banner, no chat: nothing pretends all is well.
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `swapbot cannot reach Redis at REDIS_URL=redis://:***@127.0.0.1:${closed}: connect ECONNREFUSED 127.0.0.1:${closed}.\n` +
        'Start Redis there, correct REDIS_URL, or unset it to let swapbot start its own redis-server (needs redis-server on PATH).\n',
    );
  });

  it('a worker waits quietly for Redis with /health at 503, starts when it answers, and logs each outage in two lines', async () => {
    const redisPort = await freePort();
    const healthPort = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'swapbot-outage-proc-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const child = spawn(process.execPath, [CLI, 'worker'], {
      env: {
        PATH: process.env.PATH ?? '',
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        REDIS_PREFIX: 'outage-proc',
        LAYERSWAP_API_KEY: 'key',
        LAYERSWAP_API_URL: 'http://127.0.0.1:9',
        TELEGRAM_BOT_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ',
        TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
        PORT: String(healthPort),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const lines = () => out.split('\n').filter(Boolean);
    const count = (re: RegExp) => lines().filter((l) => re.test(l)).length;

    const script = async () => {
      // No Redis yet: one line for the connections, one naming REDIS_URL; /health 503; still running.
      await waitFor(() => count(/Redis does not answer \(check REDIS_URL/) === 1, 'the worker saying Redis does not answer');
      await errorsReach(healthPort, 30, 'connection errors while Redis is not there');
      expect((await get(healthPort, '/health'))?.status).toBe(503);
      expect(child.exitCode).toBeNull();

      // Redis appears: tracking starts, /health says ready.
      let server = await redisServer(redisPort, dir);
      await waitFor(() => count(/polling and notifying/) === 1, 'the worker starting its workers');
      await waitFor(async () => (await get(healthPort, '/health'))?.status === 200, '/health 200');
      await waitFor(() => count(/Redis available again/) === 1, 'the first "available again"');

      // An outage while running (queues, workers and their blocking connections all retry), then recovery.
      const before = await redisErrors(healthPort);
      await stopServer(server);
      await errorsReach(healthPort, before + 30, 'errors in the outage');
      server = await redisServer(redisPort, dir);
      await waitFor(() => count(/Redis available again/) === 2, 'the second "available again"');
      await waitFor(async () => (await get(healthPort, '/health'))?.status === 200, '/health 200 again');

      // Every line is one JSON log entry: no raw stack trace from a queue without an error listener.
      for (const line of lines()) expect(() => JSON.parse(line), line).not.toThrow();
      expect(count(/Redis connection problem/)).toBe(2);
      expect(count(/Redis available again/)).toBe(2);
      // This Redis keeps nothing across a restart (appendonly no, save ""): said once, at start.
      expect(count(/Redis runs without persistence \(appendonly no, save /)).toBe(1);
      expect(lines().length).toBeLessThanOrEqual(9);
      await stopServer(server);
    };
    // On failure, show what the worker printed.
    await script().catch((err: Error) => {
      err.message += `\nworker output:\n${out}`;
      throw err;
    });
  });

  it('REQUIRE_PERSISTENCE=1 refuses a Redis without the append-only file, naming the setting', async () => {
    const redisPort = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'swapbot-nopersist-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const server = await redisServer(redisPort, dir);
    const env = {
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_PREFIX: 'persist',
      LAYERSWAP_API_KEY: 'key',
      LAYERSWAP_API_URL: 'http://127.0.0.1:9',
      TELEGRAM_BOT_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ',
      TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
      PORT: String(await freePort()),
      REQUIRE_PERSISTENCE: '1',
    };
    const refused = await runCli(['worker'], '', env, 30_000);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /Redis runs without persistence \(appendonly no, save ""\).*Set appendonly yes.*REQUIRE_PERSISTENCE=1: not starting/,
    );
    expect(refused.stdout).not.toMatch(/polling and notifying/);
    await stopServer(server);
  });

  it('reads .env from the working directory, the environment winning over it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'swapbot-dotenv-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, '.env'), 'POLL_FAST_MS=abc\nLOG_LEVEL=loud\nREDIS_URL=redis://127.0.0.1:6379/notadb\n');
    const { code, stderr } = await runCli(['web'], '', { LOG_LEVEL: 'info' }, 30_000, dir);
    expect(code).toBe(2);
    // From .env: the malformed number and Redis database; and what web needs, in the same message.
    expect(stderr).toMatch(/POLL_FAST_MS="abc": must be a whole number/);
    expect(stderr).toMatch(/REDIS_URL=\(hidden\): the path after the host is the database number/);
    expect(stderr).toMatch(/LAYERSWAP_API_KEY is missing/);
    // The environment's LOG_LEVEL=info wins over the file's "loud".
    expect(stderr).not.toMatch(/LOG_LEVEL/);
  });
});

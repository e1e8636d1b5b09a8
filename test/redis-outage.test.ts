import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../src/log.js';
import { memoryLogger } from './support/log.js';
import { createRedis, logRedisErrors, redisOptionsFromUrl } from '../src/redis.js';
import { RedisOutageLog, redisOutageLog } from '../src/redis-outage.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../src/redis-server.js';
import { testRedisUrl } from './support/redis.js';
import { WAIT_MS } from './support/wait.js';

/**
 * A Redis outage is two log lines (it went, it came back), whatever the number of connections,
 * queues and workers and however often they retry: a real redis-server is stopped and started
 * again, and one is given a wrong password.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Three plain connections, a queue and a worker (each worker duplicates its connection): as in `swapbot worker`. */
function connections(url: string, logger: Logger, secrets: string[] = []): { clients: Redis[]; queue: Queue; worker: Worker } {
  const clients = ['core', 'tracking', 'tracking-poll'].map((name) => createRedis(url, { logger, name, maxRetriesPerRequest: null }));
  const queue = new Queue('outage-test', { connection: clients[1] as Redis, prefix: 'outage' });
  const worker = new Worker('outage-test', async () => undefined, {
    connection: createRedis(url, { logger, name: 'worker', maxRetriesPerRequest: null }),
    prefix: 'outage',
  });
  logRedisErrors(queue, 'queue outage-test', logger, secrets);
  logRedisErrors(worker, 'worker outage-test', logger, secrets);
  cleanups.push(async () => {
    await worker.close(true).catch(() => undefined);
    await queue.close().catch(() => undefined);
    for (const c of clients) c.disconnect();
  });
  return { clients, queue, worker };
}

const redisLines = (lines: string[]) => lines.filter((l) => /Redis|redis/.test(l));

describe('Redis outages in the log', () => {
  it('logs one line when Redis goes away and one when it is back, however many clients retry', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'swapbot-outage-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let server: EmbeddedRedis = await startEmbeddedRedis({ dataDir });
    cleanups.push(() => server.stop());
    const { logger, lines } = memoryLogger();
    const { clients, queue } = connections(server.url, logger);
    await queue.add('ping', {});
    await vi.waitFor(() => expect(clients.map((c) => c.status)).toEqual(clients.map(() => 'ready')), { timeout: WAIT_MS });
    expect(redisLines(lines)).toEqual([]);

    await server.stop();
    // Every client reconnects again and again while it is gone. The outage opens once a PING has
    // gone unanswered (up to a second): until then the errors count toward a suspected one, and a
    // Redis back before that would leave "down" false with nothing logged yet.
    await vi.waitFor(
      () => {
        expect(redisOutageLog(logger).down).toBe(true);
        expect(redisOutageLog(logger).errors).toBeGreaterThanOrEqual(15);
      },
      { timeout: WAIT_MS, interval: 50 },
    );
    server = await startEmbeddedRedis({ dataDir });
    await vi.waitFor(() => expect(clients.filter((c) => !(c.status === 'ready'))).toEqual([]), { timeout: WAIT_MS, interval: 50 });
    await queue.add('ping', {});
    // The next good reply clears it; on a loaded CI machine that can take over a second.
    await vi.waitFor(() => expect(redisOutageLog(logger).down).toBe(false), { timeout: WAIT_MS, interval: 50 });

    // What an operator sees at the default level (info): a job whose lock lapsed while Redis was gone
    // may add a debug line about it once Redis is back.
    const logged = redisLines(lines)
      .map((l) => JSON.parse(l) as { level: number; msg: string; errors?: number })
      .filter((l) => l.level >= 30);
    expect(logged.map((l) => [l.level, l.msg.replace(/after [\d.]+ s/, 'after N s').replace(/: .*\(/, ': … (')])).toEqual([
      [40, 'Redis connection problem: … (retrying; logged once until Redis answers again)'],
      [30, 'Redis available again after N s'],
    ]);
    expect(logged[1]?.errors).toBeGreaterThanOrEqual(15);
  });

  it('logs a wrong password once, without the password, however long it lasts', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const child: ChildProcess = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', 'right-pass-5512'],
      { stdio: 'ignore' },
    );
    cleanups.push(() => void child.kill('SIGKILL'));
    const probe = createRedis(`redis://:right-pass-5512@127.0.0.1:${port}`, { retryStrategy: () => 50 });
    await vi.waitFor(() => expect(probe.status).toBe('ready'), { timeout: WAIT_MS, interval: 50 });
    probe.disconnect();

    const { logger, lines } = memoryLogger();
    const url = `redis://:wrong-pass-9931@127.0.0.1:${port}`;
    expect(redisOptionsFromUrl(url).password).toBe('wrong-pass-9931');
    connections(url, logger, ['wrong-pass-9931']);
    await vi.waitFor(() => expect(redisOutageLog(logger).errors).toBeGreaterThanOrEqual(40), { timeout: WAIT_MS, interval: 50 });
    const logged = redisLines(lines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/Redis connection problem: (WRONGPASS|NOAUTH)/);
    expect(lines.join('')).not.toContain('wrong-pass-9931');
  });

  it('a queue error that arrives after every connection is ready again does not open an outage that never ends', async () => {
    const { logger, lines } = memoryLogger();
    // Not connected yet: the first error opens an outage, as when Redis is away.
    const core = createRedis(testRedisUrl(), { logger, name: 'core', lazyConnect: true });
    const queueConnection = createRedis(testRedisUrl(), { name: 'queue', maxRetriesPerRequest: null });
    const queue = new Queue('late-error', { connection: queueConnection, prefix: 'outage-late' });
    logRedisErrors(queue, 'queue late-error', logger);
    cleanups.push(async () => {
      await queue.close().catch(() => undefined);
      core.disconnect();
      queueConnection.disconnect();
    });
    queue.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    await vi.waitFor(() => expect(redisOutageLog(logger).down).toBe(true), { timeout: WAIT_MS, interval: 20 });
    await core.connect();
    await vi.waitFor(() => expect(redisOutageLog(logger).down).toBe(false), { timeout: WAIT_MS, interval: 20 });

    // The race: a queue reports a failure from before the recovery after the last 'ready'.
    queue.emit('error', new Error('Connection is closed.'));
    await vi.waitFor(() => expect(redisOutageLog(logger).errors).toBe(0), { timeout: WAIT_MS, interval: 20 });
    expect(redisOutageLog(logger).down).toBe(false);
    // What an operator reads at the default level (info): the stale report is a debug line.
    const shown = redisLines(lines)
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.level >= 30);
    expect(shown.map((l) => l.msg.replace(/after [\d.]+ s/, 'after N s'))).toEqual([
      'Redis connection problem: connect ECONNREFUSED 127.0.0.1:6379 (retrying; logged once until Redis answers again)',
      'Redis available again after N s',
    ]);
  });

  it('ends an outage on the first PONG, with no connection announcing it is ready', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'swapbot-pong-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = await startEmbeddedRedis({ dataDir });
    cleanups.push(() => server.stop());
    const { logger, lines } = memoryLogger();
    const log = new RedisOutageLog(logger, { probeEveryMs: 50, probeTimeoutMs: 300 });
    const client = createRedis(server.url, { name: 'core' });
    const admin = createRedis(server.url, { name: 'admin' });
    cleanups.push(() => {
      client.disconnect();
      admin.disconnect();
    });
    await vi.waitFor(() => expect([client.status, admin.status]).toEqual(['ready', 'ready']), { timeout: WAIT_MS, interval: 20 });
    log.watch(client, 'core');
    // Redis stops answering for 5 s (every command waits) while the connection stays up: a worker reports it.
    await admin.call('CLIENT', 'PAUSE', '5000', 'ALL');
    log.error('worker tracking-poll', new Error('Command timed out'));
    await vi.waitFor(() => expect(log.down).toBe(true), { timeout: WAIT_MS, interval: 20 });
    log.error('worker tracking-poll', new Error('Command timed out'));
    // It answers again once the pause ends; no connection was lost, so none emits 'ready'.
    await vi.waitFor(() => expect(log.down).toBe(false), { timeout: WAIT_MS, interval: 20 });
    const logged = redisLines(lines).map((l) => JSON.parse(l) as { msg: string; errors?: number; connection?: string });
    expect(logged.map((l) => l.msg.replace(/after [\d.]+ s/, 'after N s'))).toEqual([
      'Redis connection problem: Command timed out (retrying; logged once until Redis answers again)',
      'Redis available again after N s',
    ]);
    expect(logged[1]).toMatchObject({ connection: 'ping', errors: 2 });
  });
});

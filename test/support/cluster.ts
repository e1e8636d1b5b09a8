import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';
import { clusterUrl } from '../../src/redis.js';
import { WAIT_MS } from './wait.js';

/**
 * A real Redis Cluster for tests: three masters started with `redis-server --cluster-enabled yes`
 * on free ports in a temp dir, joined by `redis-cli --cluster create`, plus one replica of the
 * master that owns a chosen key (so killing that master exercises a failover of what the test
 * uses). Everything is removed by stop().
 */

export interface LocalCluster {
  /** `redis-cluster:127.0.0.1:p1,...` for createRedis / createTracking. */
  url: string;
  /** The masters' ports, then the replica's. */
  ports: number[];
  /** The port of the master the replica follows. */
  replicatedMaster: number;
  /** SIGKILLs the node on this port (no shutdown, no save). */
  kill(port: number): void;
  /** Resolves once the replica is a master and the cluster says ok. */
  waitForFailover(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function onPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, binary), constants.X_OK);
      return join(dir, binary);
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Why the cluster tests cannot run here, or undefined when they can (CI has redis-server). */
export function clusterUnavailable(): string | undefined {
  if (!onPath('redis-server') || !onPath('redis-cli'))
    return 'redis-server and redis-cli are not on PATH (apt-get install redis-server): the Redis Cluster tests are skipped';
  return undefined;
}

/** A port free for clients and for its cluster bus (port + 10000). */
async function freePort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 25_000);
    if (taken.has(port) || !(await isFree(port)) || !(await isFree(port + 10_000))) continue;
    taken.add(port);
    return port;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`local cluster: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function ask<T>(port: number, fn: (r: Redis) => Promise<T>): Promise<T> {
  const r = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return await fn(r);
  } finally {
    r.disconnect();
  }
}

const info = (port: number, what: string) => ask(port, (r) => r.call('CLUSTER', what) as Promise<string>);

export async function startCluster(opts: { replicaOfKey: string }): Promise<LocalCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'swapbot-cluster-'));
  const taken = new Set<number>();
  const ports = [await freePort(taken), await freePort(taken), await freePort(taken), await freePort(taken)];
  const nodes = new Map<number, ChildProcess>();
  // A test process that ends before stop() (a hook timeout while the nodes start, an aborted run)
  // still takes its nodes and their files with it.
  const leftovers = () => {
    for (const child of nodes.values()) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', leftovers);
  const stop = async () => {
    process.off('exit', leftovers);
    await Promise.all(
      [...nodes.values()].map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        return gone;
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      const child = spawn(
        'redis-server',
        [
          '--port',
          `${port}`,
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          '1500',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
          '--logfile',
          join(dir, `${port}.log`),
        ],
        { stdio: 'ignore' },
      );
      nodes.set(port, child);
    }
    for (const port of ports) await until(`node ${port} to answer`, () => ask(port, async (r) => (await r.ping()) === 'PONG'), 10_000);

    const masters = ports.slice(0, 3);
    const created = spawnSync('redis-cli', ['--cluster', 'create', ...masters.map((p) => `127.0.0.1:${p}`), '--cluster-yes'], {
      encoding: 'utf8',
      timeout: WAIT_MS,
    });
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    await until(
      'the cluster to say ok',
      async () => (await Promise.all(masters.map((p) => info(p, 'INFO')))).every((s) => s.includes('cluster_state:ok')),
      WAIT_MS,
    );

    // The replica follows the master that owns the chosen key's slot.
    const slot = await ask(masters[0] as number, (r) => r.call('CLUSTER', 'KEYSLOT', opts.replicaOfKey) as Promise<number>);
    const owners = (await ask(masters[0] as number, (r) => r.call('CLUSTER', 'SLOTS'))) as Array<
      [number, number, [string, number, string]]
    >;
    const owner = owners.find(([from, to]) => slot >= from && slot <= to);
    if (!owner) throw new Error(`local cluster: no master owns slot ${slot}`);
    const [, ownerPort, ownerId] = owner[2];
    const replicaPort = ports[3] as number;
    const added = spawnSync(
      'redis-cli',
      ['--cluster', 'add-node', `127.0.0.1:${replicaPort}`, `127.0.0.1:${ownerPort}`, '--cluster-slave', '--cluster-master-id', ownerId],
      { encoding: 'utf8', timeout: WAIT_MS },
    );
    if (added.status !== 0) throw new Error(`redis-cli --cluster add-node failed: ${added.stdout}${added.stderr}`);
    await until(
      'the replica to sync',
      () => ask(replicaPort, async (r) => /master_link_status:up/.test(await r.info('replication'))),
      WAIT_MS,
    );

    return {
      url: clusterUrl(masters.map((p) => `127.0.0.1:${p}`).join(',')),
      ports,
      replicatedMaster: ownerPort,
      kill(port) {
        nodes.get(port)?.kill('SIGKILL');
      },
      async waitForFailover(timeoutMs = WAIT_MS) {
        await until(
          'the replica to take over',
          async () => {
            const role = await ask(replicaPort, async (r) => r.info('replication'));
            return role.includes('role:master');
          },
          timeoutMs,
        );
        // Every node still up must agree the cluster is whole again: until then some answer
        // CLUSTERDOWN, and clients see an outage rather than a failover.
        const alive = ports.filter((p) => {
          const c = nodes.get(p);
          return c && c.exitCode === null && c.signalCode === null;
        });
        await until(
          'every node to say the cluster is ok',
          async () => (await Promise.all(alive.map((p) => info(p, 'INFO')))).every((s) => s.includes('cluster_state:ok')),
          timeoutMs,
        );
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

import { Cluster, type Redis } from 'ioredis';

/**
 * Whether Redis keeps what tracking writes across its own restart. Follows, poll jobs and delivery
 * records live only in Redis: without the append-only file a restart forgets every followed swap
 * (issue 33: "all tracking lost with two log lines"). Read with CONFIG GET at start; a managed
 * Redis that refuses CONFIG is reported as unknown, never as wrong.
 */
export type Persistence =
  | { kind: 'aof' }
  /** RDB snapshots only: a restart loses what changed since the last snapshot. */
  | { kind: 'rdb'; save: string }
  | { kind: 'none' }
  | { kind: 'unknown'; why: string };

async function ofNode(node: Redis): Promise<Persistence> {
  try {
    const [, appendonly] = (await node.config('GET', 'appendonly')) as string[];
    if (appendonly === 'yes') return { kind: 'aof' };
    const [, save] = (await node.config('GET', 'save')) as string[];
    return save && save.trim() ? { kind: 'rdb', save: save.trim() } : { kind: 'none' };
  } catch (err) {
    return { kind: 'unknown', why: err instanceof Error ? err.message.slice(0, 120) : 'no answer' };
  }
}

/** The weakest persistence of the masters (a cluster is as durable as its least durable master). */
export async function redisPersistence(redis: Redis | Cluster): Promise<Persistence> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const rank = { none: 0, rdb: 1, unknown: 2, aof: 3 } as const;
  let worst: Persistence = { kind: 'aof' };
  for (const node of nodes) {
    const p = await ofNode(node);
    if (rank[p.kind] < rank[worst.kind]) worst = p;
  }
  return worst;
}

/** The one line an operator reads: what a Redis restart would lose, and the setting that fixes it. */
export function persistenceProblem(p: Persistence): string | undefined {
  switch (p.kind) {
    case 'aof':
      return undefined;
    case 'rdb':
      return `Redis runs without the append-only file (appendonly no; RDB snapshots "${p.save}"): a Redis restart loses every follow, poll job and card record written since the last snapshot. Set appendonly yes (docs/reliability.md)`;
    case 'none':
      return 'Redis runs without persistence (appendonly no, save ""): a Redis restart loses every followed swap, poll job and card record. Set appendonly yes (docs/reliability.md)';
    case 'unknown':
      return `Redis persistence could not be read (CONFIG GET: ${p.why}): make sure appendonly is yes (docs/reliability.md)`;
  }
}

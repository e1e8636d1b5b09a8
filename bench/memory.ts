import { randomUUID } from 'node:crypto';
import { bytesPerSwap } from '../test/tracking/support/memory.js';
import { HASH_MAX_LISTPACK_VALUE } from '../src/redis-server.js';
import { keyBytes, usedMemory, type KeyBytes } from './env.js';
import type { Population } from './population.js';
import { emptySection, type Section } from './report.js';
import { fmt, progress, sleep, spread } from './stats.js';

/**
 * 4. Memory at 10,000 and 100,000 followed swaps: the worker process's RSS, and Redis bytes per
 * followed swap from INFO memory (used_memory) before and after, with the sum of MEMORY USAGE
 * over the run's own keys beside it (the Redis may be shared with other work, which moves
 * used_memory but not our keys).
 */

export interface MemoryReadings {
  /** used_memory before the population was followed. */
  before: number;
  /** bytes per followed swap at 10,000, polled (three readings in steady state). */
  tenKPerSwap: number[];
  tenKKeyBytesPerSwap: number;
  /** MEMORY USAGE of every key per followed swap, keys that do not grow with swaps apart (the tests' measure). */
  tenKUsage: { perSwap: number; fixed: number; byKind: Record<string, number> };
  tenKKeys: number;
  tenKFollowed: number;
  /** MEMORY USAGE by kind of key at 10,000 (bytes, keys). */
  tenKKinds: KeyBytes['kinds'];
  /** worker peak RSS (MB) during each latency repeat, with 10,000 followed. */
  tenKRss: number[];
  /** worker peak RSS (MB) while the 10,000 were being followed (20 s) and first polled. */
  followPeakRss: number;
  /** ms for one reconcile pass (every followed swap's poll job re-ensured) at 10,000. */
  reconcileMs: number;
}

export async function readTenK(
  pop: Population,
  before: number,
): Promise<Pick<MemoryReadings, 'tenKPerSwap' | 'tenKKeyBytesPerSwap' | 'tenKUsage' | 'tenKKeys' | 'tenKFollowed' | 'tenKKinds'>> {
  const redis = pop.bench.redis;
  const perSwap: number[] = [];
  for (let i = 0; i < 3; i++) {
    if (i) await sleep(1000);
    perSwap.push(((await usedMemory(redis.client)) - before) / pop.followed);
  }
  const k = await keyBytes(redis.client, pop.prefix);
  const usage = await bytesPerSwap(redis.client, pop.prefix, pop.followed);
  return {
    tenKPerSwap: perSwap,
    tenKKeyBytesPerSwap: k.bytes / pop.followed,
    tenKUsage: usage,
    tenKKeys: k.keys,
    tenKFollowed: pop.followed,
    tenKKinds: k.kinds,
  };
}

/** Adds 90,000 followed swaps whose polls do not run (3 batches), restarts the worker, measures. */
/** The worker's peak RSS (MB) over three 2-s windows. */
async function workerRss(pop: Population): Promise<number[]> {
  const handle = pop.worker?.handle;
  if (!handle) throw new Error('the worker is not running');
  const out: number[] = [];
  for (let i = 0; i < 3; i++) {
    await handle.call('resetPeak');
    await sleep(2000);
    out.push((await handle.call<{ peakRss: number }>('memory')).peakRss);
  }
  return out;
}

export async function runMemory(pop: Population, ten: MemoryReadings, total = 100_000): Promise<Section> {
  const section = emptySection(4, 'Memory: worker RSS and Redis bytes per followed swap');
  const redis = pop.bench.redis;
  const rss10 = await workerRss(pop);
  const extra = total - pop.followed;
  const batch = Math.ceil(extra / 3);
  const syntheticPerSwap: number[] = [];
  for (let i = 0; i < 3; i++) {
    const n = Math.min(batch, total - pop.followed);
    const m0 = await usedMemory(redis.client);
    const t0 = Date.now();
    await pop.followSynthetic(Array.from({ length: n }, () => randomUUID()));
    syntheticPerSwap.push(((await usedMemory(redis.client)) - m0) / n);
    progress(`followed ${n} more swaps (not polled) in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${pop.followed} in all`);
  }
  const keys = await keyBytes(redis.client, pop.prefix);

  // The worker process that has polled the 10,000 all along, now with 100,000 followed.
  const rss100 = await workerRss(pop);
  progress(`worker with ${pop.followed} followed: peak RSS ${fmt(Math.max(...rss100))} MB`);

  const kb = (xs: number[]) => spread(xs.map((x) => x / 1024));
  const tenK = kb(ten.tenKPerSwap);
  section.rows.push(
    { figure: `worker RSS, ${ten.tenKFollowed.toLocaleString('en-US')} followed (polled)`, unit: 'MB', value: spread(rss10) },
    {
      figure: `worker RSS, ${total.toLocaleString('en-US')} followed`,
      unit: 'MB',
      value: spread(rss100),
      beside: { label: `at ${ten.tenKFollowed.toLocaleString('en-US')}`, unit: 'MB', value: spread(rss10) },
      ratio: {
        label: `${total.toLocaleString('en-US')} / ${ten.tenKFollowed.toLocaleString('en-US')}`,
        value: spread(rss100.map((x, i) => x / (rss10[i] ?? NaN))),
      },
    },
    {
      figure: `Redis per followed swap, ${ten.tenKFollowed.toLocaleString('en-US')} polled: MEMORY USAGE of every key`,
      unit: 'KB',
      value: spread([ten.tenKUsage.perSwap / 1024]),
      beside: { label: 'used_memory delta', unit: 'KB', value: tenK },
    },
    {
      figure: `Redis per followed swap, +${extra.toLocaleString('en-US')} not polled yet`,
      unit: 'KB',
      value: kb(syntheticPerSwap),
      beside: {
        label: `MEMORY USAGE of our keys, all ${total.toLocaleString('en-US')}`,
        unit: 'KB',
        value: spread([keys.bytes / pop.followed / 1024]),
      },
    },
  );
  const worstRss = spread(rss100).median;
  const usageKb = ten.tenKUsage.perSwap / 1024;
  // The swap hash stays a compact listpack only under the documented setting (the embedded Redis's).
  const listpack = Number(((await redis.client.config('GET', 'hash-max-listpack-value')) as string[])[1] ?? NaN);
  const listpackNote =
    listpack < HASH_MAX_LISTPACK_VALUE
      ? ` This Redis has hash-max-listpack-value ${listpack} (documented: ${HASH_MAX_LISTPACK_VALUE}), so each swap's hash is a hash table: measure with BENCH_EMBEDDED_REDIS=1 or a Redis set as documented.`
      : '';
  const largest = Object.entries(ten.tenKUsage.byKind)
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  section.targets.push(
    {
      text: `worker RSS <= 250 MB at ${total.toLocaleString('en-US')} followed swaps`,
      measured: `${fmt(worstRss)} MB`,
      pass: Number.isFinite(worstRss) ? worstRss <= 250 : null,
    },
    {
      text: 'Redis <= 1.8 KB per followed swap (polled: MEMORY USAGE of its hash, poll job and follower counters, per swap)',
      measured: `${fmt(usageKb)} KB (used_memory delta ${fmt(tenK.median)} KB; ${fmt(kb(syntheticPerSwap).median)} KB before its first poll)`,
      pass: Number.isFinite(usageKb) ? usageKb <= 1.8 : null,
      ...(usageKb > 1.8 ? { why: `bytes per swap by kind of key: ${largest}.${listpackNote}` } : {}),
    },
  );
  const perSwap = (kinds: KeyBytes['kinds'], minus: KeyBytes['kinds'] | undefined, n: number) =>
    [...kinds]
      .map(([kind, v]) => [kind, (v.bytes - (minus?.get(kind)?.bytes ?? 0)) / n] as const)
      .filter(([, b]) => b >= 20)
      .sort((a, b) => b[1] - a[1])
      .map(([kind, b]) => `${kind} ${Math.round(b)}`)
      .join(', ');
  section.notes.push(
    `worker RSS: the peak over each of three 2-s windows (sampled every 100 ms) while the worker keeps polling the 10,000; it peaked at ${fmt(ten.followPeakRss)} MB while the 10,000 were followed within 20 s and first polled, ` +
      `and at ${fmt(Math.max(...ten.tenKRss))} MB during the latency runs (V8 lets the heap grow before a full collection).`,
    `where Redis goes (MEMORY USAGE by kind of key, bytes per followed swap): polled: ${largest} (plus ${fmt(ten.tenKUsage.fixed / 1024)} KB for the deployment: queue metadata, capped event streams, limiters); ` +
      `not polled yet: ${perSwap(keys.kinds, ten.tenKKinds, pop.followed - ten.tenKFollowed)}.`,
    `Redis hash-max-listpack-value: ${listpack}.${listpackNote} MEMORY USAGE per swap is the tests' measure (test/tracking/support/memory.ts): every key under the deployment's prefix, keys that do not grow with swaps apart; used_memory also counts Redis's own overhead and other clients of a shared Redis.`,
    `one reconcile pass (the worker re-ensures every followed swap's poll job at start and every 5 min, one request each, in sequence) took ${fmt(ten.reconcileMs / 1000)} s at ${ten.tenKFollowed.toLocaleString('en-US')} followed: ~${fmt((ten.reconcileMs / ten.tenKFollowed) * 100)} s at 100,000, which also delays a worker's start.`,
    `10,000: real sandbox swaps waiting for a deposit, each followed from one chat and polled (state, last details and delivery record stored); ${ten.tenKKeys.toLocaleString('en-US')} keys. ` +
      `Bytes per swap = (used_memory now - used_memory before the follows) / followed swaps, read three times in steady state.`,
    `100,000: ${extra.toLocaleString('en-US')} more followed in 3 batches with random swap ids the sandbox does not know (it keeps at most 50,000 swaps); their poll jobs are created delayed by a day, so their polls never run: ` +
      `these rows cost a subscription and a poll job, not the stored state of a polled swap. Each followed swap here has its own chat and user (the worst case for the per-chat and per-user keys).`,
  );
  return section;
}

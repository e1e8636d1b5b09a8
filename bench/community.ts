import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import { createRedis, redisOptionsFromUrl } from '../src/redis.js';
import { createTracking, type Tracking } from '../src/tracking/engine.js';
import { BENCH_LIMITS, type Bench } from './context.js';
import { followFrom, followSwaps, sampleUsage, seedUsers, swapKeys, userKeys } from './community-seed.js';
import { openRedis, type BenchRedis } from './env.js';
import { runFanout, type FanoutOptions } from './fanout.js';
import type { ChildHandle } from './ipc.js';
import { LATENCY_CADENCE } from './population.js';
import { emptySection, type Section } from './report.js';
import { fmt, progress, sleep, spread, waitFor } from './stats.js';

/**
 * 8. At community size, counts and ratios in one run: a million known users (language, settings,
 * saved addresses) and 100,000 followed swaps in a Redis of the part's own, written through the
 * bot's stores (community-seed.ts); bytes per user and per swap; the worker's RSS and heap with
 * them beside a worker with nothing to follow; then one change to 20,000 chats (part 6 at width).
 */

export interface CommunityOptions {
  users: number;
  /** Followed swaps in all, `polled` of them real sandbox swaps the worker polls. */
  swaps: number;
  polled: number;
  inFlight: number;
  /** Users and swaps whose keys are measured one by one (MEMORY USAGE). */
  sample: number;
  fanout: Partial<FanoutOptions>;
}

const DEFAULTS: CommunityOptions = {
  users: 1_000_000,
  swaps: 100_000,
  polled: 1_000,
  inFlight: 2_000,
  sample: 2_000,
  fanout: { telegramChats: 8_000, discordChannels: 12_000, repeats: 1 },
};

interface WorkerMemory {
  /** Peak RSS (MB) over each of three 2-s windows. */
  rss: number[];
  heap: Record<string, unknown> & { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
  startMs: number;
}

interface RedisMemory {
  used: number;
  rss: number;
  peak: number;
}

async function redisMemory(r: Redis): Promise<RedisMemory> {
  const info = await r.info('memory');
  const n = (k: string) => Number(new RegExp(`^${k}:(\\d+)`, 'm').exec(info)?.[1] ?? NaN);
  return { used: n('used_memory'), rss: n('used_memory_rss'), peak: n('used_memory_peak') };
}

/** Peak RSS over three 2-s windows, then the heap's parts (and a snapshot when BENCH_HEAP_SNAPSHOT names a directory). */
async function readWorker(handle: ChildHandle, startMs: number, label: string): Promise<WorkerMemory> {
  const rss: number[] = [];
  for (let i = 0; i < 3; i++) {
    await handle.call('resetPeak');
    await sleep(2000);
    rss.push((await handle.call<{ peakRss: number }>('memory')).peakRss);
  }
  const heap = await handle.call<WorkerMemory['heap']>('heap');
  const dir = process.env.BENCH_HEAP_SNAPSHOT;
  if (dir) progress(`heap snapshot: ${await handle.call<string>('snapshot', `${dir}/${label}-${Date.now()}.heapsnapshot`)}`);
  return { rss, heap, startMs };
}

function tracking(b: Bench, url: string, prefix: string): Tracking {
  return createTracking({
    redis: { ...redisOptionsFromUrl(url), enableAutoPipelining: true },
    prefix,
    api: b.api,
    limits: BENCH_LIMITS,
    cadence: LATENCY_CADENCE,
  });
}

export async function runCommunity(b: Bench, opts: Partial<CommunityOptions> = {}): Promise<Section> {
  const o = { ...DEFAULTS, ...opts, fanout: { ...DEFAULTS.fanout, ...opts.fanout } };
  const n = (x: number) => x.toLocaleString('en-US');
  const section = emptySection(8, `Community size: ${n(o.users)} users, ${n(o.swaps)} followed swaps, one change to many chats`);
  const own: BenchRedis = await openRedis({ embedded: true });
  // Counts and bytes only: no append-only file (its rewrite forks a copy of a large dataset).
  await own.client.config('SET', 'appendonly', 'no');
  const prefix = own.prefix;
  const seed = createRedis(own.url, { enableAutoPipelining: true, name: 'bench-seed' });
  let ctl: Tracking | undefined;
  let worker: ChildHandle | undefined;
  try {
    const m0 = await redisMemory(own.client);
    let t0 = performance.now();
    await seedUsers(seed, prefix, { users: o.users, inFlight: o.inFlight });
    const seedS = (performance.now() - t0) / 1000;
    const m1 = await redisMemory(own.client);
    progress(`${n(o.users)} users in ${fmt(seedS)} s; Redis used_memory ${fmt(m1.used / 1048576)} MB`);
    const userSample = Array.from({ length: o.sample }, () => userKeys(prefix, Math.floor(Math.random() * o.users)));
    const perUserKind = await sampleUsage(own.client, userSample);

    // A worker with nothing to follow: the floor the followed swaps add to.
    const empty = await b.startWorker('community-empty', {
      ...b.workerConfig(`${prefix}-empty`, { cadence: LATENCY_CADENCE }),
      redisUrl: own.url,
    });
    const base = await readWorker(empty.handle, empty.startMs, 'empty');
    await empty.handle.stop();

    ctl = tracking(b, own.url, prefix);
    const synthetic = Array.from({ length: o.swaps - o.polled }, () => randomUUID());
    t0 = performance.now();
    await followSwaps(seed, ctl, prefix, synthetic, { inFlight: 500 });
    const followS = (performance.now() - t0) / 1000;
    const m2 = await redisMemory(own.client);
    progress(`${n(synthetic.length)} followed swaps in ${fmt(followS)} s; Redis used_memory ${fmt(m2.used / 1048576)} MB`);
    const swapSample = synthetic.slice(0, o.sample).map((id) => swapKeys(prefix, id));
    const perSwapKind = await sampleUsage(own.client, swapSample);
    const followerParty = await sampleUsage(
      own.client,
      Array.from({ length: Math.min(o.sample, synthetic.length) }, (_, i) => ({ party: userKeys(prefix, i).party })),
    );

    // The worker with every swap followed: its start re-ensures every poll job; then real swaps it polls.
    const started = await b.startWorker('community-worker', { ...b.workerConfig(prefix, { cadence: LATENCY_CADENCE }), redisUrl: own.url });
    worker = started.handle;
    const atStart = {
      peak: (await worker.call<{ peakRss: number }>('memory')).peakRss,
      heap: await worker.call<WorkerMemory['heap']>('heap'),
    };
    progress(`worker started with ${n(synthetic.length)} followed in ${fmt(started.startMs / 1000)} s: peak RSS ${fmt(atStart.peak)} MB`);
    const real = await b.createSwaps(o.polled);
    const polled0 = await b.sandbox.count('getSwap');
    await followFrom(ctl, real, { inFlight: 50, firstUser: synthetic.length });
    const c = ctl;
    const settled = await waitFor(
      async () => (await b.sandbox.count('getSwap')) - polled0 >= real.length && (await c.pendingNotifications()) === 0,
      180_000,
      250,
    );
    if (!settled) section.notes.push('the polled swaps had not all been polled and told within 180 s when the worker was read.');
    const full = await readWorker(worker, started.startMs, 'full');
    const m3 = await redisMemory(own.client);
    progress(`worker with ${n(o.swaps)} followed: peak RSS ${fmt(Math.max(...full.rss))} MB (empty: ${fmt(Math.max(...base.rss))} MB)`);
    report(section, o, { seedS, followS, m0, m1, m2, m3, perUserKind, perSwapKind, followerParty, base, full, atStart });
  } finally {
    await worker?.stop();
    await ctl?.close();
    await seed.quit().catch(() => seed.disconnect());
    // A private Redis: emptied at once rather than key by key.
    await own.client.flushall('ASYNC').catch(() => undefined);
    await own.close();
  }
  await fanoutWide(b, section, o.fanout);
  return section;
}

interface Readings {
  seedS: number;
  followS: number;
  m0: RedisMemory;
  m1: RedisMemory;
  m2: RedisMemory;
  m3: RedisMemory;
  perUserKind: Record<string, number>;
  perSwapKind: Record<string, number>;
  followerParty: Record<string, number>;
  base: WorkerMemory;
  full: WorkerMemory;
  /** Right after the start (its pass over every followed swap), before the polled swaps: the peak since the process began. */
  atStart: { peak: number; heap: WorkerMemory['heap'] };
}

function report(section: Section, o: CommunityOptions, r: Readings): void {
  const n = (x: number) => x.toLocaleString('en-US');
  const synthetic = o.swaps - o.polled;
  const perUser = (r.m1.used - r.m0.used) / o.users;
  const perSwap = (r.m2.used - r.m1.used) / synthetic;
  const userUsage = Object.values(r.perUserKind).reduce((a, x) => a + x, 0);
  const swapUsage = Object.values(r.perSwapKind).reduce((a, x) => a + x, 0);
  const rss = spread(r.full.rss);
  const baseRss = spread(r.base.rss);
  const kinds = (k: Record<string, number>) =>
    Object.entries(k)
      .map(([kind, v]) => `${kind} ${Math.round(v)}`)
      .join(', ');
  section.rows.push(
    {
      figure: `Redis per known user (${n(o.users)}): used_memory delta`,
      unit: 'B',
      value: spread([perUser]),
      beside: { label: 'MEMORY USAGE of their keys, sampled', unit: 'B', value: spread([userUsage]) },
    },
    {
      figure: `Redis per followed swap (${n(synthetic)}, not polled yet): used_memory delta`,
      unit: 'B',
      value: spread([perSwap]),
      beside: { label: 'MEMORY USAGE of its hash and poll job, sampled', unit: 'B', value: spread([swapUsage]) },
    },
    {
      figure: `Redis used_memory with ${n(o.users)} users and ${n(o.swaps)} followed`,
      unit: 'MB',
      value: spread([r.m3.used / 1048576]),
      beside: { label: 'used_memory_rss (peak used_memory)', unit: 'MB', value: spread([r.m3.rss / 1048576]) },
    },
    {
      figure: `writing ${n(o.users)} users through the stores / following ${n(synthetic)} swaps`,
      unit: 's',
      value: spread([r.seedS]),
      beside: { label: 'follows', unit: 's', value: spread([r.followS]) },
    },
    {
      figure: `worker RSS, ${n(o.swaps)} followed (${n(o.polled)} polled)`,
      unit: 'MB',
      value: rss,
      beside: { label: 'a worker following nothing', unit: 'MB', value: baseRss },
      ratio: { label: 'full / empty', value: spread(r.full.rss.map((x, i) => x / (r.base.rss[i] ?? NaN))) },
    },
    {
      figure: 'worker V8 heap used',
      unit: 'MB',
      value: spread([r.full.heap.heapUsed]),
      beside: { label: 'following nothing', unit: 'MB', value: spread([r.base.heap.heapUsed]) },
    },
    {
      figure: 'worker peak RSS through its start, before the polled swaps',
      unit: 'MB',
      value: spread([r.atStart.peak]),
      beside: { label: 'heap used then', unit: 'MB', value: spread([r.atStart.heap.heapUsed]) },
    },
    {
      figure: `worker start (re-ensures ${n(synthetic)} poll jobs)`,
      unit: 's',
      value: spread([r.full.startMs / 1000]),
      beside: { label: 'empty', unit: 's', value: spread([r.base.startMs / 1000]) },
    },
  );
  section.targets.push({
    text: `worker RSS <= 200 MB at ${n(o.swaps)} followed swaps`,
    measured: `${fmt(rss.median)} MB (peak ${fmt(rss.max)})`,
    pass: Number.isFinite(rss.median) ? rss.max <= 200 : null,
  });
  const heapLine = (h: WorkerMemory['heap']) =>
    `RSS ${fmt(h.rss)} (anonymous ${fmt(Number(h.rssAnon))}, files ${fmt(Number(h.rssFile))}), heap used ${fmt(h.heapUsed)} of ${fmt(h.heapTotal)}, external ${fmt(h.external)} (array buffers ${fmt(h.arrayBuffers)}), malloced ${fmt(Number(h.mallocedMemory))}; spaces ${JSON.stringify(h.spaces, (_, v: unknown) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}`;
  section.notes.push(
    `${n(o.users)} known users written through the bot's stores (LanguageStore.set, SettingsStore.save, RedisAddressBook.remember: one saved EVM address each, a Solana one for every other user), a third on Discord, on one auto-pipelined client with ${n(o.inFlight)} users in flight; by kind of key, MEMORY USAGE mean over ${n(o.sample)} sampled users (B): ${kinds(r.perUserKind)}.`,
    `${n(synthetic)} swaps followed through the tracking service (swap i from user i's private chat: their party hash gets the listing and counters), poll jobs made first with the engine's id and options, delayed a day; by kind (B): ${kinds(r.perSwapKind)}; a follower's party hash grows to ${Math.round(r.followerParty.party ?? NaN)} B (the listing). The per-swap used_memory delta also holds the active-swaps set, the delayed zset and the listing entry.`,
    `Redis (its own embedded redis-server, appendonly off): used_memory ${fmt(r.m0.used / 1048576)} MB empty, ${fmt(r.m1.used / 1048576)} MB with the users, ${fmt(r.m2.used / 1048576)} MB with the follows, ${fmt(r.m3.used / 1048576)} MB at the end; used_memory_rss ${fmt(r.m3.rss / 1048576)} MB, peak used_memory ${fmt(r.m3.peak / 1048576)} MB.`,
    `worker (the bench's worker process: real engine, Telegram and Discord messengers): with ${n(o.swaps)} followed, ${n(o.polled)} of them real sandbox swaps polled and told to their users' chats: ${heapLine(r.full.heap)}. Following nothing: ${heapLine(r.base.heap)}. Right after its start: ${heapLine(r.atStart.heap)}. MB; RSS is the peak over three 2-s windows.`,
  );
}

/** Part 6 at width: one change to the many chats of a large community, at the platforms' real limits. */
async function fanoutWide(b: Bench, section: Section, o: Partial<FanoutOptions>): Promise<void> {
  const fan = await runFanout(b, o).catch((e: unknown) => {
    section.notes.push(`fan-out failed: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  });
  if (!fan) return;
  section.rows.push(...fan.rows);
  section.targets.push(...fan.targets);
  const wide = fan.rows[0];
  const ratio = wide?.ratio?.value?.median ?? NaN;
  section.targets.push({
    text: 'one change to every chat within 1.2x the floor the platform limits set',
    measured: `${fmt(ratio)}x`,
    pass: Number.isFinite(ratio) ? ratio <= 1.2 : null,
  });
  section.notes.push(...fan.notes.map((x) => `fan-out: ${x}`));
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Bench } from './context.js';
import { runCommands } from './commands.js';
import { runEconomy } from './economy.js';
import { runFanout } from './fanout.js';
import { deleteKeys, openRedis, usedMemory } from './env.js';
import { runLatency } from './latency.js';
import { readTenK, runMemory, type MemoryReadings } from './memory.js';
import { LATENCY_CADENCE, Population } from './population.js';
import { progress, waitFor } from './stats.js';
import { emptySection, renderTable, renderTargets, type Section } from './report.js';
import { runThroughput } from './throughput.js';
import { runRepeats } from './repeats.js';
import { runPay } from './pay.js';
import { runMcp } from './mcp.js';
import { runCommunity } from './community.js';
import { runSolana } from './solana.js';
import { runTonChain } from './ton-chain.js';
import { runChainWorkers } from './chain-workers.js';
import { runIngress } from './ingress.js';

/**
 * `npm run bench`: starts everything on 127.0.0.1 (the sandbox, Redis or an embedded one, the
 * tracking workers, fake Telegram and Discord), measures, prints the table and writes
 * bench/results.json. Every part runs even when another fails; a part that cannot run says why.
 */

/** The repository: this file runs compiled as bench/dist/bench/run.js (bench/tsconfig.json). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function part(sections: Section[], id: number, title: string, run: () => Promise<Section>): Promise<void> {
  const t0 = performance.now();
  process.stdout.write(`[bench] ${id}. ${title}...\n`);
  let s: Section;
  try {
    s = await run();
  } catch (e) {
    s = emptySection(id, title);
    s.skipped = `failed: ${e instanceof Error ? e.message : String(e)}`;
    process.stderr.write(`[bench] part ${id} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  }
  s.durationMs = performance.now() - t0;
  sections.push(s);
  process.stdout.write(`[bench] ${id}. done in ${(s.durationMs / 1000).toFixed(1)} s\n`);
}

/**
 * BENCH_QUICK=1: every part, small (a minute or two), to check the bench works; its figures are
 * not the ones to publish.
 */
const QUICK = process.env.BENCH_QUICK === '1';
/** BENCH_ONLY=5 (or 1,5): only these parts, to look into one; written like a quick run, never published. */
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map(Number)) : undefined;
const runs = (id: number) => !ONLY || ONLY.has(id);
/** Followed swaps in parts 2 and 4 (with the measured ones of part 2: 10,000). */
const POPULATION = QUICK ? 450 : 9_850;
const SIZES = QUICK
  ? {
      throughput: { swaps: 300, repeats: 1, warmupMs: 500, windowMs: 1500 },
      latency: { repeats: 1, telegramChats: 5, discordChannels: 5, steps: 3 },
      memoryTotal: 2_000,
      commands: { repeats: 1, perRepeat: 40, warmup: 10 },
      fanout: { telegramChats: 100, discordChannels: 100, repeats: 1 },
      economy: { swaps: 6, typicalSpeed: 30, abandonedSpeed: 1200 },
      repeats: { busyRouteSwaps: 1_000, routes: 20, idleAddresses: 20, busyAddresses: 5, hours: 2 },
      mcp: { repeats: 1, perRepeat: 40, warmup: 10, webhooks: 30 },
      community: { users: 20_000, swaps: 5_000, polled: 100, sample: 500, fanout: { telegramChats: 200, discordChannels: 300 } },
    }
  : { throughput: {}, latency: {}, memoryTotal: 100_000, commands: {}, fanout: {}, economy: {}, repeats: {}, mcp: {}, community: {} };

/** Parts 2 and 4 share one population of 10,000 followed swaps and its worker. */
async function populationParts(sections: Section[], bench: Bench, swaps: string[]): Promise<void> {
  const pop = new Population(bench, `${bench.redis.prefix}-pop`);
  const mem: MemoryReadings = {
    before: 0,
    tenKPerSwap: [],
    tenKKeyBytesPerSwap: NaN,
    tenKUsage: { perSwap: NaN, fixed: NaN, byKind: {} },
    tenKKeys: 0,
    tenKFollowed: 0,
    tenKKinds: new Map(),
    tenKRss: [],
    followPeakRss: NaN,
    reconcileMs: NaN,
  };
  const worker = () => {
    if (!pop.worker) throw new Error('the worker is not running');
    return pop.worker.handle;
  };
  try {
    await part(sections, 2, 'Update latency', async () => {
      mem.before = await usedMemory(bench.redis.client);
      await pop.startWorker();
      const polled0 = await bench.sandbox.count('getSwap');
      await pop.followSpread(swaps, LATENCY_CADENCE.slowMs);
      // Settled: every swap polled once and every first card delivered.
      await waitFor(
        async () => (await bench.sandbox.count('getSwap')) - polled0 >= swaps.length && (await pop.ctl.pendingNotifications()) === 0,
        120_000,
        250,
      );
      Object.assign(mem, await readTenK(pop, mem.before));
      const r0 = performance.now();
      await pop.ctl.reconcile();
      mem.reconcileMs = performance.now() - r0;
      mem.followPeakRss = (await worker().call<{ peakRss: number }>('memory')).peakRss;
      await worker().call('resetPeak');
      return runLatency(pop, SIZES.latency, async () => {
        mem.tenKRss.push((await worker().call<{ peakRss: number }>('memory')).peakRss);
        await worker().call('resetPeak');
      });
    });
    await part(sections, 4, 'Memory', () => runMemory(pop, mem, SIZES.memoryTotal));
  } finally {
    await pop.close();
    await deleteKeys(bench.redis.client, pop.prefix);
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const date = new Date().toISOString();
  const load0 = os.loadavg()[0] ?? NaN;
  const sections: Section[] = [];
  const redis = await openRedis();
  process.stdout.write(`[bench] Redis ${redis.version} (${redis.source}), key prefix ${redis.prefix}\n`);
  const bench = await Bench.start(redis);
  const stop = async () => {
    await bench.close();
    await redis.close();
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    const t0 = Date.now();
    const swaps = runs(1) || runs(2) || runs(3) || runs(4) ? await bench.createSwaps(POPULATION) : [];
    progress(`created ${swaps.length} sandbox swaps in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (runs(1)) await part(sections, 1, 'Tracking throughput', async () => (await runThroughput(bench, swaps, SIZES.throughput)).section);
    if (runs(2) || runs(4)) await populationParts(sections, bench, swaps);
    if (runs(3)) await part(sections, 3, 'Command latency', () => runCommands(bench, swaps[0] as string, SIZES.commands));
    if (runs(6)) await part(sections, 6, 'Fan-out', () => runFanout(bench, SIZES.fanout));
    if (runs(5)) await part(sections, 5, 'API economy', () => runEconomy(bench, SIZES.economy));
    if (runs(7)) await part(sections, 7, 'Observed route times and watched addresses', () => runRepeats(bench, SIZES.repeats));
    if (runs(8)) await part(sections, 8, 'Community size', () => runCommunity(bench, SIZES.community));
    if (runs(9)) await part(sections, 9, 'Pay page', () => runPay(ROOT, redis.url, redis.prefix, QUICK ? 3 : 10));
    if (runs(10)) await part(sections, 10, 'Agents (MCP)', () => runMcp(bench, SIZES.mcp));
    if (runs(11))
      await part(sections, 11, 'Solana deposits on chain', () =>
        runSolana(redis.url, redis.prefix, QUICK ? { swaps: 4, windowMs: 5_000 } : { swaps: 20, windowMs: 30_000 }),
      );
    if (runs(12))
      await part(sections, 12, 'Chain watch across workers', () =>
        runChainWorkers(bench, QUICK ? { swaps: 6, windowMs: 10_000, deposits: 3 } : {}),
      );
    if (runs(13)) await part(sections, 13, 'Ingress', () => runIngress(bench, QUICK ? { updates: 300, mixed: { windowMs: 2_000 } } : {}));
    if (runs(14)) await part(sections, 14, 'TON chain watch', () => runTonChain({ windowMs: QUICK ? 15_000 : 60_000 }));
  } finally {
    await stop();
  }
  sections.sort((a, b) => a.id - b.id);
  const table = renderTable(sections) + '\n' + renderTargets(sections);
  const cpus = os.cpus();
  const machine = {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGb: Math.round((os.totalmem() / 1073741824) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    redis: `${redis.version} (${redis.source})`,
    /** 1-minute load average at the start and the end: other work on the machine skews figures. */
    loadAverage: { start: load0, end: os.loadavg()[0] ?? NaN },
  };
  const header = `swapbot benchmark${QUICK ? ' (QUICK: reduced sizes, not for publishing)' : ''}, ${date}: ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, Redis ${machine.redis}; load average ${load0.toFixed(1)} at start, ${machine.loadAverage.end.toFixed(1)} at end`;
  process.stdout.write(`\n${header}\n${table}\n`);
  // A quick or partial run never overwrites the published figures.
  const out = join(ROOT, 'bench', QUICK || ONLY ? 'results-quick.json' : 'results.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify(
      { date, machine, durationMs: Math.round(performance.now() - started), table: `${header}\n${table}`, sections },
      null,
      2,
    ) + '\n',
  );
  process.stdout.write(`\n[bench] wrote ${out} (total ${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  if (ONLY && !QUICK && process.env.BENCH_PUBLISH === '1')
    publishParts(join(ROOT, 'bench', 'results.json'), { date, machine, header, sections });
}

/**
 * BENCH_ONLY=8 BENCH_PUBLISH=1: a part run alone at full size (part 8 takes long) is kept in
 * results.json under `partRuns`, dated, beside the last full run's sections (left as they were).
 */
function publishParts(file: string, run: { date: string; machine: unknown; header: string; sections: Section[] }): void {
  const json = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as { partRuns?: Record<string, unknown> };
  json.partRuns ??= {};
  for (const s of run.sections)
    json.partRuns[String(s.id)] = {
      date: run.date,
      machine: run.machine,
      table: `${run.header}\n${renderTable([s])}\n${renderTargets([s])}`,
      section: s,
    };
  writeFileSync(file, JSON.stringify(json, null, 2) + '\n');
  process.stdout.write(`[bench] kept parts ${run.sections.map((s) => s.id).join(', ')} in ${file} (partRuns)\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`[bench] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  // What failed half-built may hold connections nothing can close: end instead of hanging.
  process.exit(1);
});

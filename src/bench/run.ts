import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Bench } from './context.js';
import { runEconomy } from './economy.js';
import { openRedis } from './env.js';
import { emptySection, renderTable, renderTargets, type Section } from './report.js';
import { runThroughput } from './throughput.js';

/**
 * `npm run bench`: starts everything on 127.0.0.1 (the sandbox, Redis or an embedded one, the
 * tracking workers, fake Telegram and Discord), measures, prints the table and writes
 * bench/results.json. Every part runs even when another fails; a part that cannot run says why.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

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

async function main(): Promise<void> {
  const started = performance.now();
  const date = new Date().toISOString();
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
    await part(sections, 1, 'Tracking throughput', async () => (await runThroughput(bench)).section);
    await part(sections, 5, 'API economy', async () => runEconomy());
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
  };
  const header = `swapbot benchmark, ${date}: ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, Redis ${machine.redis}`;
  process.stdout.write(`\n${header}\n${table}\n`);
  const out = join(ROOT, 'bench', 'results.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ date, machine, durationMs: Math.round(performance.now() - started), table: `${header}\n${table}`, sections }, null, 2) + '\n');
  process.stdout.write(`\n[bench] wrote ${out} (total ${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`[bench] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});

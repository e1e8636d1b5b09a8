import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ChatTarget } from '../src/contracts/incoming.js';
import { TrackingKeys } from '../src/contracts/keys.js';
import { pollCadence } from '../src/app/runtime.js';
import { listen, readBody, type Listening } from '../src/http.js';
import { LayerswapClient } from '../src/layerswap/client.js';
import { eachLimit, SANDBOX_TIMINGS, SandboxHandle, SWAP_BODY, type Bench } from './context.js';
import { CONFIG_DEFAULTS } from './defaults.js';
import { deleteKeys } from './env.js';
import type { ChildHandle } from './ipc.js';
import { emptySection, type Section } from './report.js';
import type { SinkEvent } from './sinks/sink-event.js';
import { fmt, percentile, progress, sleep, spread, waitFor } from './stats.js';

/**
 * 12. The chain watch across workers (issue 38): one watch job per network, whichever worker runs
 * it. A sandbox with its EVM networks on a local EDR node mining a block every `blockMs`; swaps
 * waiting for their deposit on one network (Ethereum), followed from Telegram private chats; 1, 2
 * and 4 worker processes (`swapbot worker` as the bench runs it) on one Redis prefix, each
 * reaching the chain through a counting proxy of its own, at the production head interval (2 s).
 * Measured per worker count: the RPC requests per block of that network over a window with no
 * deposit (all workers together, by method, and each worker's share), then deposits one at a
 * time at a random moment in the head interval, each timed from its block being mined (the
 * sandbox's deposit call answered) to the first card at the fake Telegram that shows it.
 */

export interface ChainWorkersOptions {
  workers: number[];
  swaps: number;
  windowMs: number;
  deposits: number;
  blockMs: number;
}

const DEFAULTS: ChainWorkersOptions = { workers: [1, 2, 4], swaps: 30, windowMs: 45_000, deposits: 8, blockMs: 1_000 };
/** The production head interval (CHAIN_POLL default in chain-start.ts). */
const HEAD_MS = 2_000;
const NETWORK = SWAP_BODY.source_network;

/** An RPC proxy for one worker: counts JSON-RPC calls by method (a batch counts each). */
async function countingProxy(target: string): Promise<Listening & { counts: Map<string, number> }> {
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    void readBody(req, 4 * 1024 * 1024)
      .then(async (body) => {
        const parsed = JSON.parse(body.toString('utf8')) as { method?: string } | Array<{ method?: string }>;
        for (const r of [parsed].flat()) counts.set(r.method ?? '', (counts.get(r.method ?? '') ?? 0) + 1);
        const up = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        res.writeHead(up.status, { 'content-type': 'application/json' }).end(Buffer.from(await up.arrayBuffer()));
      })
      .catch(() => res.destroy());
  });
  return { ...(await listen(server, { port: 0, host: '127.0.0.1' })), counts };
}

const total = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const minus = (a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>) =>
  new Map([...a].map(([k, v]) => [k, v - (b.get(k) ?? 0)] as const));

async function head(url: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  return Number(((await res.json()) as { result: string }).result);
}

interface Run {
  workers: number;
  blocks: number;
  requests: number;
  byMethod: Map<string, number>;
  perWorker: number[];
  latencies: number[];
}

async function runOnce(b: Bench, sandbox: SandboxHandle, n: number, o: ChainWorkersOptions, tag: number): Promise<Run> {
  const rpc = sandbox.rpcUrl as string;
  const prefix = `${b.redis.prefix}-cw${n}`;
  const cadence = pollCadence(CONFIG_DEFAULTS, false);
  const api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  const proxies = await Promise.all(Array.from({ length: n }, () => countingProxy(rpc)));
  const workers: ChildHandle[] = [];
  const ctl = b.controller(prefix, cadence, undefined, { api, now: () => Date.now() });
  const cards = new Map<string, number>();
  const sent = new Set<string>();
  const off = b.telegram.onEvent((e: SinkEvent) => {
    if (e.limited) return;
    sent.add(e.chatId);
    if (!cards.has(e.chatId) && e.text.includes('Deposit seen')) cards.set(e.chatId, e.at);
  });
  try {
    for (const [i, p] of proxies.entries()) {
      const config = {
        ...b.workerConfig(prefix, { cadence }),
        sandboxUrl: sandbox.url,
        apiKey: sandbox.apiKey,
        chain: { rpc: p.url, pollMs: HEAD_MS },
      };
      delete config.discord;
      workers.push((await b.startWorker(`worker-cw${n}-${i}`, config)).handle);
    }
    const swaps: Array<{ id: string; chat: string }> = [];
    await eachLimit(Array.from({ length: o.swaps }), 8, async (_, i) => {
      const created = await api.createSwap({ ...SWAP_BODY, use_deposit_address: true } as Parameters<LayerswapClient['createSwap']>[0]);
      swaps.push({ id: created.swap.id, chat: String(830_000_000 + tag * 10_000 + i) });
    });
    for (const s of swaps) {
      const target: ChatTarget = { platform: 'telegram', chatId: s.chat, chatKind: 'private' };
      const r = await ctl.service.follow(s.id, target, { userId: `cw-${s.chat}` });
      if (!r.ok) throw new Error(`follow refused: ${r.reason}`);
    }
    const key = new TrackingKeys(prefix).chainNetwork(NETWORK);
    const listed = await waitFor(
      async () => (await b.redis.client.scard(key)) === o.swaps && swaps.every((s) => sent.has(s.chat)),
      120_000,
      100,
    );
    if (!listed)
      throw new Error(
        `${n} workers: ${await b.redis.client.scard(key)} of ${o.swaps} swaps listed on ${NETWORK}, ${swaps.filter((s) => sent.has(s.chat)).length} first cards, within 120 s`,
      );
    // Warm: every worker has run the network's job (its first run reads the lookback for every swap, once).
    const warm = await waitFor(() => proxies.every((p) => (p.counts.get('eth_getLogs') ?? 0) > 0), 120_000, 100);
    if (!warm) throw new Error(`${n} workers: not every worker ran the network's watch within 120 s`);
    await sleep(2 * HEAD_MS);

    const before = proxies.map((p) => new Map(p.counts));
    const h0 = await head(rpc);
    await sleep(o.windowMs);
    const h1 = await head(rpc);
    const deltas = proxies.map((p, i) => minus(p.counts, before[i] as Map<string, number>));
    const byMethod = new Map<string, number>();
    for (const d of deltas) for (const [k, v] of d) byMethod.set(k, (byMethod.get(k) ?? 0) + v);

    const latencies: number[] = [];
    for (const s of swaps.slice(0, o.deposits)) {
      await sleep(Math.random() * HEAD_MS);
      await sandbox.deposit([s.id]);
      const minedAt = performance.now();
      if (await waitFor(() => cards.has(s.chat), 30_000, 10)) latencies.push((cards.get(s.chat) as number) - minedAt);
      else latencies.push(NaN);
    }
    progress(
      `chain watch, ${n} worker(s): ${total(byMethod)} RPC requests over ${h1 - h0} blocks; deposit -> card p50 ${fmt(percentile(latencies, 50))} ms`,
    );
    return {
      workers: n,
      blocks: h1 - h0,
      requests: total(byMethod),
      byMethod,
      perWorker: deltas.map(total),
      latencies,
    };
  } finally {
    off();
    await Promise.allSettled(workers.map((w) => w.stop()));
    await ctl.close();
    await Promise.allSettled(proxies.map((p) => p.close({ force: true })));
    await deleteKeys(b.redis.client, prefix);
  }
}

export async function runChainWorkers(b: Bench, opts: Partial<ChainWorkersOptions> = {}): Promise<Section> {
  const o = { ...DEFAULTS, ...opts };
  const section = emptySection(12, 'Chain watch across workers: RPC requests per network per block, deposit -> card, 1 / 2 / 4 workers');
  const sandbox = await SandboxHandle.start({ timings: SANDBOX_TIMINGS, chain: { blockMs: o.blockMs } }, 'sandbox-chain-workers');
  const runs: Run[] = [];
  try {
    if (!sandbox.rpcUrl) throw new Error('the sandbox started without its chain');
    for (const [i, n] of o.workers.entries()) runs.push(await runOnce(b, sandbox, n, o, i));
  } finally {
    await sandbox.stop();
  }
  const one = runs[0];
  const perBlock = (r: Run) => r.requests / r.blocks;
  for (const r of runs) {
    const methods = [...r.byMethod].filter(([, v]) => v > 0).map(([k, v]) => `${k} ${fmt(v / r.blocks)}`);
    section.rows.push({
      figure: `${r.workers} worker(s): RPC requests per ${NETWORK} block, all workers together (${methods.join(', ')}; by worker: ${r.perWorker.join(' / ')})`,
      unit: 'req/block',
      value: spread([perBlock(r)]),
      ...(one && r !== one ? { ratio: { label: `/ 1 worker`, value: spread([perBlock(r) / perBlock(one)]) } } : {}),
    });
  }
  for (const r of runs) {
    const ok = r.latencies.filter(Number.isFinite);
    section.rows.push({
      figure: `${r.workers} worker(s): deposit (its block mined) -> first card showing it, p50 / p99 (max ${fmt(Math.max(...ok))})`,
      unit: 'ms',
      value: spread([percentile(ok, 50)]),
      beside: { label: 'p99', unit: 'ms', value: spread([percentile(ok, 99)]) },
    });
  }
  const ratios = runs.map((r) => perBlock(r) / perBlock(one as Run));
  const worst = Math.max(...ratios);
  const lost = runs.reduce((k, r) => k + r.latencies.filter((x) => !Number.isFinite(x)).length, 0);
  section.targets.push(
    {
      text: 'RPC requests per network per block flat in the number of workers (4 workers <= 1.1x one)',
      measured: runs.map((r) => `${r.workers}: ${fmt(perBlock(r))}`).join(', ') + ` (worst ${fmt(worst)}x one worker)`,
      pass: Number.isFinite(worst) ? worst <= 1.1 : null,
    },
    {
      text: `every deposit on the card (within 30 s)`,
      measured: `${lost} of ${runs.reduce((k, r) => k + r.latencies.length, 0)} not shown`,
      pass: lost === 0,
    },
  );
  section.notes.push(
    `${o.swaps} swaps waiting on ${NETWORK} per worker count, a block every ${o.blockMs} ms (EDR, the sandbox's local node, plus one per deposit), the head read every ${HEAD_MS} ms (the default); ` +
      `RPC requests counted at one proxy per worker over ${o.windowMs / 1000} s with no deposit, after every worker had run the network's job once (a worker's first run reads the lookback for every swap, once; its first eth_chainId too). ` +
      `Then ${o.deposits} deposits one at a time, each at a random moment in the head interval, timed from the sandbox's deposit call answering (its block mined) to the first card at the fake Telegram saying "Deposit seen": real ms, the card via the poll job (a sighting only reports).`,
  );
  return section;
}

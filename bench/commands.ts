import { performance } from 'node:perf_hooks';
import type { BotCore } from '../src/bot/core.js';
import { createCore } from '../src/bot/create-core.js';
import type { Incoming } from '../src/contracts/incoming.js';
import { CatalogCache } from '../src/layerswap/catalog-cache.js';
import { createRedis } from '../src/redis.js';
import { SWAP_BODY, type Bench } from './context.js';
import { CONFIG_DEFAULTS } from './defaults.js';
import { deleteKeys } from './env.js';
import { LATENCY_CADENCE } from './population.js';
import { emptySection, type Section } from './report.js';
import { fmt, percentile, progress, spread } from './stats.js';

/**
 * 3. Command latency through the core (rate limit, parse, catalogue lookups, API call, card,
 * fit to platform limits) with a warm catalogue cache, one command at a time, beside one bare
 * undici request to the sandbox for the same data. Each user sends one command per round, as the
 * per-user rate limit (default 20 a minute) would have it.
 */

export interface CommandOptions {
  repeats: number;
  perRepeat: number;
  warmup: number;
}

const DEFAULTS: CommandOptions = { repeats: 3, perRepeat: 200, warmup: 50 };

interface Probe {
  name: string;
  run(i: number): Promise<unknown>;
  bare: { label: string; path: string };
}

export async function runCommands(b: Bench, swapId: string, opts: Partial<CommandOptions> = {}): Promise<Section> {
  const o = { ...DEFAULTS, ...opts };
  const section = emptySection(3, 'Command latency through the core, catalogue cache warm');
  const prefix = `${b.redis.prefix}-core`;
  const redis = createRedis(b.redis.url, { maxRetriesPerRequest: 3 });
  const ctl = b.controller(`${prefix}-trk`, LATENCY_CADENCE);
  const catalog = new CatalogCache(b.api);
  const core: BotCore = createCore({
    api: b.api,
    catalog,
    redis,
    keyPrefix: prefix,
    tracking: ctl.service,
    limits: { commandsPerMinute: CONFIG_DEFAULTS.COMMANDS_PER_MINUTE, draftTtlSeconds: CONFIG_DEFAULTS.DRAFT_TTL_SECONDS },
  });
  const incoming = (text: string, i: number): Incoming => ({
    platform: 'telegram',
    userId: `u${i}`,
    userName: 'Bench',
    chatId: `u${i}`,
    chatKind: 'private',
    text,
  });
  const q = SWAP_BODY;
  const quoteQuery = `source_network=${q.source_network}&source_token=${q.source_token}&destination_network=${q.destination_network}&destination_token=${q.destination_token}&amount=${q.amount}`;
  let user = 0;
  const handled = async (text: string) => {
    const replies = await core.handle(incoming(text, user++));
    if (replies.length === 0 || replies.some((r) => r.tone === 'error'))
      throw new Error(`"${text}" did not work: ${JSON.stringify(replies[0]?.title ?? replies[0]?.lines?.[0] ?? 'no reply')}`);
  };
  const probes: Probe[] = [
    {
      name: '/quote',
      run: () => handled(`/quote 100 USDC ETHEREUM_MAINNET ARBITRUM_MAINNET`),
      bare: { label: 'GET /api/v2/quote', path: `/api/v2/quote?${quoteQuery}` },
    },
    {
      name: '/status',
      run: () => handled(`/status ${swapId}`),
      bare: { label: 'GET /api/v2/swaps/{id}', path: `/api/v2/swaps/${swapId}?exclude_deposit_actions=true` },
    },
    {
      name: 'network autocomplete (suggest)',
      run: async () => {
        const s = await core.suggest('source_network', 'arb');
        if (s.length === 0) throw new Error('autocomplete suggested nothing for "arb"');
      },
      bare: { label: 'GET /api/v2/networks', path: '/api/v2/networks' },
    },
  ];
  const bare = async (path: string) => {
    const res = await b.pool.request({ method: 'GET', path, headers: { 'x-ls-apikey': b.sandbox.apiKey } });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`bare ${path} answered ${res.statusCode}`);
  };
  const time = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };

  try {
    await catalog.networks();
    for (const p of probes) {
      for (let i = 0; i < o.warmup; i++) {
        await p.run(i);
        await bare(p.bare.path);
      }
      const p50: number[] = [];
      const p99: number[] = [];
      const b50: number[] = [];
      const b99: number[] = [];
      for (let r = 0; r < o.repeats; r++) {
        const core: number[] = [];
        const raw: number[] = [];
        for (let i = 0; i < o.perRepeat; i++) {
          core.push(await time(() => p.run(i)));
          raw.push(await time(() => bare(p.bare.path)));
        }
        p50.push(percentile(core, 50));
        p99.push(percentile(core, 99));
        b50.push(percentile(raw, 50));
        b99.push(percentile(raw, 99));
      }
      progress(`${p.name}: p50 ${fmt(spread(p50).median)} ms, p99 ${fmt(spread(p99).median)} ms`);
      const ratio = (a: number[], c: number[]) => spread(a.map((x, i) => x / (c[i] ?? NaN)));
      section.rows.push(
        {
          figure: `${p.name} p50`,
          unit: 'ms',
          value: spread(p50),
          beside: { label: `bare ${p.bare.label}`, unit: 'ms', value: spread(b50) },
          ratio: { label: 'core / bare', value: ratio(p50, b50) },
        },
        {
          figure: `${p.name} p99`,
          unit: 'ms',
          value: spread(p99),
          beside: { label: `bare ${p.bare.label}`, unit: 'ms', value: spread(b99) },
          ratio: { label: 'core / bare', value: ratio(p99, b99) },
        },
      );
      const worst = spread(p99).median;
      section.targets.push({
        text: `${p.name} p99 <= 20 ms with the catalogue cached`,
        measured: `${fmt(worst)} ms`,
        pass: Number.isFinite(worst) ? worst <= 20 : null,
      });
    }
  } finally {
    await ctl.close();
    await deleteKeys(redis, prefix);
    await redis.quit().catch(() => redis.disconnect());
  }
  section.notes.push(
    `${o.repeats} rounds of ${o.perRepeat} commands each, one at a time, after ${o.warmup} warm-up calls; each command from a new user (the per-user limiter runs, never refuses). ` +
      `/quote and /status make one API request to the sandbox (another process) through the client; autocomplete reads the cached network list only. ` +
      `Bare: the same data fetched with one plain undici request, body read, nothing parsed.`,
  );
  return section;
}

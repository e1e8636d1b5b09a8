import { randomBytes } from 'node:crypto';
import type { ChatTarget } from '../src/contracts/incoming.js';
import { BUCKET_BOUNDS_S, ROUTE_TIMES_WEEKS, routeTimesId, WEEK_MS } from '../src/contracts/route-times.js';
import type { LayerswapApi } from '../src/layerswap/api.js';
import { silentLogger } from '../src/log.js';
import { AddressWatch, WATCH_BATCH } from '../src/tracking/address-watch.js';
import { TrackingKeys } from '../src/contracts/keys.js';
import { RouteTimesStore } from '../src/tracking/route-times.js';
import type { Bench } from './context.js';
import { CONFIG_DEFAULTS } from './defaults.js';
import { deleteKeys } from './env.js';
import { LATENCY_CADENCE } from './population.js';
import { emptySection, type Section } from './report.js';
import { fmt, percentile, progress, spread } from './stats.js';

/**
 * 7. Observed times and watched addresses (issue "Honest times"): Redis memory of one route's
 * summary (MEMORY USAGE of its hash after many recorded durations), and the GET /swaps?address=
 * requests watched addresses cost per address per hour (batched, beside one address per request) at the configured back-off, beside the
 * share of the API budget they may use. The watch runs the real AddressWatch against the sandbox
 * on a simulated clock moved one tick at a time (hours pass in seconds); new swaps to the busy
 * addresses are made through the sandbox's POST /sandbox/swaps, as another app would.
 */

export interface RepeatsOptions {
  /** Durations recorded on the busy route (spread over the kept weeks). */
  busyRouteSwaps: number;
  /** Routes of the "typical" figure, and durations each. */
  routes: number;
  perRoute: number;
  idleAddresses: number;
  busyAddresses: number;
  /** A new swap to each busy address this often (simulated). */
  busyEveryMs: number;
  hours: number;
}

const DEFAULTS: RepeatsOptions = {
  busyRouteSwaps: 10_000,
  routes: 200,
  perRoute: 25,
  idleAddresses: 100,
  busyAddresses: 20,
  busyEveryMs: 10 * 60_000,
  hours: 4,
};
const GOAL_BYTES = 2048;
const HOUR = 3_600_000;

/** A duration between 5 s and 2 days, log-uniform: every bucket gets some. */
const anyDuration = (): number => Math.exp(Math.log(5_000) + Math.random() * (Math.log(2 * 86_400_000) - Math.log(5_000)));

async function routeBytes(b: Bench, o: RepeatsOptions, prefix: string): Promise<{ busy: number; encoding: string; typical: number[] }> {
  const redis = b.redis.client;
  const store = new RouteTimesStore(redis, prefix, 0);
  // Week-aligned, so the kept weeks are exactly ROUTE_TIMES_WEEKS slots.
  const start = 3_000 * WEEK_MS;
  const span = ROUTE_TIMES_WEEKS * WEEK_MS - 1;
  const record = async (routeId: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const now = start + Math.floor((i / n) * span);
      const d = anyDuration();
      await store.recordCompleted(
        routeId,
        { depositSeenAt: now - d, history: [{ status: 'ls_transfer_pending', at: now - d * 0.6 }] },
        now,
      );
    }
  };
  const busy = routeTimesId({
    sourceNetwork: 'ETHEREUM_MAINNET',
    sourceToken: 'USDC',
    destinationNetwork: 'ARBITRUM_MAINNET',
    destinationToken: 'USDC',
  });
  await record(busy, o.busyRouteSwaps);
  const busyBytes = Number(await redis.memory('USAGE', new TrackingKeys(prefix).routeTimes(busy)));
  const encoding = String(await redis.object('ENCODING', new TrackingKeys(prefix).routeTimes(busy)));
  const typical: number[] = [];
  for (let r = 0; r < o.routes; r++) {
    const id = routeTimesId({
      sourceNetwork: `NET_${r}`,
      sourceToken: 'USDC',
      destinationNetwork: 'BASE_MAINNET',
      destinationToken: 'USDC',
    });
    await record(id, o.perRoute);
    typical.push(Number(await redis.memory('USAGE', new TrackingKeys(prefix).routeTimes(id))));
  }
  return { busy: busyBytes, encoding, typical };
}

interface WatchReadings {
  /** GET /swaps?address= per address, by simulated hour, per profile. */
  idle: number[];
  busy: number[];
  /** Simulated ms from a swap made elsewhere to its follow. */
  delays: number[];
  /** Most requests in one tick. */
  maxPerTick: number;
  perTick: number;
  /** Every address, each later hour: requests per address. */
  all: number[];
  serviceCount: number;
  counted: number;
}

/** The watch's cost with `batch` addresses per request (1: one address per request, as before batching). */
async function watchCost(b: Bench, o: RepeatsOptions, prefix: string, batch: number): Promise<WatchReadings> {
  let simNow = 1_000 * HOUR;
  const t0 = simNow;
  const rate = CONFIG_DEFAULTS.LAYERSWAP_RATE_LIMIT;
  const settings = {
    minMs: CONFIG_DEFAULTS.WATCH_MIN_MS,
    maxMs: CONFIG_DEFAULTS.WATCH_MAX_MS,
    share: CONFIG_DEFAULTS.WATCH_API_PERCENT / 100,
    apiPerSecond: rate,
    tickMs: 5_000,
    batch,
  };
  const watch = new AddressWatch(b.redis.client, new TrackingKeys(prefix), () => simNow, settings);
  const ctl = b.controller(`${prefix}-trk`, LATENCY_CADENCE);
  const address = () => `0x${randomBytes(20).toString('hex')}`;
  const idle = Array.from({ length: o.idleAddresses }, address);
  const busy = Array.from({ length: o.busyAddresses }, address);
  const profile = new Map<string, 'idle' | 'busy'>([...idle.map((a) => [a, 'idle'] as const), ...busy.map((a) => [a, 'busy'] as const)]);
  const hours = { idle: new Array<number>(o.hours).fill(0), busy: new Array<number>(o.hours).fill(0) };
  let counted = 0;
  const api: Pick<LayerswapApi, 'listSwaps'> = {
    listSwaps: (q, opts) => {
      // A batched request is shared by the addresses in it.
      const asked = typeof q.address === 'string' ? [q.address] : q.address;
      const h = Math.floor((simNow - t0) / HOUR);
      for (const a of asked) {
        const p = profile.get(a);
        if (p && h < o.hours) hours[p][h] = (hours[p][h] ?? 0) + 1 / asked.length;
      }
      counted++;
      return b.api.listSwaps(q, opts);
    },
  };
  const madeAt = new Map<string, number>();
  const delays: number[] = [];
  const tracking = {
    follow: async (...a: Parameters<typeof ctl.service.follow>) => {
      const at = madeAt.get(a[0]);
      if (at !== undefined) delays.push(simNow - at);
      return ctl.service.follow(...a);
    },
  };
  const inject = async (to: string): Promise<string> => {
    const res = await b.pool.request({
      method: 'POST',
      path: '/sandbox/swaps',
      headers: { 'content-type': 'application/json', 'x-ls-apikey': b.sandbox.apiKey },
      body: JSON.stringify({
        source_network: 'OPTIMISM_MAINNET',
        source_token: 'USDC',
        destination_network: 'BASE_MAINNET',
        destination_token: 'USDC',
        destination_address: to,
        amount: 25,
      }),
    });
    const json = (await res.body.json()) as { data?: { swap?: { id?: string } } };
    const id = json.data?.swap?.id;
    if (!id) throw new Error(`the sandbox refused an injected swap (${res.statusCode})`);
    return id;
  };
  try {
    const serviceBefore = await b.sandbox.count('listSwaps');
    let i = 0;
    for (const a of [...idle, ...busy]) {
      const target: ChatTarget = { platform: 'console', chatId: `w${i++}`, chatKind: 'private' };
      await watch.set(a, target, { userId: target.chatId }, true);
    }
    // Each busy address gets its first outside swap at its own offset, then one every busyEveryMs.
    const nextSwap = busy.map((_, k) => t0 + HOUR / 4 + Math.floor((k / busy.length) * o.busyEveryMs));
    let maxPerTick = 0;
    const end = t0 + o.hours * HOUR;
    for (; simNow < end; simNow += settings.tickMs) {
      for (let k = 0; k < busy.length; k++) {
        if (simNow >= (nextSwap[k] as number)) {
          madeAt.set(await inject(busy[k] as string), simNow);
          nextSwap[k] = (nextSwap[k] as number) + o.busyEveryMs;
        }
      }
      const before = counted;
      await watch.tick(api, tracking, silentLogger);
      maxPerTick = Math.max(maxPerTick, counted - before);
    }
    const serviceCount = (await b.sandbox.count('listSwaps')) - serviceBefore;
    return {
      idle: hours.idle.map((n) => n / idle.length),
      busy: hours.busy.map((n) => n / busy.length),
      delays,
      maxPerTick,
      perTick: watch.perTick,
      all: hours.idle.map((n, h) => (n + (hours.busy[h] ?? 0)) / (idle.length + busy.length)),
      serviceCount,
      counted,
    };
  } finally {
    await ctl.close();
    await deleteKeys(b.redis.client, `${prefix}-trk`);
  }
}

export async function runRepeats(b: Bench, opts: Partial<RepeatsOptions> = {}): Promise<Section> {
  const o = { ...DEFAULTS, ...opts };
  const section = emptySection(7, 'Observed route times and watched addresses');
  const prefix = `${b.redis.prefix}-rep`;
  try {
    progress(`route summaries: ${o.busyRouteSwaps} durations on one route, ${o.perRoute} on each of ${o.routes}`);
    const mem = await routeBytes(b, o, prefix);
    const goal = spread([GOAL_BYTES]);
    const typical = spread(mem.typical);
    section.rows.push(
      {
        figure: `one busy route: ${fmt(o.busyRouteSwaps)} swaps over ${ROUTE_TIMES_WEEKS} weeks, every bucket`,
        unit: 'B',
        value: spread([mem.busy]),
        beside: { label: 'goal', unit: 'B', value: goal },
        ratio: { label: 'of the goal', value: spread([mem.busy / GOAL_BYTES]) },
      },
      {
        figure: `${o.routes} routes, ${o.perRoute} swaps each (per route)`,
        unit: 'B',
        value: typical,
        beside: { label: 'goal', unit: 'B', value: goal },
        ratio: { label: 'of the goal', value: spread([typical.max / GOAL_BYTES]) },
      },
    );
    section.targets.push({
      text: 'Redis per route summary <= 2 KB (MEMORY USAGE, busiest route)',
      measured: `${fmt(Math.max(mem.busy, typical.max))} B`,
      pass: Math.max(mem.busy, typical.max) <= GOAL_BYTES,
    });
    section.notes.push(
      `Route summary: MEMORY USAGE of the route's hash (${mem.encoding} encoding here) after recording each swap through the tracker's script (RouteTimesStore.recordCompleted: both durations, deposit seen and deposit confirmed -> completed), durations log-uniform from 5 s to 2 days over ${BUCKET_BOUNDS_S.length + 1} buckets; ${ROUTE_TIMES_WEEKS} week slots x 2 kinds is the most a hash holds, so the size does not grow with traffic.`,
    );

    progress(
      `watched addresses: ${o.idleAddresses} idle and ${o.busyAddresses} busy (a swap every ${o.busyEveryMs / 60_000} min) for ${o.hours} simulated hours`,
    );
    const w = await watchCost(b, o, `${prefix}-watch`, WATCH_BATCH);
    progress('the same, one address per request (as before batching)');
    const single = await watchCost(b, o, `${prefix}-watch1`, 1);
    const budgetPerHour = CONFIG_DEFAULTS.LAYERSWAP_RATE_LIMIT * (CONFIG_DEFAULTS.WATCH_API_PERCENT / 100) * 3600;
    const budget = spread([budgetPerHour]);
    const later = (xs: number[]) => spread(xs.slice(1));
    const idleLater = later(w.idle);
    const busyLater = later(w.busy);
    const beside = {
      label: `budget (${CONFIG_DEFAULTS.WATCH_API_PERCENT}% of ${CONFIG_DEFAULTS.LAYERSWAP_RATE_LIMIT}/s)`,
      unit: 'req/h',
      value: budget,
    };
    const holds = (per: number) => spread([budgetPerHour / per]);
    section.rows.push(
      {
        figure: 'GET /swaps?address= per idle address, first hour',
        unit: 'req/h',
        value: spread([w.idle[0] ?? NaN]),
        beside,
        ratio: { label: 'addresses the budget holds', value: holds(w.idle[0] ?? NaN) },
      },
      {
        figure: 'the same, each later hour',
        unit: 'req/h',
        value: idleLater,
        beside,
        ratio: { label: 'addresses the budget holds', value: holds(idleLater.median) },
      },
      {
        figure: `per busy address (a new swap every ${o.busyEveryMs / 60_000} min), each later hour`,
        unit: 'req/h',
        value: busyLater,
        beside,
        ratio: { label: 'addresses the budget holds', value: holds(busyLater.median) },
      },
      {
        figure: 'most GET /swaps requests in one 5 s tick',
        unit: '',
        value: spread([w.maxPerTick]),
        beside: { label: 'cap: the share of the budget per tick', unit: '', value: spread([w.perTick]) },
      },
      {
        figure: `GET /swaps per watched address (all ${o.idleAddresses + o.busyAddresses}), each later hour: ${WATCH_BATCH} addresses a request`,
        unit: 'req/h',
        value: later(w.all),
        beside: { label: 'one address a request', unit: 'req/h', value: later(single.all) },
        ratio: { label: 'of one-per-request', value: spread([later(w.all).median / later(single.all).median]) },
      },
      {
        figure: `swap made elsewhere -> followed (busy addresses; p90 ${fmt(percentile(w.delays, 90) / 1000)})`,
        unit: 'sim s',
        value: spread(w.delays.map((d) => d / 1000)),
      },
    );
    section.targets.push({
      text: 'watched addresses stay within their share of the API budget per tick',
      measured: `${w.maxPerTick} of ${w.perTick}`,
      pass: w.maxPerTick <= w.perTick,
    });
    section.targets.push({
      text: 'batching cuts GET /swaps per watched address (later hours, median)',
      measured: `${fmt(later(w.all).median)} vs ${fmt(later(single.all).median)} req/h`,
      pass: later(w.all).median < later(single.all).median,
    });
    section.notes.push(
      `Batching: the same run made twice on one sandbox, ${WATCH_BATCH} addresses per request (AddressWatch's default) and one per request (batch: 1, the watch before batching); a batched request counts 1/n for each of its n addresses. Swaps followed: ${w.delays.length} batched, ${single.delays.length} one by one.`,
    );
    section.notes.push(
      `Watched addresses: the real AddressWatch (WATCH_MIN_MS ${CONFIG_DEFAULTS.WATCH_MIN_MS}, WATCH_MAX_MS ${CONFIG_DEFAULTS.WATCH_MAX_MS}, WATCH_API_PERCENT ${CONFIG_DEFAULTS.WATCH_API_PERCENT}) ticking every 5 s of a simulated clock for ${o.hours} h, against the sandbox; requests counted per address and hour at the client (${w.counted}) and at the sandbox (${w.serviceCount}). Busy addresses get a swap made through POST /sandbox/swaps (another app); ${w.delays.length} were followed. The "addresses the budget holds" column is the budget per hour over the per-address rate.`,
    );
    return section;
  } finally {
    await deleteKeys(b.redis.client, prefix);
  }
}

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ChatTarget } from '../src/contracts/incoming.js';
import { pollCadence } from '../src/app/runtime.js';
import { loadConfig } from '../src/config.js';
import { LayerswapClient } from '../src/layerswap/client.js';
import { FINAL_SWAP_STATUSES } from '../src/layerswap/schemas.js';
import type { Tracking } from '../src/tracking/engine.js';
import { DEFAULT_PLATFORM_RATES } from '../src/tracking/queues.js';
import { DEPOSIT_WINDOW_MS } from '../src/tracking/cadence.js';
import { realAt, sandboxAt, scaledNow, type ScaledTime } from './clock.js';
import { eachLimit, SandboxHandle, SWAP_BODY, type Bench } from './context.js';
import { CONFIG_DEFAULTS } from './defaults.js';
import { deleteKeys } from './env.js';
import { ChildHandle } from './ipc.js';
import { emptySection, type Section } from './report.js';
import type { SinkEvent } from './sinks/sink-event.js';
import { TELEGRAM_LIMITS } from './sinks/telegram-sink.js';
import { fmt, progress, sleep, spread, waitFor } from './stats.js';
import type { WorkerConfig } from './worker-child.js';
import { chainRows, type ChainPhase } from './economy-chain.js';

/**
 * 5. API economy, end to end: GET /swaps/{id} requests per swap over a lifecycle, for the real
 * tracking worker with webhooks trusted (the sandbox sends Svix-signed webhooks to the real web
 * process, POST /webhooks/layerswap, which pulls the poll) and without (the adaptive cadence),
 * beside plain pollers every 5 s and every 30 s against the same sandbox. The sandbox runs on a
 * scaled clock the bench sets (part 5 only), and the workers read the same clock, so the
 * production cadence (config defaults) runs unchanged on a lifecycle compressed `speed` times.
 * Cards go to the fake Telegram; what they show and when is read there.
 */

export interface EconomyOptions {
  /** Swaps per policy and lifecycle. */
  swaps: number;
  /** Sandbox ms per real ms: the typical lifecycle (cards are timed), the abandoned one (requests only). */
  typicalSpeed: number;
  abandonedSpeed: number;
  /** The chain row (webhooks + the chain watcher on a local EDR node): on unless false. */
  chain?: boolean;
}

const DEFAULTS: EconomyOptions = { swaps: 40, typicalSpeed: 10, abandonedSpeed: 120 };

const MIN = 60_000;
/** Ethereum's 12 confirmations, 9 s apart, the payout 10 s after, completed 2 s later: 2 min from deposit to completed. */
const CONFIRMATIONS = 12;
const TIMINGS = {
  depositDelayMs: 'off' as const,
  confirmationIntervalMs: 9_000,
  payoutDelayMs: 10_000,
  completionLagMs: 2_000,
  expiryMs: 6 * 60 * MIN,
  refundDelayMs: 10_000,
};
const TYPICAL_WAIT_MS = 3 * MIN;
/** Deposits land anywhere in this span around the typical wait, so no poller gains from round numbers. */
const PHASE_MS = MIN;
const CONFIRMING_MS = CONFIRMATIONS * TIMINGS.confirmationIntervalMs + TIMINGS.payoutDelayMs + TIMINGS.completionLagMs;
const FIXED = [5_000, 30_000] as const;
/** The API key's default budget (LAYERSWAP_RATE_LIMIT). */
const RATE = CONFIG_DEFAULTS.LAYERSWAP_RATE_LIMIT;

type Policy = 'webhooks' | 'polling';
const POLICY_LABEL: Record<Policy, string> = { webhooks: 'webhooks trusted', polling: 'adaptive polling, no webhooks' };

/** The sandbox signs its webhooks with this; the web process checks them with it. */
const BENCH_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

/** The production cadence: src/app/runtime.ts pollCadence over the config defaults, with LAYERSWAP_WEBHOOK_SECRET set or not. */
function cadence(policy: Policy): WorkerConfig['cadence'] {
  return pollCadence(policy === 'webhooks' ? loadConfig({ LAYERSWAP_WEBHOOK_SECRET: BENCH_SECRET }) : CONFIG_DEFAULTS, false);
}

/** A small deterministic PRNG, so deposit moments are the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** The deposit's confirmations a card shows ("3/12 ▓▓▓░..."), or -1 when it shows no deposit. */
function shownConfirmations(text: string): number {
  // The transaction line ("3/12 ▓▓▓░"), or the chain watcher's sighting ("confirming 3/12", "12/12 confirmations").
  // Every match: the title's "confirming 3/12" (the service's) may stand before the chain's newer count.
  const found = [/(\d+)\/(\d+) [▓░]/g, /confirming (\d+)\/\d+/g, /(\d+)\/\d+ confirmations/g, /confirmations so far: (\d+)/g].flatMap(
    (re) => [...text.matchAll(re)].map((m) => Number(m[1])),
  );
  return found.length ? Math.max(...found) : -1;
}

interface Swap {
  id: string;
  chat: string;
  followAt: number;
  /** Sandbox time of the deposit (NaN: none). */
  depositAt: number;
}

interface Watched {
  /** Sandbox time of each card (send or edit) and the confirmations it shows. */
  cards: Map<string, Array<{ at: number; real: number; shown: number }>>;
  /** Messages to these chats the fake Telegram refused with 429 (its real limits). */
  limited(): number;
  off(): void;
}

function watchCards(b: Bench, time: ScaledTime, chats: ReadonlySet<string>): Watched {
  const cards = new Map<string, Array<{ at: number; real: number; shown: number }>>();
  let limited = 0;
  const off = b.telegram.onEvent((e: SinkEvent) => {
    if (!chats.has(e.chatId)) return;
    if (e.limited) {
      limited++;
      return;
    }
    const real = performance.timeOrigin + e.at;
    const list = cards.get(e.chatId) ?? [];
    list.push({ at: sandboxAt(time, real), real, shown: shownConfirmations(e.text) });
    cards.set(e.chatId, list);
  });
  return { cards, limited: () => limited, off };
}

/** A plain poller: GET /swaps/{id} every `everyMs` of sandbox time until a final status; when it sent each request and saw each confirmation (sandbox ms). */
async function fixedPoller(
  api: LayerswapClient,
  time: ScaledTime,
  id: string,
  everyMs: number,
): Promise<{ requests: number[]; seen: number[] }> {
  const now = scaledNow(time);
  const seen: number[] = [];
  const requests: number[] = [];
  const start = now();
  for (let k = 1; ; k++) {
    const t = now();
    requests.push(t);
    const d = await api.getSwap(id, { exclude_deposit_actions: true }, { maxRetries: 0 });
    const input = d.swap.transactions.find((tx) => tx.type === 'input');
    const c = input ? (input.confirmations ?? 0) : -1;
    while (seen.length <= c) seen.push(t);
    if (FINAL_SWAP_STATUSES.has(d.swap.status)) return { requests, seen };
    // On the interval's grid, so the request's own time is not stretched by the clock's speed.
    await sleep(Math.max(0, realAt(time, start + k * everyMs) - Date.now()));
  }
}

interface PhaseResult {
  /** By group (a policy, or `fixed <ms>`), per swap: the sandbox time of each GET /swaps/{id}. */
  requests: Record<string, number[][]>;
  swaps: Record<string, Swap[]>;
  cards: Map<string, Array<{ at: number; real: number; shown: number }>>;
  fixedSeen: Map<string, number[]>;
  sandboxGetSwap: number;
  /** Cards the fake Telegram refused with 429 during the phase. */
  limited: number;
  /** The clock the phase ran on. */
  time: ScaledTime;
}

class Rig {
  private constructor(
    readonly b: Bench,
    readonly sandbox: SandboxHandle,
    readonly web: ChildHandle,
    readonly api: LayerswapClient,
    readonly prefix: Record<Policy, string>,
    public time: ScaledTime,
  ) {}

  /** chain: the sandbox's EVM networks on a local EDR node (a block every confirmation interval), the webhooks worker watching it. */
  static async start(b: Bench, time: ScaledTime, chain = false): Promise<Rig> {
    const port = await freePort();
    const prefix = { webhooks: `${b.redis.prefix}-eco-${chain ? 'chain' : 'wh'}`, polling: `${b.redis.prefix}-eco-poll` };
    const sandbox = await SandboxHandle.start(
      {
        timings: TIMINGS,
        scaled: time,
        webhook: { url: `http://127.0.0.1:${port}/webhooks/layerswap`, secret: BENCH_SECRET, pollMs: 20 },
        ...(chain ? { chain: { blockMs: TIMINGS.confirmationIntervalMs / time.speed } } : {}),
      },
      'sandbox-economy',
    );
    const web = ChildHandle.start('web', 'web-child.js');
    try {
      await web.call('start', {
        LAYERSWAP_API_KEY: sandbox.apiKey,
        LAYERSWAP_API_URL: sandbox.url,
        LAYERSWAP_WEBHOOK_SECRET: BENCH_SECRET,
        REDIS_URL: b.redis.url,
        REDIS_PREFIX: prefix.webhooks,
        PORT: String(port),
      });
    } catch (e) {
      await Promise.allSettled([web.stop(), sandbox.stop()]);
      throw e;
    }
    return new Rig(b, sandbox, web, new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey }), prefix, time);
  }

  /** Moves the sandbox clock to a new speed, continuing from where it is. */
  async setSpeed(speed: number): Promise<void> {
    const realBase = Date.now();
    this.time = { base: sandboxAt(this.time, realBase), realBase, speed };
    await this.sandbox.setTime(this.time);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.web.stop(), this.sandbox.stop()]);
    for (const p of Object.values(this.prefix)) await deleteKeys(this.b.redis.client, p);
  }

  /**
   * One lifecycle for every policy at once: swaps made and followed now, each deposited after
   * `waitMs` (give or take PHASE_MS / 2) or never, until every swap reached a final status.
   */
  async phase(
    tag: string,
    n: number,
    waitMs: number | null,
    fixed: readonly number[],
    policies: readonly Policy[] = ['webhooks', 'polling'],
  ): Promise<PhaseResult> {
    const { b, time } = this;
    const now = scaledNow(time);
    const workers = new Map<Policy, ChildHandle>();
    const ctls = new Map<Policy, Tracking>();
    const timers: NodeJS.Timeout[] = [];
    const getSwap0 = await this.sandbox.count('getSwap');
    const rand = mulberry32(waitMs === null ? 11 : 7);
    const groups = [...policies, ...fixed.map((ms) => `fixed ${ms}` as const)];
    const swaps: PhaseResult['swaps'] = {};
    const group = (g: string) => (swaps[g] ??= []);
    const fixedSeen = new Map<string, number[]>();
    const fixedRequests = new Map<string, number[]>();
    const chats = new Set<string>();
    let watched: Watched | undefined;
    // Redis times out a blocked BZPOPMIN (an idle worker waiting for its next delayed poll) when
    // its event loop next wakes, up to 100 ms late at the default hz: nothing next to a 20-s poll,
    // but stretched `speed` times here. A PING every 2 ms keeps that wake-up prompt.
    const ping = b.redis.client.duplicate();
    const pinger = setInterval(() => void ping.ping().catch(() => undefined), 2);
    // Each policy stands for a deployment of its own (its own bot, 30 messages/s), and the lifecycle
    // runs `speed` times faster than real time: so do the platform's limits and the engine's rate,
    // or cards wait behind 429s that no chat would see at real speed. (Limiter windows are whole ms.)
    const tg = DEFAULT_PLATFORM_RATES.telegram;
    b.telegram.setLimits({
      overall: {
        limit: TELEGRAM_LIMITS.overall.limit * policies.length,
        windowMs: Math.max(1, Math.round(TELEGRAM_LIMITS.overall.windowMs / time.speed)),
      },
      timeScale: time.speed,
    });
    try {
      for (const p of policies) {
        const platformRates = { telegram: { max: tg.max, duration: Math.max(1, Math.round(tg.duration / time.speed)) } };
        const config: WorkerConfig = {
          ...b.workerConfig(this.prefix[p], { cadence: cadence(p), platformRates }),
          sandboxUrl: this.sandbox.url,
          apiKey: this.sandbox.apiKey,
          time,
        };
        // The chain watcher's default head read (2 s) compressed like the clock.
        // The RPC's budget too (10 requests/s by default): at x10, ten times the heads and receipts a real second.
        if (this.sandbox.rpcUrl)
          config.chain = { rpc: this.sandbox.rpcUrl, pollMs: Math.max(20, 2000 / time.speed), gapMs: 100 / time.speed };
        delete config.discord;
        workers.set(p, (await b.startWorker(`worker-${p}`, config)).handle);
        ctls.set(p, b.controller(this.prefix[p], cadence(p), undefined, { api: this.api, now }));
      }
      let chatNo = 0;
      const chatBase = 810_000_000 + Math.floor(Math.random() * 1e8);
      for (const g of groups) {
        await eachLimit(Array.from({ length: n }), 8, async () => {
          const created = await this.api.createSwap({ ...SWAP_BODY, use_deposit_address: true } as Parameters<
            LayerswapClient['createSwap']
          >[0]);
          const chat = String(chatBase + chatNo++);
          group(g).push({ id: created.swap.id, chat, followAt: NaN, depositAt: NaN });
          chats.add(chat);
        });
      }
      watched = watchCards(b, time, chats);
      const done: Array<Promise<unknown>> = [];
      for (const g of groups) {
        for (const s of group(g)) {
          s.followAt = now();
          const ctl = ctls.get(g as Policy);
          if (ctl) {
            const target: ChatTarget = { platform: 'telegram', chatId: s.chat, chatKind: 'private' };
            const r = await ctl.service.follow(s.id, target, { userId: `eco-${s.chat}` });
            if (!r.ok) throw new Error(`follow refused: ${r.reason}`);
          } else {
            const every = Number(g.slice('fixed '.length));
            done.push(
              fixedPoller(this.api, time, s.id, every).then((r) => {
                fixedSeen.set(s.id, r.seen);
                fixedRequests.set(s.id, r.requests);
              }),
            );
          }
          if (waitMs !== null) {
            const at = s.followAt + waitMs + (rand() - 0.5) * PHASE_MS;
            timers.push(
              setTimeout(
                () => void this.sandbox.deposit([s.id]).then(([d]) => (s.depositAt = d ?? NaN)),
                Math.max(0, realAt(time, at) - Date.now()),
              ),
            );
          }
        }
      }
      progress(`${tag}: ${groups.length} x ${n} swaps followed, clock x${time.speed}`);
      const endMs = (waitMs === null ? TIMINGS.expiryMs : waitMs + PHASE_MS / 2 + CONFIRMING_MS) / time.speed;
      const final = async (p: Policy) => {
        const ctl = ctls.get(p) as Tracking;
        for (const s of group(p)) {
          const st = await ctl.swapState(s.id);
          if (!st || !FINAL_SWAP_STATUSES.has(st.status)) return false;
        }
        return (await ctl.pendingNotifications()) === 0;
      };
      // Past the lifecycle, a final status can wait for one safety poll (webhooks) or slow poll.
      const ok = await waitFor(
        async () => (await Promise.all(policies.map(final))).every(Boolean) && fixedRequests.size === fixed.length * n,
        endMs + (CONFIG_DEFAULTS.POLL_SAFETY_MS * 1.2) / time.speed + 60_000,
        200,
      );
      if (!ok) throw new Error(`${tag}: not every swap reached a final status in time`);
      await Promise.all(done);
      const requests: PhaseResult['requests'] = {};
      for (const p of policies) {
        const sent = await (workers.get(p) as ChildHandle).call<Record<string, number[]>>('swapRequests');
        requests[p] = group(p).map((s) => (sent[s.id] ?? []).map((real) => sandboxAt(time, real)));
      }
      for (const ms of fixed) requests[`fixed ${ms}`] = group(`fixed ${ms}`).map((s) => fixedRequests.get(s.id) ?? []);
      return {
        requests,
        swaps,
        cards: watched.cards,
        limited: watched.limited(),
        fixedSeen,
        sandboxGetSwap: (await this.sandbox.count('getSwap')) - getSwap0,
        time,
      };
    } finally {
      clearInterval(pinger);
      ping.disconnect();
      for (const t of timers) clearTimeout(t);
      watched?.off();
      b.telegram.setLimits({});
      await Promise.allSettled([...workers.values()].map((w) => w.stop()));
      await Promise.allSettled([...ctls.values()].map((c) => c.close()));
    }
  }
}

/** Per swap: sandbox ms from each confirmation k (0 = the deposit) to the first card (or poll) showing k or more. */
function lags(s: Swap, seen: ReadonlyArray<{ at: number; shown: number }>): number[] {
  const out: number[] = [];
  for (let k = 0; k <= CONFIRMATIONS; k++) {
    const at = s.depositAt + k * TIMINGS.confirmationIntervalMs;
    const first = seen.find((c) => c.shown >= k);
    out.push(first ? first.at - at : NaN);
  }
  return out;
}

export async function runEconomy(b: Bench, opts: Partial<EconomyOptions> = {}): Promise<Section> {
  const o = { ...DEFAULTS, ...opts };
  const section = emptySection(5, 'API economy: GET /swaps/{id} per swap, end to end (sandbox webhooks -> web -> worker)');
  const rig = await Rig.start(b, { base: Date.UTC(2026, 0, 1), realBase: Date.now(), speed: o.typicalSpeed });
  let typical: PhaseResult;
  let abandoned: PhaseResult;
  let webhooks: { attempted: number; delivered: number; failed: number };
  try {
    typical = await rig.phase('typical lifecycle', o.swaps, TYPICAL_WAIT_MS, FIXED);
    await rig.setSpeed(o.abandonedSpeed);
    abandoned = await rig.phase('abandoned swap', o.swaps, null, []);
    webhooks = await rig.sandbox.webhookStats();
  } finally {
    await rig.close();
  }
  let chained: ChainPhase | undefined;
  if (o.chain !== false) {
    const chainRig = await Rig.start(b, { base: Date.UTC(2026, 0, 1), realBase: Date.now(), speed: o.typicalSpeed }, true);
    try {
      const r = await chainRig.phase('typical lifecycle, webhooks + chain watcher', o.swaps, TYPICAL_WAIT_MS, [], ['webhooks']);
      chained = {
        swaps: r.swaps.webhooks ?? [],
        requests: (r.requests.webhooks ?? []).map((x) => x.length),
        times: r.requests.webhooks ?? [],
        cards: r.cards,
        readings: await chainRig.sandbox.chainReadings(),
        confirmations: CONFIRMATIONS,
        blockMs: TIMINGS.confirmationIntervalMs,
        speed: o.typicalSpeed,
      };
    } finally {
      await chainRig.close();
    }
  }

  const reqOf = (r: PhaseResult, g: string) => (r.requests[g] ?? []).map((times) => times.length);
  const meanReq = (r: PhaseResult, g: string) => mean(reqOf(r, g));
  const fixed5 = meanReq(typical, 'fixed 5000');
  const perSwapRow = (r: PhaseResult, g: string, figure: string, beside: { label: string; mean: number }) => {
    const m = meanReq(r, g);
    section.rows.push({
      figure: `${figure} (mean ${fmt(m)})`,
      unit: 'req/swap',
      value: spread(reqOf(r, g)),
      beside: { label: beside.label, unit: 'req/swap', value: spread([beside.mean]) },
      ratio: { label: `${beside.label} / this`, value: spread([beside.mean / m]) },
    });
    return m;
  };
  const wh = perSwapRow(typical, 'webhooks', `typical, ${POLICY_LABEL.webhooks}`, { label: 'fixed 5 s', mean: fixed5 });
  const poll = perSwapRow(typical, 'polling', `typical, ${POLICY_LABEL.polling}`, { label: 'fixed 5 s', mean: fixed5 });
  const f30 = perSwapRow(typical, 'fixed 30000', 'typical, fixed 30 s', { label: 'fixed 5 s', mean: fixed5 });
  section.rows.push({ figure: `typical, fixed 5 s (mean ${fmt(fixed5)})`, unit: 'req/swap', value: spread(reqOf(typical, 'fixed 5000')) });
  // An abandoned swap with a fixed poller is plain arithmetic: a poll at 0 and every interval up to the expiry.
  const fixedAbandoned = (ms: number) => 1 + Math.ceil(TIMINGS.expiryMs / ms);
  const abWh = perSwapRow(abandoned, 'webhooks', `abandoned (6 h), ${POLICY_LABEL.webhooks}`, {
    label: 'no webhooks',
    mean: meanReq(abandoned, 'polling'),
  });
  const abPoll = perSwapRow(abandoned, 'polling', `abandoned (6 h), ${POLICY_LABEL.polling}`, {
    label: 'fixed 30 s',
    mean: fixedAbandoned(30_000),
  });

  // Deposit detection and confirmation edits, from the cards at the fake Telegram (pollers: from their polls).
  const depositCard: Record<Policy, number[]> = { webhooks: [], polling: [] };
  const confLag: Record<Policy, number[]> = { webhooks: [], polling: [] };
  /** Real ms from the webhook's status change to the first deposit card (negative: a waiting poll showed it before). */
  const depositVsWebhookMs: number[] = [];
  /** Real ms from that change to the first card showing it (all confirmations): the webhook path itself. */
  const webhookCardMs: number[] = [];
  const shownConfs: Record<Policy, number[]> = { webhooks: [], polling: [] };
  /** The lag of confirmations made once the card showed the deposit: the confirmation pacing alone. */
  const pacedLag: Record<Policy, number[]> = { webhooks: [], polling: [] };
  for (const p of ['webhooks', 'polling'] as const) {
    for (const s of typical.swaps[p] ?? []) {
      const cards = typical.cards.get(s.chat) ?? [];
      const l = lags(s, cards);
      depositCard[p].push((l[0] ?? NaN) / 1000);
      confLag[p].push(...l.slice(1).map((x) => x / 1000));
      const shownAt = s.depositAt + (l[0] ?? NaN);
      for (let k = 1; k < l.length; k++)
        if (s.depositAt + k * TIMINGS.confirmationIntervalMs >= shownAt) pacedLag[p].push((l[k] ?? NaN) / 1000);
      shownConfs[p].push(new Set(cards.filter((c) => c.shown >= 1 && c.shown < CONFIRMATIONS).map((c) => c.shown)).size);
      if (p === 'webhooks') {
        // The first webhook after a deposit is ls_transfer_pending, once it is confirmed.
        const webhookReal = realAt(typical.time, s.depositAt + CONFIRMATIONS * TIMINGS.confirmationIntervalMs);
        const first = cards.find((c) => c.shown >= 0);
        if (first) depositVsWebhookMs.push(first.real - webhookReal);
        const turned = cards.find((c) => c.shown >= CONFIRMATIONS);
        if (turned) webhookCardMs.push(turned.real - webhookReal);
      }
    }
  }
  const fixedDeposit = (typical.swaps['fixed 5000'] ?? []).map(
    (s) =>
      (lags(
        s,
        (typical.fixedSeen.get(s.id) ?? []).map((at, shown) => ({ at, shown })),
      )[0] ?? NaN) / 1000,
  );
  const afterWebhookMs = depositVsWebhookMs.filter((x) => x >= 0);
  const beforeWebhook = depositVsWebhookMs.length - afterWebhookMs.length;
  const afterWebhook = spread(afterWebhookMs.map((x) => x / 1000));
  const webhookCard = spread(webhookCardMs.map((x) => x / 1000));
  const depWh = spread(depositCard.webhooks);
  const depPoll = spread(depositCard.polling);
  section.rows.push(
    {
      figure: 'typical, webhooks: status change that sends the webhook -> first card showing the deposit, swaps not shown it before',
      unit: 's',
      value: afterWebhook,
    },
    { figure: 'typical, webhooks: status change that sends the webhook -> first card showing that change', unit: 's', value: webhookCard },
    {
      figure: 'typical, deposit -> first card showing it, webhooks',
      unit: 'sandbox s',
      value: depWh,
      beside: { label: 'no webhooks', unit: 's', value: depPoll },
    },
    { figure: 'typical, deposit -> fixed 5 s poll seeing it (no delivery)', unit: 'sandbox s', value: spread(fixedDeposit) },
    {
      figure: `typical, each confirmation -> card showing it, webhooks (mean ${fmt(mean(confLag.webhooks.filter(Number.isFinite)))})`,
      unit: 'sandbox s',
      value: spread(confLag.webhooks),
      beside: {
        label: `no webhooks (mean ${fmt(mean(confLag.polling.filter(Number.isFinite)))})`,
        unit: 's',
        value: spread(confLag.polling),
      },
    },
  );

  const ratio = fixed5 / wh;
  section.targets.push(
    {
      text: 'with webhooks >= 3.5x fewer requests than fixed 5 s polling (typical lifecycle, end to end)',
      measured: `${fmt(wh)} vs ${fmt(fixed5)} requests per swap = ${fmt(ratio)}x fewer (no webhooks: ${fmt(fixed5 / poll)}x; fixed 30 s: ${fmt(fixed5 / f30)}x)`,
      pass: Number.isFinite(ratio) ? ratio >= 3.5 : null,
    },
    {
      // A deposit card before the webhook (a waiting poll saw the deposit) is within the target too.
      text: 'first "deposit seen" card no later than 2 s after the webhook (worst swap)',
      measured:
        `${beforeWebhook} of ${depositVsWebhookMs.length} swaps showed the deposit at a waiting poll before the webhook` +
        (afterWebhookMs.length ? `; the others ${fmt(afterWebhook.median)} s median, ${fmt(afterWebhook.max)} s worst after it` : '') +
        (webhookCardMs.length
          ? `; the webhook's own change on the card ${fmt(webhookCard.median)} s median, ${fmt(webhookCard.max)} s worst`
          : ''),
      pass: depositVsWebhookMs.length ? Math.max(...depositVsWebhookMs) <= 2_000 : null,
    },
    {
      text: 'confirmation edits with webhooks no later than without (mean lag per confirmation once the card shows the deposit)',
      measured:
        `${fmt(mean(pacedLag.webhooks))} s vs ${fmt(mean(pacedLag.polling))} s sandbox time; confirmations shown one by one: ${fmt(mean(shownConfs.webhooks))} vs ${fmt(mean(shownConfs.polling))} of ${CONFIRMATIONS - 1}; ` +
        `counting the confirmations made before the deposit was first shown: ${fmt(mean(confLag.webhooks))} s vs ${fmt(mean(confLag.polling))} s`,
      pass:
        Number.isFinite(mean(pacedLag.webhooks)) && Number.isFinite(mean(pacedLag.polling))
          ? mean(pacedLag.webhooks) <= mean(pacedLag.polling)
          : null,
      ...(mean(confLag.webhooks) > mean(confLag.polling)
        ? {
            why:
              'Layerswap (and the sandbox) sends a webhook on a status change only, and the status stays user_transfer_pending while the deposit confirms: ' +
              `with webhooks trusted a waiting swap is polled every ${CONFIG_DEFAULTS.POLL_WAITING_MS / 1000} s (POLL_WAITING_MS) for its first ${DEPOSIT_WINDOW_MS / MIN} min, then every ${CONFIG_DEFAULTS.POLL_SAFETY_MS / MIN} min (POLL_SAFETY_MS), ` +
              "so a deposit is first seen at the next waiting poll, with the confirmations it gathered meanwhile shown at once; from then the confirmations are paced by the swap's blocks. " +
              '"I\'ve sent it" polls at once (not exercised here). A shorter POLL_WAITING_MS trades requests for this lag.',
          }
        : {}),
    },
  );
  // Where the requests go: before the deposit, while it confirms, after it is confirmed.
  const confirmedAfter = CONFIRMATIONS * TIMINGS.confirmationIntervalMs;
  const byPhase = (g: string) => {
    const sums = [0, 0, 0];
    const list = typical.requests[g] ?? [];
    (typical.swaps[g] ?? []).forEach((s, i) => {
      for (const at of list[i] ?? []) sums[at < s.depositAt ? 0 : at < s.depositAt + confirmedAfter ? 1 : 2]! += 1;
    });
    return sums.map((x) => fmt(x / Math.max(list.length, 1))).join(' / ');
  };
  section.notes.push(
    `requests by phase, mean per swap (before the deposit / while it confirms / once confirmed): webhooks ${byPhase('webhooks')}; no webhooks ${byPhase('polling')}; ` +
      `fixed 5 s ${byPhase('fixed 5000')}; fixed 30 s ${byPhase('fixed 30000')}.`,
  );
  const capacity = (req: number) => Math.round((RATE * ((TYPICAL_WAIT_MS + CONFIRMING_MS) / 1000)) / req);
  section.notes.push(
    `swaps one API key follows at ${RATE} requests/s (LAYERSWAP_RATE_LIMIT), typical 5-minute lifecycle: webhooks ${capacity(wh)}, no webhooks ${capacity(poll)}, fixed 5 s ${capacity(fixed5)}, fixed 30 s ${capacity(f30)}; ` +
      `abandoned swap: webhooks ${fmt(abWh)}, no webhooks ${fmt(abPoll)}, fixed 5 s ${fixedAbandoned(5_000)} and fixed 30 s ${fixedAbandoned(30_000)} requests (fixed pollers computed, not run, for 6 h).`,
    `lifecycles: each swap followed from its own Telegram private chat when made; typical: deposit ${TYPICAL_WAIT_MS / MIN} min later (+-${PHASE_MS / 2000} s, seeded), ${CONFIRMATIONS} confirmations ${TIMINGS.confirmationIntervalMs / 1000} s apart, ` +
      `payout ${TIMINGS.payoutDelayMs / 1000} s later, completed ${TIMINGS.completionLagMs / 1000} s after it (${CONFIRMING_MS / 1000} s confirming); abandoned: never paid, expired after 6 h. ${o.swaps} swaps per policy.`,
    `time: the sandbox clock runs x${o.typicalSpeed} (typical) and x${o.abandonedSpeed} (abandoned); the workers read it as their clock and their BullMQ poll delays pass as many times faster, ` +
      `so the production cadence (POLL_FAST_MS ${CONFIG_DEFAULTS.POLL_FAST_MS}, POLL_SLOW_MS ${CONFIG_DEFAULTS.POLL_SLOW_MS}, POLL_WAITING_MS ${CONFIG_DEFAULTS.POLL_WAITING_MS} for ${DEPOSIT_WINDOW_MS / MIN} min, POLL_SAFETY_MS ${CONFIG_DEFAULTS.POLL_SAFETY_MS}, a tail of 6 x POLL_FAST_MS after each change once funds move, polled every 2 x POLL_FAST_MS) runs unchanged. ` +
      `Lags in sandbox s include the real delivery time x${o.typicalSpeed}; the webhook -> card latency is real time.`,
    `requests counted by each worker's client per swap and by the pollers; the sandbox served ${typical.sandboxGetSwap + abandoned.sandboxGetSwap} GET /swaps/{id} in all (the same sum). ` +
      `Webhooks: the sandbox signed and sent ${webhooks.attempted}, ${webhooks.delivered} accepted by the web process (swapbot web, POST /webhooks/layerswap), ${webhooks.failed} given up. Telegram's limits and the engine's Telegram rate run x${o.typicalSpeed} like the clock (each policy a bot of its own): the fake refused ${typical.limited} card sends or edits with 429 in the typical run.`,
  );
  if (chained) chainRows(section, chained);
  return section;
}

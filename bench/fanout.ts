import { EDIT_METHODS, SEND_METHODS } from './sinks/sink-event.js';
import { performance } from 'node:perf_hooks';
import type { ChatTarget } from '../src/contracts/incoming.js';
import { DEFAULT_PLATFORM_RATES, type RateLimit } from '../src/tracking/queues.js';
import { eachLimit, SANDBOX_TIMINGS, type Bench } from './context.js';
import { CpuMeter, redisPid } from './cpu.js';
import { deleteKeys } from './env.js';
import type { ChildHandle } from './ipc.js';
import { LATENCY_CADENCE } from './population.js';
import { emptySection, type Section } from './report.js';
import { DISCORD_LIMIT } from './sinks/discord-sink.js';
import type { SinkEvent } from './sinks/sink-event.js';
import { TELEGRAM_LIMITS } from './sinks/telegram-sink.js';
import { fmt, progress, sleep, spread, waitFor } from './stats.js';

/**
 * 6. Fan-out: one status change of one swap delivered to 5,000 following chats (Telegram private
 * chats and Discord channels in proportion to their limits, so both finish together) within the
 * platforms' limits. At the real limits one change takes over a minute, so time is compressed:
 * every limit keeps its count over a window `scale` times shorter, in the engine (BullMQ
 * limiters, discord.js REST's own global limit) and in the fake platforms alike. The delivery
 * span is multiplied back by `scale`; the detection (one poll) is not.
 */

export interface FanoutOptions {
  telegramChats: number;
  discordChannels: number;
  scale: number;
  repeats: number;
}

const DEFAULTS: FanoutOptions = { telegramChats: 2000, discordChannels: 3000, scale: 4, repeats: 3 };
/** The engine's own per-platform rates (jobs per second). */
const ENGINE_RATES = {
  telegram: (DEFAULT_PLATFORM_RATES.telegram.max * 1000) / DEFAULT_PLATFORM_RATES.telegram.duration,
  discord: (DEFAULT_PLATFORM_RATES.discord.max * 1000) / DEFAULT_PLATFORM_RATES.discord.duration,
};

export async function runFanout(b: Bench, opts: Partial<FanoutOptions> = {}): Promise<Section> {
  const o = { ...DEFAULTS, ...opts };
  const section = emptySection(6, 'Fan-out: one status change to 5,000 following chats within platform limits');
  const prefix = `${b.redis.prefix}-fan`;
  const window = 1000 / o.scale;
  const platformRates: Record<'telegram' | 'discord', RateLimit> = {
    telegram: { max: ENGINE_RATES.telegram, duration: window },
    discord: { max: ENGINE_RATES.discord, duration: window },
  };
  b.telegram.setLimits({
    overall: { limit: TELEGRAM_LIMITS.overall.limit, windowMs: window },
    perGroup: { limit: TELEGRAM_LIMITS.perGroup.limit, windowMs: TELEGRAM_LIMITS.perGroup.windowMs / o.scale },
    timeScale: o.scale,
  });
  b.discord.setLimits({ global: { limit: DISCORD_LIMIT.limit, windowMs: window } });
  const ctl = b.controller(prefix, LATENCY_CADENCE, platformRates);
  let worker: ChildHandle | undefined;
  const n = o.telegramChats + o.discordChannels;
  const targets: ChatTarget[] = Array.from({ length: n }, (_, i) =>
    i < o.telegramChats
      ? { platform: 'telegram', chatId: String(600_000_000 + i), chatKind: 'private' }
      : { platform: 'discord', chatId: String(800_000_000_000_000_000n + BigInt(i)), chatKind: 'group' },
  );
  const chats = new Set(targets.map((t) => t.chatId));
  const sent = new Set<string>();
  let stepStart = Infinity;
  let edits = new Map<string, number>();
  /** Per platform, the last edit of the change being measured (which platform sets the pace). */
  let lastBy = { telegram: 0, discord: 0 };
  /** Each 429: in which phase, to which call. */
  const refusals: string[] = [];
  let phase = 'first cards';
  const listener = (e: SinkEvent) => {
    if (e.limited) refusals.push(`${phase}: ${e.platform} ${e.method}`);
    if (!chats.has(e.chatId) || e.limited) return;
    if (SEND_METHODS.has(e.method)) sent.add(e.chatId);
    if (EDIT_METHODS.has(e.method) && e.at >= stepStart && !edits.has(e.chatId)) {
      edits.set(e.chatId, e.at);
      lastBy[e.platform] = Math.max(lastBy[e.platform], e.at);
    }
  };
  const offT = b.telegram.onEvent(listener);
  const offD = b.discord.onEvent(listener);
  const limitedNow = () => b.telegram.limited() + b.discord.limited();
  const tl0 = b.telegram.limited();
  const dl0 = b.discord.limited();
  const estimates: number[] = [];
  const measured: number[] = [];
  const detections: number[] = [];
  const paces: string[] = [];
  let limited = 0;
  let firstCardsSeconds: number | undefined;
  try {
    const started = await b.startWorker(
      'fan-worker',
      b.workerConfig(prefix, { cadence: LATENCY_CADENCE, platformRates, discordGlobalPerSecond: DISCORD_LIMIT.limit * o.scale }),
    );
    worker = started.handle;
    const [swapId] = await b.createSwaps(1);
    if (!swapId) throw new Error('no swap');
    await b.sandbox.deposit([swapId]);
    const limited0 = limitedNow();
    const t0 = performance.now();
    await eachLimit(targets, 32, (t, i) => ctl.service.follow(swapId, t, { userId: `fan-${i}` }));
    if (!(await waitFor(() => sent.size === n, 300_000, 50))) throw new Error(`only ${sent.size} of ${n} first cards arrived`);
    firstCardsSeconds = (performance.now() - t0) / 1000;
    limited += limitedNow() - limited0;
    progress(`fan-out: first cards to ${n} chats in ${fmt(firstCardsSeconds)} s (compressed ${o.scale}x)`);

    const meter = new CpuMeter({
      worker: worker.pid,
      'bench (fake platforms)': process.pid,
      sandbox: b.sandbox.child.pid,
      redis: await redisPid(b.redis.client),
    });
    for (let r = 0; r < o.repeats; r++) {
      await sleep(Math.random() * LATENCY_CADENCE.fastMs);
      edits = new Map();
      phase = `change ${r + 1}`;
      lastBy = { telegram: 0, discord: 0 };
      const l0 = limitedNow();
      stepStart = performance.now();
      meter.begin();
      await b.sandbox.advance(SANDBOX_TIMINGS.confirmationIntervalMs);
      if (!(await waitFor(() => edits.size === n, 300_000, 20))) throw new Error(`only ${edits.size} of ${n} edits arrived`);
      const times = [...edits.values()];
      const first = Math.min(...times) - stepStart;
      const last = Math.max(...times) - stepStart;
      paces.push(
        `change ${r + 1}: last Telegram edit ${fmt((lastBy.telegram - stepStart) / 1000)} s, last Discord edit ${fmt((lastBy.discord - stepStart) / 1000)} s compressed; CPU of one core meanwhile: ${meter.end()}`,
      );
      stepStart = Infinity;
      limited += limitedNow() - l0;
      measured.push(last / 1000);
      detections.push(first / 1000);
      estimates.push((first + (last - first) * o.scale) / 1000);
      progress(
        `fan-out change ${r + 1}: last edit after ${fmt(last / 1000)} s compressed, ~${fmt(estimates[r] as number)} s at the real limits`,
      );
    }
  } finally {
    offT();
    offD();
    section.notes.push(
      `429 replies: Telegram ${b.telegram.limited() - tl0}, Discord ${b.discord.limited() - dl0}${refusals.length ? ` (${[...new Set(refusals)].map((x) => `${x} x${refusals.filter((y) => y === x).length}`).join(', ')})` : ''}.`,
    );
    b.telegram.setLimits({});
    b.telegram.clearEvents();
    b.discord.clearEvents();
    b.discord.setLimits({});
    await worker?.stop();
    await ctl.close();
    await deleteKeys(b.redis.client, prefix);
  }

  const floor = Math.max(o.telegramChats / TELEGRAM_LIMITS.overall.limit, o.discordChannels / DISCORD_LIMIT.limit);
  const engineFloor = Math.max(o.telegramChats / ENGINE_RATES.telegram, o.discordChannels / ENGINE_RATES.discord);
  section.rows.push(
    {
      figure: `one change to ${n.toLocaleString('en-US')} chats, at the real limits (estimate)`,
      unit: 's',
      value: spread(estimates),
      beside: { label: 'floor set by the platform limits', unit: 's', value: spread([floor]) },
      ratio: { label: 'estimate / floor', value: spread(estimates.map((e) => e / floor)) },
    },
    { figure: `the same, measured with limits compressed ${o.scale}x`, unit: 's', value: spread(measured) },
    {
      figure: 'from the change to the first edited card',
      unit: 's',
      value: spread(detections),
      beside: { label: 'poll interval', unit: 's', value: spread([LATENCY_CADENCE.fastMs / 1000]) },
    },
  );
  section.targets.push({
    text: 'no 429 from the fake platforms (limits kept)',
    measured: `${limited} replies 429`,
    pass: limited === 0,
    ...(limited > 0
      ? {
          why:
            `the engine books each message's slot in the platform's rate (src/tracking/pacing.ts: a burst of 80% of the limit, then one per interval) and sends on its slot; ` +
            `a call later than its slot books again. A 429 means calls reached the fake platform closer together than they were booked, beyond the room the burst leaves (the notes say in which phase). ` +
            `Compressing time makes this likelier: the same jitter is a bigger part of a shorter window.`,
        }
      : {}),
  });
  section.notes.push(
    `${o.telegramChats.toLocaleString('en-US')} Telegram private chats and ${o.discordChannels.toLocaleString('en-US')} Discord channels follow one swap; the change is one more confirmation (one card edit per chat, no extra message); ${o.repeats} changes measured.`,
    `time compressed ${o.scale}x: Telegram ${TELEGRAM_LIMITS.overall.limit} messages per ${window} ms overall (${TELEGRAM_LIMITS.perGroup.limit} per ${TELEGRAM_LIMITS.perGroup.windowMs / o.scale / 1000} s per group), Discord ${DISCORD_LIMIT.limit} requests per ${window} ms, ` +
      `enforced by the fake platforms as token buckets (bursts up to the limit, refilled at its rate); the engine's limiters got the same windows (Telegram ${ENGINE_RATES.telegram}, Discord ${ENGINE_RATES.discord} jobs per window) and discord.js REST ${DISCORD_LIMIT.limit * o.scale} requests/s. ` +
      `Estimate at the real limits = time to the first edit + (last edit - first edit) x ${o.scale}.`,
    ...paces,
    `floor: ${fmt(floor)} s at the platforms' limits (${fmt(engineFloor)} s at the engine's own rates, Discord 45/s); first cards to all ${n.toLocaleString('en-US')} chats took ${fmt(firstCardsSeconds ?? NaN)} s compressed.`,
  );
  return section;
}

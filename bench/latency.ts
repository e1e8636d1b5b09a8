import { EDIT_METHODS, SEND_METHODS } from './sinks/sink-event.js';
import { performance } from 'node:perf_hooks';
import type { ChatTarget } from '../src/contracts/incoming.js';
import { eachLimit, SANDBOX_TIMINGS } from './context.js';
import { LATENCY_CADENCE, type Population } from './population.js';
import { emptySection, type Section } from './report.js';
import type { SinkEvent } from './sinks/sink-event.js';
import { fmt, percentile, progress, sleep, spread, waitFor } from './stats.js';

/**
 * 2. Update latency: from a status change in the sandbox to the edited card arriving at the fake
 * Telegram or Discord, while the population (10,000 followed swaps) is being polled. Each repeat
 * follows a fresh set of deposited swaps from Telegram private chats and Discord channels, then
 * moves the sandbox clock in steps: five single confirmations, then on to completed. A step
 * starts at a random moment so it lands anywhere in the poll interval, as real changes do.
 */

export interface LatencyOptions {
  repeats: number;
  telegramChats: number;
  discordChannels: number;
  steps: number;
}

const DEFAULTS: LatencyOptions = { repeats: 3, telegramChats: 20, discordChannels: 30, steps: 6 };

export async function runLatency(
  pop: Population,
  opts: Partial<LatencyOptions> = {},
  afterRepeat: () => Promise<void> = async () => undefined,
): Promise<Section> {
  const o = { ...DEFAULTS, ...opts };
  const b = pop.bench;
  const section = emptySection(2, 'Update latency: status change in the sandbox -> edited card at the platform');
  const interval = LATENCY_CADENCE.fastMs;
  const limited0 = b.telegram.limited() + b.discord.limited();
  const p50s: number[] = [];
  const p99s: number[] = [];
  const maxes: number[] = [];
  const detect99: number[] = [];
  const deliver99: number[] = [];
  const detect50: number[] = [];
  const deliver50: number[] = [];
  /** p99 of the single-confirmation steps (one edit per chat) and of the completion step (an edit and a message per chat). */
  const stepP99s: number[] = [];
  const lastP99s: number[] = [];
  /** The completion step's edits by platform, every repeat: which one makes its tail. */
  const lastBy: Record<'telegram' | 'discord', number[]> = { telegram: [], discord: [] };
  let timeouts = 0;
  const refused = new Map<string, number>();
  let samples = 0;

  for (let r = 0; r < o.repeats; r++) {
    const n = o.telegramChats + o.discordChannels;
    const ids = await b.createSwaps(n);
    await b.sandbox.deposit(ids);
    const targets: ChatTarget[] = ids.map((_, i) =>
      i < o.telegramChats
        ? { platform: 'telegram', chatId: String(700_000_000 + r * 1000 + i), chatKind: 'private' }
        : { platform: 'discord', chatId: String(900_000_000_000_000_000n + BigInt(r * 1000 + i)), chatKind: 'group' },
    );
    const chatOf = new Map(targets.map((t) => [t.chatId, t]));
    const swapOf = new Map(targets.map((t, i) => [t.chatId, ids[i] as string]));
    const sent = new Set<string>();
    let stepStart = Infinity;
    let edits = new Map<string, number>();
    const listener = (e: SinkEvent) => {
      if (e.limited) refused.set(`${e.platform} ${e.method}`, (refused.get(`${e.platform} ${e.method}`) ?? 0) + 1);
      if (!chatOf.has(e.chatId) || e.limited) return;
      if (SEND_METHODS.has(e.method)) sent.add(e.chatId);
      if (EDIT_METHODS.has(e.method) && e.at >= stepStart && !edits.has(e.chatId)) edits.set(e.chatId, e.at - stepStart);
    };
    const offT = b.telegram.onEvent(listener);
    const offD = b.discord.onEvent(listener);
    try {
      await eachLimit(ids, 8, (id, i) => pop.ctl.service.follow(id, targets[i] as ChatTarget, { userId: `lat-${r}-${i}` }));
      if (!(await waitFor(() => sent.size === n, 60_000, 20))) throw new Error(`only ${sent.size} of ${n} first cards arrived within 60 s`);
      const latencies: number[] = [];
      const stepLatencies: number[] = [];
      const lastLatencies: number[] = [];
      const detections: number[] = [];
      const deliveries: number[] = [];
      for (let s = 1; s <= o.steps; s++) {
        await sleep(Math.random() * interval * 1.1);
        edits = new Map();
        const stepEpoch = Date.now();
        stepStart = performance.now();
        // The last step runs the swaps to the end: the remaining confirmations and the payout.
        const last = s === o.steps;
        await b.sandbox.advance(
          last ? 12 * SANDBOX_TIMINGS.confirmationIntervalMs + SANDBOX_TIMINGS.payoutDelayMs : SANDBOX_TIMINGS.confirmationIntervalMs,
        );
        const ok = await waitFor(() => edits.size === n, 15_000, 10);
        if (!ok) timeouts += n - edits.size;
        latencies.push(...edits.values());
        (last ? lastLatencies : stepLatencies).push(...edits.values());
        if (last) for (const [chat, ms] of edits) lastBy[chatOf.get(chat)?.platform === 'telegram' ? 'telegram' : 'discord'].push(ms);
        stepStart = Infinity;
        // Where the time went: the poller records when the poll that saw the change began.
        const states = await Promise.all([...edits.keys()].map((chat) => pop.ctl.swapState(swapOf.get(chat) as string)));
        [...edits.values()].forEach((ms, i) => {
          const seen = states[i]?.lastChangeAt;
          if (seen === undefined || seen < stepEpoch) return;
          detections.push(seen - stepEpoch);
          deliveries.push(ms - (seen - stepEpoch));
        });
      }
      samples += latencies.length;
      p50s.push(percentile(latencies, 50));
      p99s.push(percentile(latencies, 99));
      stepP99s.push(percentile(stepLatencies, 99));
      lastP99s.push(percentile(lastLatencies, 99));
      maxes.push(Math.max(...latencies));
      detect50.push(percentile(detections, 50));
      detect99.push(percentile(detections, 99));
      deliver50.push(percentile(deliveries, 50));
      deliver99.push(percentile(deliveries, 99));
      await afterRepeat();
      progress(
        `latency repeat ${r + 1}: p50 ${fmt(percentile(latencies, 50))} ms, p99 ${fmt(percentile(latencies, 99))} ms over ${latencies.length} edits`,
      );
    } finally {
      offT();
      offD();
      b.telegram.clearEvents();
      b.discord.clearEvents();
    }
  }

  const beside = { label: 'poll interval in force', unit: 'ms', value: spread([interval]) };
  const ratio = (xs: number[]) => ({ label: 'latency / interval', value: spread(xs.map((x) => x / interval)) });
  section.rows.push(
    { figure: 'p50', unit: 'ms', value: spread(p50s), beside, ratio: ratio(p50s) },
    { figure: 'p99', unit: 'ms', value: spread(p99s), beside, ratio: ratio(p99s) },
    { figure: 'max', unit: 'ms', value: spread(maxes), beside, ratio: ratio(maxes) },
    {
      figure:
        'p99 of the single-confirmation steps (one edit per chat) / of the completion step (an edit and a "completed" message per chat)',
      unit: 'ms',
      value: spread(stepP99s),
      beside: { label: 'completion step', unit: 'ms', value: spread(lastP99s) },
    },
    {
      figure: 'of which change -> the poll that saw it, p50 / p99',
      unit: 'ms',
      value: spread(detect50),
      beside: { label: 'p99', unit: 'ms', value: spread(detect99) },
    },
    {
      figure: 'of which that poll -> card at the platform, p50 / p99',
      unit: 'ms',
      value: spread(deliver50),
      beside: { label: 'p99', unit: 'ms', value: spread(deliver99) },
    },
  );
  const p99 = spread(p99s).median;
  const limited = b.telegram.limited() + b.discord.limited() - limited0;
  section.targets.push({
    text: `update latency p99 <= poll interval + 150 ms (${interval + 150} ms; issue 38)`,
    measured: `${fmt(p99)} ms${timeouts ? `; ${timeouts} edits did not arrive within 15 s` : ''}`,
    pass: Number.isFinite(p99) ? p99 <= interval + 150 && timeouts === 0 : null,
  });
  section.notes.push(
    `the completion step by platform, p50 / p99 over every repeat: Telegram ${fmt(percentile(lastBy.telegram, 50))} / ${fmt(percentile(lastBy.telegram, 99))} ms, ` +
      `Discord ${fmt(percentile(lastBy.discord, 50))} / ${fmt(percentile(lastBy.discord, 99))} ms.`,
    `poll interval: the fast cadence shortened to ${interval} ms (POLL_FAST_MS, default 5,000) so the run is quick; it applies once a deposit is seen; the poll delay has +0-10% jitter, so up to ${interval * 1.1} ms.`,
    `${pop.followed.toLocaleString('en-US')} swaps followed while measuring: the population waiting for a deposit, polled every ${LATENCY_CADENCE.slowMs / 1000} s (POLL_SLOW_MS default) ` +
      `by one worker process (~${Math.round(pop.followed / (LATENCY_CADENCE.slowMs / 1000))} polls/s), plus the measured swaps.`,
    `each repeat: ${o.telegramChats} Telegram private chats and ${o.discordChannels} Discord channels follow one deposited swap each; ${o.steps} clock steps (5 single confirmations, then completion); ` +
      `${samples} edits measured in all, from the clock step to the edit's arrival at the fake platform. 429 replies from the fake platforms meanwhile: ${limited}${refused.size ? ` (${[...refused].map(([k, v]) => `${k} ${v}`).join(', ')}; the completion step sends each chat its card and a "completed" message, two messages per notify job)` : ''}.`,
  );
  return section;
}

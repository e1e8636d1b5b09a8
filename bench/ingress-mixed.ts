import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { Bench } from './context.js';
import { discordInteraction, telegramUpdate, type DiscordKey } from './ingress-payloads.js';
import type { Section } from './report.js';
import { SEND_METHODS, EDIT_METHODS, type SinkEvent } from './sinks/sink-event.js';
import { fmt, percentile, progress, sleep, spread, waitFor } from './stats.js';

/**
 * Part 13's mixed load (issue 38): Telegram webhook updates and Discord HTTP interactions
 * interleaved, commands (/help) and button presses (the help card's "Where is my swap?"), offered
 * at a fixed rate for a fixed window (an open loop: each update leaves at its planned moment
 * whether or not the earlier ones were answered, so a slow web process shows as latency, not as a
 * lower offered rate). Telegram's updates go over at most 40 connections (its default
 * max_connections); Discord's have no such cap. Every `redeliverEvery`-th Telegram update is POSTed
 * twice at once, as a retried webhook or two processes during a deploy would see it: it must be
 * answered once.
 *
 * Update -> first reply call: Telegram, from the planned moment to the first message call for that
 * chat at the fake Telegram (sendMessage or an edit); Discord, to the interaction's HTTP answer
 * (its first response).
 */

export interface MixedOptions {
  ratePerS: number;
  windowMs: number;
  telegramConnections: number;
  discordConnections: number;
  redeliverEvery: number;
}

const MIXED_DEFAULTS: MixedOptions = {
  ratePerS: 1_000,
  windowMs: 15_000,
  telegramConnections: 40,
  discordConnections: 256,
  redeliverEvery: 50,
};

export interface MixedTarget {
  /** The web process's CPU time so far (µs). */
  cpu(): Promise<number>;
  port: number;
  path: string;
  secret: string;
  key: DiscordKey;
}

type Kind = 'telegram /help' | 'discord /help' | 'telegram press' | 'discord press';
const KINDS: readonly Kind[] = ['telegram /help', 'discord /help', 'telegram press', 'discord press'];

interface Planned {
  kind: Kind;
  at: number;
  chat: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  redeliver: boolean;
}

/** Every update built and signed before the window, so the generator spends its time sending. */
function plan(o: MixedOptions, t: MixedTarget, base: number): Planned[] {
  const n = Math.round((o.ratePerS * o.windowMs) / 1000);
  const ts = String(Math.floor(Date.now() / 1000));
  return Array.from({ length: n }, (_, k): Planned => {
    const kind = KINDS[k % 4] as Kind;
    const press = kind.endsWith('press');
    const at = (k * 1000) / o.ratePerS;
    if (kind.startsWith('telegram')) {
      const chat = base + k;
      return {
        kind,
        at,
        chat: String(chat),
        path: t.path,
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': t.secret },
        body: JSON.stringify(telegramUpdate(chat, chat, press)),
        redeliver: (k >> 1) % o.redeliverEvery === 0,
      };
    }
    const body = JSON.stringify(discordInteraction(base + k, press));
    return {
      kind,
      at,
      chat: String(base + k),
      path: '/discord/interactions',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': t.key.sign(ts, body), 'x-signature-timestamp': ts },
      body,
      redeliver: false,
    };
  });
}

export async function runMixed(b: Bench, t: MixedTarget, section: Section, opts: Partial<MixedOptions> = {}): Promise<void> {
  const o = { ...MIXED_DEFAULTS, ...opts };
  const base = 880_000_000 + Math.floor(Math.random() * 1e7);
  const updates = plan(o, t, base);
  const origin = `http://127.0.0.1:${t.port}`;
  const tgPool = new Pool(origin, { connections: o.telegramConnections });
  const dcPool = new Pool(origin, { connections: o.discordConnections });
  const firstReply = new Map<string, number>();
  const calls = new Map<string, number>();
  const off = b.telegram.onEvent((e: SinkEvent) => {
    if (e.limited || !(SEND_METHODS.has(e.method) || EDIT_METHODS.has(e.method))) return;
    calls.set(e.chatId, (calls.get(e.chatId) ?? 0) + 1);
    if (!firstReply.has(e.chatId)) firstReply.set(e.chatId, e.at);
  });
  const answered = new Map<string, { at: number; status: number; type: string }>();
  const statuses = new Map<string, number>();
  const count = (k: string) => statuses.set(k, (statuses.get(k) ?? 0) + 1);
  let lastSent = 0;
  let lag = 0;
  const post = async (u: Planned, t0: number, again: boolean) => {
    const pool = u.kind.startsWith('telegram') ? tgPool : dcPool;
    try {
      const res = await pool.request({ method: 'POST', path: u.path, headers: u.headers, body: u.body });
      const text = await res.body.text();
      const at = performance.now();
      const type = u.kind.startsWith('discord') && res.statusCode === 200 ? String((JSON.parse(text) as { type?: number }).type) : '';
      count(`${u.kind.split(' ')[0]}${again ? ' again' : ''} HTTP ${res.statusCode}${type ? ` type ${type}` : ''}`);
      if (!again) answered.set(u.chat, { at: at - t0, status: res.statusCode, type });
    } catch (e) {
      count(`${u.kind.split(' ')[0]} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const load0 = os.loadavg()[0] ?? NaN;
  const cpu0 = await t.cpu();
  const wall0 = performance.now();
  try {
    const inFlight: Promise<void>[] = [];
    const t0 = performance.now() + 50;
    let next = 0;
    while (next < updates.length) {
      const now = performance.now() - t0;
      while (next < updates.length && (updates[next] as Planned).at <= now) {
        const u = updates[next++] as Planned;
        lag = Math.max(lag, now - u.at);
        inFlight.push(post(u, t0, false));
        if (u.redeliver) inFlight.push(post(u, t0, true));
      }
      lastSent = now;
      if (next < updates.length) await sleep(Math.max(0, Math.min(5, (updates[next] as Planned).at - now)));
    }
    await Promise.all(inFlight);
    // Every POST answered: a webhook is answered once its update is handled (its reply call made), an interaction with its first response.
    const cpuUsed = (await t.cpu()) - cpu0;
    /** The share of one core the web process got meanwhile: well below 1 while it was behind, the machine's other work took the rest. */
    const coreShare = cpuUsed / 1000 / (performance.now() - wall0);
    const tg = updates.filter((u) => u.kind.startsWith('telegram'));
    await waitFor(() => tg.every((u) => firstReply.has(u.chat)), 120_000, 50);
    // Late doubles: a second answer would come within the handling time of the first.
    await sleep(1_000);
    const load1 = os.loadavg()[0] ?? NaN;
    const latency = (u: Planned): number =>
      u.kind.startsWith('telegram') ? (firstReply.get(u.chat) ?? NaN) - t0 - u.at : (answered.get(u.chat)?.at ?? NaN) - u.at;
    const byKind = new Map(
      KINDS.map((k) => [
        k,
        updates
          .filter((u) => u.kind === k)
          .map(latency)
          .filter(Number.isFinite),
      ]),
    );
    const all = [...byKind.values()].flat();
    const cpuPerUpdate = cpuUsed / Math.max(1, all.length);
    // Lost: no reply call at all within two minutes (Telegram) or no 200 answer (Discord).
    const lostTg = tg.filter((u) => !firstReply.has(u.chat)).length;
    const lostDc = updates.filter((u) => u.kind.startsWith('discord') && answered.get(u.chat)?.status !== 200).length;
    const doubled = tg.filter((u) => (calls.get(u.chat) ?? 0) > 1).length;
    const done = Math.max(...updates.map((u) => latency(u) + u.at).filter(Number.isFinite));
    const perS = all.length / (done / 1000);
    const offered = updates.length / (lastSent / 1000);
    const redelivered = tg.filter((u) => u.redeliver).length;
    progress(
      `ingress mixed: ${updates.length} updates offered at ${fmt(offered)}/s, ${fmt(perS)}/s answered, p50 ${fmt(percentile(all, 50))} / p99 ${fmt(percentile(all, 99))} ms, ${lostTg + lostDc} lost, ${doubled} twice`,
    );
    section.rows.push(
      {
        figure: `mixed load: updates answered per second (offered ${o.ratePerS}/s for ${o.windowMs / 1000} s: Telegram and Discord, /help and button presses, a quarter each)`,
        unit: 'updates/s',
        value: spread([perS]),
        beside: { label: 'offered', unit: '/s', value: spread([offered]) },
      },
      {
        figure: 'mixed load: update -> first reply call, p50 / p99 (all kinds)',
        unit: 'ms',
        value: spread([percentile(all, 50)]),
        beside: { label: 'p99', unit: 'ms', value: spread([percentile(all, 99)]) },
      },
      {
        figure: `mixed load: web process CPU time per update answered (user + system; it had ${fmt(coreShare * 100)}% of one core meanwhile)`,
        unit: 'ms',
        value: spread([cpuPerUpdate / 1000]),
        beside: { label: 'one core at that cost takes', unit: 'updates/s', value: spread([1e6 / cpuPerUpdate]) },
      },
      ...KINDS.map((k) => ({
        figure: `mixed load: ${k}, p50 / p99`,
        unit: 'ms',
        value: spread([percentile(byKind.get(k) ?? [], 50)]),
        beside: { label: 'p99', unit: 'ms', value: spread([percentile(byKind.get(k) ?? [], 99)]) },
      })),
    );
    const p99 = percentile(all, 99);
    section.targets.push({
      text: 'mixed 1,000 updates/s against one web process: update -> first reply call p99 <= 250 ms, none lost, none answered twice',
      measured: `${fmt(perS)}/s answered of ${fmt(offered)}/s offered; p99 ${fmt(p99)} ms; ${lostTg} Telegram and ${lostDc} Discord lost; ${doubled} answered twice (${redelivered} Telegram updates POSTed twice)`,
      pass: p99 <= 250 && lostTg + lostDc === 0 && doubled === 0 && perS >= 0.95 * o.ratePerS,
    });
    section.notes.push(
      `Mixed load: ${updates.length} updates planned ${fmt(1000 / o.ratePerS)} ms apart for ${o.windowMs / 1000} s, in turn a Telegram /help, a Discord /help, a Telegram press and a Discord press of the help card's "Where is my swap?" button (a Redis write and a prompt), each from a private chat of its own; ` +
        `an open loop (each update leaves at its planned moment; the generator was at most ${fmt(lag)} ms late), Telegram over ${o.telegramConnections} connections, Discord over ${o.discordConnections} (all from 127.0.0.1: the web process takes at most 128 connections from one address). ` +
        `Latency from the planned moment: Telegram to the first message call for that chat at the fake Telegram, Discord to the interaction's HTTP answer. Every ${o.redeliverEvery}th Telegram update was POSTed twice at once (${redelivered}). ` +
        `Answers: ${[...statuses].map(([k, n]) => `${k} x${n}`).join(', ')}. Load average ${fmt(load0)} before the window, ${fmt(load1)} after; the generator shares the cores with the web process.`,
    );
  } finally {
    off();
    await tgPool.close();
    await dcPool.close();
  }
}

import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { Bench } from './context.js';
import { deleteKeys } from './env.js';
import { ChildHandle } from './ipc.js';
import { emptySection, type Section } from './report.js';
import type { SinkEvent } from './sinks/sink-event.js';
import { APP_ID, discordInteraction, ed25519, freePort, telegramUpdate, type DiscordKey } from './ingress-payloads.js';
import { runMixed, type MixedOptions } from './ingress-mixed.js';
import { fmt, percentile, progress, spread, waitFor } from './stats.js';

/**
 * 13. Ingress: Telegram webhook updates one web process (`swapbot web`, its own process) takes.
 * Updates are POSTed as Telegram does (the secret header, up to TELEGRAM_WEBHOOK_MAX_CONNECTIONS
 * = 40 at once), each a /help from a private chat of its own; the fake Telegram's limits are
 * lifted for the part, so what is measured is the web process, not the platform's 30 messages/s.
 * Measured: updates answered per second, and per update the time from its POST to the HTTP answer
 * and to the reply reaching the fake Telegram (sendMessage for that chat); lost or doubled replies.
 */

export interface IngressOptions {
  updates: number;
  connections: number;
  /** The mixed load after the two platforms alone (ingress-mixed.ts). */
  mixed: Partial<MixedOptions>;
}

const DEFAULTS: IngressOptions = { updates: 3_000, connections: 40, mixed: {} };

/** The same number of Discord interactions over HTTP, `connections` at a time: POST answer times and kinds. */
async function discordPhase(b: Bench, pool: Pool, key: DiscordKey, o: IngressOptions, section: Section): Promise<void> {
  const answered: number[] = [];
  const kinds = new Map<string, number>();
  let next = 0;
  const one = async () => {
    while (next < o.updates) {
      const body = JSON.stringify(discordInteraction(next++));
      const ts = String(Math.floor(Date.now() / 1000));
      const t0 = performance.now();
      const res = await pool.request({
        method: 'POST',
        path: '/discord/interactions',
        headers: { 'content-type': 'application/json', 'x-signature-ed25519': key.sign(ts, body), 'x-signature-timestamp': ts },
        body,
      });
      const text = await res.body.text();
      answered.push(performance.now() - t0);
      const type = res.statusCode === 200 ? String((JSON.parse(text) as { type?: number }).type) : `HTTP ${res.statusCode}`;
      kinds.set(type, (kinds.get(type) ?? 0) + 1);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: o.connections }, one));
  const perS = o.updates / ((performance.now() - t0) / 1000);
  progress(`ingress: ${o.updates} Discord interactions, ${fmt(perS)}/s, answer p99 ${fmt(percentile(answered, 99))} ms`);
  section.rows.push(
    {
      figure: `Discord HTTP interactions answered per second (/help in a DM, ${o.connections} connections)`,
      unit: 'interactions/s',
      value: spread([perS]),
    },
    {
      figure: `interaction POSTed -> its answer (the first response), p50 / p99 (response types: ${[...kinds].map(([k, n]) => `${k} x${n}`).join(', ')})`,
      unit: 'ms',
      value: spread([percentile(answered, 50)]),
      beside: { label: 'p99', unit: 'ms', value: spread([percentile(answered, 99)]) },
    },
  );
  const bad = [...kinds].filter(([k]) => k.startsWith('HTTP')).reduce((n, [, v]) => n + v, 0);
  section.targets.push({ text: 'every Discord interaction answered 200', measured: `${bad} not`, pass: bad === 0 });
  void b;
}

export async function runIngress(b: Bench, opts: Partial<IngressOptions> = {}): Promise<Section> {
  const o = { ...DEFAULTS, ...opts };
  const section = emptySection(13, 'Ingress: Telegram webhook updates and Discord HTTP interactions one web process takes');
  const port = await freePort();
  const secret = randomBytes(24).toString('base64url');
  const prefix = `${b.redis.prefix}-ingress`;
  const path = '/telegram/bench-webhook';
  const web = ChildHandle.start('web-ingress', 'web-child.js');
  const discordKey = ed25519();
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: o.connections });
  const firstReply = new Map<string, number>();
  const replies = new Map<string, number>();
  const off = b.telegram.onEvent((e: SinkEvent) => {
    if (e.limited || e.method !== 'sendMessage') return;
    replies.set(e.chatId, (replies.get(e.chatId) ?? 0) + 1);
    if (!firstReply.has(e.chatId)) firstReply.set(e.chatId, e.at);
  });
  b.telegram.setLimits({ overall: { limit: 1_000_000, windowMs: 1000 }, perGroup: { limit: 1_000_000, windowMs: 1000 } });
  try {
    await web.call('start', {
      LAYERSWAP_API_KEY: b.sandbox.apiKey,
      LAYERSWAP_API_URL: b.sandbox.url,
      REDIS_URL: b.redis.url,
      REDIS_PREFIX: prefix,
      PORT: String(port),
      TELEGRAM_BOT_TOKEN: b.telegram.token,
      TELEGRAM_API_ROOT: b.telegram.apiRoot,
      TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}${path}`,
      TELEGRAM_WEBHOOK_SECRET: secret,
      DISCORD_TOKEN: b.discord.token,
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_URL: b.discord.api,
      DISCORD_INTERACTIONS: 'http',
      DISCORD_PUBLIC_KEY: discordKey.publicHex,
    });
    const base = 870_000_000 + Math.floor(Math.random() * 1e7);
    const sentAt = new Map<string, number>();
    const answered: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const one = async () => {
      while (next < o.updates) {
        const k = next++;
        const chat = base + k;
        const update = telegramUpdate(base + k, chat);
        const t0 = performance.now();
        sentAt.set(String(chat), t0);
        const res = await pool.request({
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
          body: JSON.stringify(update),
        });
        await res.body.dump();
        answered.push(performance.now() - t0);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: o.connections }, one));
    const postsMs = performance.now() - t0;
    await waitFor(() => firstReply.size >= o.updates, 60_000, 50);
    const lastReply = Math.max(...firstReply.values());
    const toReply = [...firstReply].map(([chat, at]) => at - (sentAt.get(chat) ?? NaN)).filter(Number.isFinite);
    const lost = o.updates - firstReply.size;
    const doubled = [...replies.values()].filter((n) => n > 1).length;
    const perS = o.updates / ((lastReply - t0) / 1000);
    progress(`ingress: ${o.updates} updates, ${fmt(perS)}/s to the last reply, reply p99 ${fmt(percentile(toReply, 99))} ms`);
    section.rows.push(
      {
        figure: `Telegram webhook updates answered per second (/help, ${o.connections} connections), to the last reply`,
        unit: 'updates/s',
        value: spread([perS]),
        beside: { label: 'POSTs answered/s', unit: '/s', value: spread([o.updates / (postsMs / 1000)]) },
      },
      {
        figure: 'update POSTed -> reply at the fake Telegram, p50 / p99',
        unit: 'ms',
        value: spread([percentile(toReply, 50)]),
        beside: { label: 'p99', unit: 'ms', value: spread([percentile(toReply, 99)]) },
      },
      {
        figure: "update POSTed -> the webhook's HTTP answer, p50 / p99",
        unit: 'ms',
        value: spread([percentile(answered, 50)]),
        beside: { label: 'p99', unit: 'ms', value: spread([percentile(answered, 99)]) },
      },
    );
    await discordPhase(b, pool, discordKey, o, section);
    await runMixed(
      b,
      { port, path, secret, key: discordKey, cpu: async () => (await web.call<{ micros: number }>('cpu')).micros },
      section,
      o.mixed,
    );
    section.targets.push({
      text: 'every Telegram update answered once (none lost, none twice)',
      measured: `${lost} lost, ${doubled} answered twice, HTTP ${[...statuses].map(([s, n]) => `${s} x${n}`).join(', ')}`,
      pass: lost === 0 && doubled === 0,
    });
    section.notes.push(
      `${o.updates} updates, each a /help from a private chat of its own, POSTed to one \`swapbot web\` process (its own process, Telegram in webhook mode) ${o.connections} at a time ` +
        "(Telegram's default max_connections), with the secret header; the fake Telegram's limits lifted for this part (the web process is measured, not the platform's 30 messages/s). " +
        'Reply time: from the POST leaving to the sendMessage reaching the fake Telegram. Discord: as many interactions (a /help slash command in a DM each, signed with the Ed25519 key the web process was given as DISCORD_PUBLIC_KEY) POSTed to /discord/interactions the same way after the Telegram run; the answer to the POST is its first response.',
    );
    return section;
  } finally {
    off();
    b.telegram.setLimits({});
    await pool.close();
    await web.stop();
    await deleteKeys(b.redis.client, prefix);
  }
}

import { performance } from 'node:perf_hooks';
import { discordRateLimited } from '../../test/fakes/answers.js';
import { discordBody, type Json } from '../../test/fakes/bodies.js';
import { listen, readBody, sendJson } from '../../test/fakes/http.js';
import { sinkRecorder, type SinkEvent, type SinkRecord } from './sink-event.js';
import { TokenBucket } from './token-bucket.js';
import type { Limit } from './telegram-sink.js';

/**
 * A fake Discord REST API on 127.0.0.1 for DiscordMessenger (api: `${url}/api`; the client adds
 * /v10). It answers channel message POST/PATCH and DM channel creation like Discord, records when
 * each arrives, and enforces the global limit (default 50 requests per second, every request
 * counted) with a 429 carrying Retry-After and X-RateLimit-Global, as Discord does. Its HTTP,
 * request bodies and answers are those of the end-to-end fake (test/fakes).
 */

export interface DiscordSinkOptions {
  global?: Limit;
}

export interface DiscordSink extends SinkRecord {
  /** Give this to DiscordMessenger as api. */
  readonly api: string;
  readonly token: string;
  /** Changes the limit enforced from now on (the fan-out run compresses time). */
  setLimits(options: DiscordSinkOptions): void;
  close(): Promise<void>;
}

export const DISCORD_LIMIT: Readonly<Limit> = { limit: 50, windowMs: 1000 };

let snowflake = 1_300_000_000_000_000_000n;
const nextId = () => String(++snowflake);

export async function startDiscordSink(options: DiscordSinkOptions = {}): Promise<DiscordSink> {
  let global = new TokenBucket(DISCORD_LIMIT.limit, DISCORD_LIMIT.windowMs);
  const setLimits = (o: DiscordSinkOptions) => {
    const rule = o.global ?? DISCORD_LIMIT;
    global = new TokenBucket(rule.limit, rule.windowMs);
  };
  setLimits(options);
  const recorder = sinkRecorder();
  const dmChannels = new Map<string, string>();

  const server = await listen(async (req, res) => {
    const body = await readBody(req);
    const at = performance.now();
    const path = (req.url ?? '').replace(/\?.*$/, '');
    const post = /^\/api\/v10\/channels\/(\d+)\/messages$/.exec(path);
    const patch = /^\/api\/v10\/channels\/(\d+)\/messages\/(\d+)$/.exec(path);
    const dm = path === '/api/v10/users/@me/channels';
    // Interactions over HTTP (bench part 13): the bot's own user at start; an interaction's edits and follow-ups.
    if (req.method === 'GET' && (path === '/api/v10/users/@me' || path === '/api/v10/users/%40me')) {
      sendJson(res, 200, { id: '1', username: 'bench-swapbot', discriminator: '0', bot: true, avatar: null });
      return;
    }
    const hook = /^\/api\/v10\/webhooks\/\d+\/([^/]+)(?:\/messages\/(@original|\d+))?$/.exec(path);
    if (hook) {
      const event: SinkEvent = {
        platform: 'discord',
        method: 'interaction',
        chatId: hook[1] ?? '',
        messageId: '',
        at,
        limited: false,
        text: '',
      };
      recorder.record(event);
      recorder.deliver();
      sendJson(res, 200, {
        id: nextId(),
        channel_id: '1',
        type: 0,
        content: '',
        embeds: [],
        components: [],
        timestamp: new Date().toISOString(),
      });
      return;
    }
    const method =
      req.method === 'POST' && post ? 'send' : req.method === 'PATCH' && patch ? 'edit' : req.method === 'POST' && dm ? 'dm' : undefined;
    if (!method) {
      sendJson(res, 404, { message: '404: Not Found', code: 0 });
      return;
    }
    let fields: Json;
    try {
      const decoded = discordBody(body, req.headers['content-type']).body;
      fields = decoded && !Array.isArray(decoded) ? decoded : {};
    } catch (e) {
      sendJson(res, 400, { message: `Invalid JSON: ${(e as Error).message}`, code: 50109 });
      return;
    }
    const chatId = (post?.[1] ?? patch?.[1] ?? '') || String(fields.recipient_id ?? '');
    const messageId = method === 'edit' ? (patch?.[2] ?? '') : method === 'send' ? nextId() : '';
    const wait = global.take(at);
    const event: SinkEvent = { platform: 'discord', method, chatId, messageId, at, limited: wait > 0, text: embedText(fields) };
    recorder.record(event);
    if (wait > 0) {
      const limited = discordRateLimited(Number(Math.max(0.001, wait / 1000).toFixed(3)), { global: true });
      sendJson(res, limited.status, limited.body, limited.headers);
      return;
    }
    if (method === 'dm') {
      let id = dmChannels.get(chatId);
      if (!id) dmChannels.set(chatId, (id = nextId()));
      sendJson(res, 200, { id, type: 1, recipients: [{ id: chatId, username: 'bench' }] });
      return;
    }
    recorder.deliver();
    sendJson(res, 200, {
      id: messageId,
      channel_id: chatId,
      type: 0,
      content: '',
      embeds: fields.embeds ?? [],
      components: fields.components ?? [],
      timestamp: new Date().toISOString(),
      ...(method === 'edit' ? { edited_timestamp: new Date().toISOString() } : { edited_timestamp: null }),
      author: { id: '1', username: 'bench-swapbot', bot: true },
    });
  });

  return {
    ...recorder.view,
    api: `${server.url}/api`,
    token: 'bench.discord.token',
    setLimits,
    close: () => server.close(),
  };
}

/** Titles, descriptions and field values of the embeds, to tell cards apart. */
function embedText(fields: Record<string, unknown>): string {
  const embeds = Array.isArray(fields.embeds) ? (fields.embeds as Array<Record<string, unknown>>) : [];
  const parts: string[] = [];
  for (const e of embeds) {
    if (typeof e.title === 'string') parts.push(e.title);
    if (typeof e.description === 'string') parts.push(e.description);
    if (Array.isArray(e.fields))
      for (const f of e.fields as Array<Record<string, unknown>>) parts.push(`${String(f.name)}: ${String(f.value)}`);
  }
  return parts.join('\n');
}

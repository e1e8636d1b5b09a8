import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import { Webhook, WebhookVerificationError } from 'svix';
import { asError, silentLogger, type Logger } from '../log.js';
import { webhookHints } from '../metrics.js';
import { TrackingKeys } from '../contracts/keys.js';
import { isSwapId } from '../contracts/swap-id.js';

/**
 * Layerswap swap-status webhooks, delivered through Svix. A verified notification is only a hint:
 * it pulls that swap's poll job forward; polling stays the source of truth (the payload is a
 * subset of the swap for most statuses anyway).
 *
 * - bad or missing signature, or a timestamp outside Svix's 5-minute tolerance: 401;
 * - missing Svix headers or a body over 1 MB: 400 / 413;
 * - a message id seen before (a replay): 200 without any effect, so Svix stops retrying;
 * - signed but without a swap id: 200, ignored.
 */

export interface ReplayGuard {
  /** True the first time an id is claimed within the TTL. */
  claim(id: string, ttlMs: number): Promise<boolean>;
  /** Forget a claim (the hint failed, so a retry should be accepted). */
  release(id: string): Promise<void>;
}

/** In-process guard: enough for one web process. */
function memoryReplayGuard(): ReplayGuard {
  const seen = new Map<string, number>();
  return {
    async claim(id, ttlMs) {
      const now = Date.now();
      for (const [k, until] of seen) if (until < now) seen.delete(k);
      if (seen.has(id)) return false;
      seen.set(id, now + ttlMs);
      return true;
    },
    async release(id) {
      seen.delete(id);
    },
  };
}

/** Shared guard in Redis, for several web processes behind a load balancer. */
export function redisReplayGuard(redis: Redis, prefix: string): ReplayGuard {
  const keys = new TrackingKeys(prefix);
  const key = (id: string) => keys.webhookSeen(Buffer.from(id).toString('base64url').slice(0, 200));
  return {
    async claim(id, ttlMs) {
      return (await redis.set(key(id), '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
    async release(id) {
      await redis.del(key(id));
    },
  };
}

export interface WebhookResult {
  status: number;
  body: { ok: boolean; error?: string; ignored?: string; swapId?: string };
}

export type Headers = Record<string, string | string[] | undefined>;

export interface WebhookHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** The same logic over a raw body and its headers (for frameworks that read the body). */
  handle(rawBody: string, headers: Headers): Promise<WebhookResult>;
}

const MAX_BODY = 1024 * 1024;
/** Longer than Svix's timestamp tolerance (5 min): older replays fail the timestamp check. */
const REPLAY_TTL_MS = 15 * 60_000;

export function createWebhookHandler(options: {
  secret: string;
  onSwapHint(swapId: string): Promise<void>;
  logger?: Logger;
  replay?: ReplayGuard;
}): WebhookHandler {
  const logger = options.logger ?? silentLogger;
  const replay = options.replay ?? memoryReplayGuard();
  const verifier = new Webhook(options.secret);

  const handle = async (rawBody: string, headers: Headers): Promise<WebhookResult> => {
    const h = (name: string) => {
      const v = headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const id = h('svix-id');
    const timestamp = h('svix-timestamp');
    const signature = h('svix-signature');
    if (!id || !timestamp || !signature) {
      webhookHints.labels('rejected').inc();
      return { status: 400, body: { ok: false, error: 'missing svix-id, svix-timestamp or svix-signature header' } };
    }
    let payload: unknown;
    try {
      payload = verifier.verify(rawBody, { 'svix-id': id, 'svix-timestamp': timestamp, 'svix-signature': signature });
    } catch (err) {
      const why = err instanceof WebhookVerificationError ? err.message : 'unreadable payload';
      logger.warn({ svixId: id.slice(0, 64), reason: why }, 'webhook refused');
      webhookHints.labels('rejected').inc();
      return { status: 401, body: { ok: false, error: `verification failed: ${why}` } };
    }
    const swapId = extractSwapId(payload);
    if (!swapId) {
      logger.info({ svixId: id.slice(0, 64) }, 'webhook without a swap id ignored');
      webhookHints.labels('ignored').inc();
      return { status: 200, body: { ok: true, ignored: 'no swap id in the payload' } };
    }
    if (!(await replay.claim(id, REPLAY_TTL_MS))) {
      logger.warn({ svixId: id.slice(0, 64), swapId }, 'webhook replay ignored');
      webhookHints.labels('replayed').inc();
      return { status: 200, body: { ok: true, ignored: 'already processed' } };
    }
    try {
      await options.onSwapHint(swapId);
    } catch (err) {
      await replay.release(id).catch(() => undefined);
      logger.error({ swapId, err: asError(err) }, 'webhook hint failed');
      webhookHints.labels('failed').inc();
      return { status: 500, body: { ok: false, error: 'could not schedule the swap check; retry later' } };
    }
    webhookHints.labels('accepted').inc();
    return { status: 200, body: { ok: true, swapId } };
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const reply = (r: WebhookResult) => {
      if (res.headersSent) return;
      res.writeHead(r.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r.body));
    };
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      reply({ status: 405, body: { ok: false, error: 'use POST' } });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) tooBig = true;
      else chunks.push(c);
    });
    req.on('error', () => reply({ status: 400, body: { ok: false, error: 'request aborted' } }));
    req.on('end', () => {
      if (tooBig) return reply({ status: 413, body: { ok: false, error: 'body over 1 MB' } });
      handle(Buffer.concat(chunks).toString('utf8'), req.headers).then(reply, (err: unknown) => {
        logger.error({ err: asError(err) }, 'webhook handler failed');
        reply({ status: 500, body: { ok: false, error: 'internal error' } });
      });
    });
  };
  return Object.assign(listener, { handle });
}

/** The swap id in a Layerswap notification: the swap object itself, or wrapped in data/swap. */
export function extractSwapId(payload: unknown): string | undefined {
  const candidates: unknown[] = [];
  const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined);
  const p = obj(payload);
  if (!p) return undefined;
  const data = obj(p.data);
  candidates.push(obj(p.swap)?.id, data?.id, obj(data?.swap)?.id, p.id, p.swap_id, data?.swap_id);
  for (const c of candidates) if (typeof c === 'string' && isSwapId(c)) return c.toLowerCase();
  return undefined;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { BodyTooLarge, readBody } from '../../http.js';
import { asError, silentLogger, type Logger } from '../../log.js';
import type { InteractionAnswer, RawInteraction } from './http-callbacks.js';

/**
 * POST /discord/interactions (DISCORD_INTERACTIONS=http), per Discord's "Receiving and
 * Responding": Ed25519 over X-Signature-Timestamp + the raw body with the application's public
 * key (node:crypto, no extra library).
 * - a missing or bad signature: 401, nothing handled (Discord probes this before it saves the URL);
 * - a timestamp more than 5 minutes off, or an interaction id already handled (any replica: the
 *   claim is in Redis): 401, nothing handled. Discord never sends an interaction twice, so either
 *   is a replay of a captured request;
 * - PING: {"type":1};
 * - anything else goes to `receive`, which writes the interaction response as the answer.
 */
export const DISCORD_INTERACTIONS_PATH = '/discord/interactions';

/** How far X-Signature-Timestamp may be from now (seconds). */
const MAX_SKEW_S = 300;
/** Longer than the timestamp window: a replay old enough to be forgotten fails the timestamp check. */
const CLAIM_TTL_MS = 15 * 60_000;
/** Interactions are a few KB; Discord caps message content and modal input far below this. */
const MAX_BODY = 256 * 1024;

export interface InteractionClaims {
  /** True the first time an id is claimed within the TTL. */
  claim(id: string, ttlMs: number): Promise<boolean>;
}

export interface InteractionsEndpointOptions {
  /** DISCORD_PUBLIC_KEY: 64 hex characters. */
  publicKey: string;
  receive(payload: RawInteraction & Record<string, unknown>, write: (a: InteractionAnswer) => Promise<void>): void;
  claims?: InteractionClaims;
  logger?: Logger;
  /** Milliseconds since the epoch (tests inject a clock). */
  now?: () => number;
}

/** The application's public key (raw 32 bytes, hex) as a KeyObject: JWK takes the raw key as x. */
export function ed25519PublicKey(hex: string): KeyObject {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('DISCORD_PUBLIC_KEY must be 64 hex characters');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') }, format: 'jwk' });
}

export function signatureValid(key: KeyObject, signatureHex: string, timestamp: string, body: Buffer): boolean {
  if (!/^[0-9a-fA-F]{128}$/.test(signatureHex)) return false;
  try {
    return verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}

export function interactionsEndpoint(opts: InteractionsEndpointOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const key = ed25519PublicKey(opts.publicKey);
  const log = opts.logger ?? silentLogger;
  const now = opts.now ?? Date.now;
  const send = (res: ServerResponse, status: number, body: unknown) =>
    new Promise<void>((resolve, reject) => {
      if (res.headersSent || res.destroyed) return reject(new Error('the interaction request is gone'));
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text, () => resolve());
    });
  const refuse = (res: ServerResponse, why: string) => {
    log.warn({ reason: why }, 'discord: interaction refused');
    void send(res, 401, { error: 'invalid request signature' }).catch(() => undefined);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      req.resume();
      res.setHeader('allow', 'POST');
      return send(res, 405, { error: 'use POST' });
    }
    let body: Buffer;
    try {
      body = await readBody(req, MAX_BODY);
    } catch (err) {
      if (err instanceof BodyTooLarge) return send(res, 413, { error: `body over ${MAX_BODY} bytes` });
      throw err;
    }
    const signature = header(req, 'x-signature-ed25519');
    const timestamp = header(req, 'x-signature-timestamp');
    if (!signature || !timestamp) return refuse(res, 'no signature headers');
    if (!signatureValid(key, signature, timestamp, body)) return refuse(res, 'bad signature');
    const sentAt = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
    if (!(Math.abs(now() / 1000 - sentAt) <= MAX_SKEW_S)) return refuse(res, 'timestamp outside 5 minutes');
    let payload: RawInteraction & Record<string, unknown>;
    try {
      payload = JSON.parse(body.toString('utf8')) as typeof payload;
    } catch {
      return send(res, 400, { error: 'not JSON' });
    }
    if (payload.type === 1) return send(res, 200, { type: 1 });
    if (typeof payload.id !== 'string') return send(res, 400, { error: 'no interaction id' });
    if (opts.claims) {
      const first = await opts.claims.claim(`discord-interaction:${payload.id}`, CLAIM_TTL_MS).catch((err: unknown) => {
        // Redis down: the signature and timestamp already hold; answering beats refusing everyone.
        log.warn({ err: asError(err) }, 'discord: could not record an interaction id; handled without the replay check');
        return true;
      });
      if (!first) return refuse(res, 'interaction id seen before (a replay)');
    }
    opts.receive(payload, (a) => send(res, 200, a));
  }

  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error({ err: asError(err) }, 'discord: an interaction request failed');
      if (!res.headersSent) void send(res, 500, { error: 'internal error' }).catch(() => undefined);
    });
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

import type { z } from 'zod';
import { asError, silentLogger, type Logger } from '../log.js';
import { apiKeyRefused, apiLatency, apiRequests, rateLimited, type ApiOutcome } from '../metrics.js';
import type { RequestOptions } from './api.js';
import { ApiError, ConnectionError, LayerswapError, ResponseShapeError, TimeoutError } from './errors.js';
import { buildQuery, type QueryValue } from './query.js';
import { checkData, readEnvelopeData } from './response.js';
import { retryDelayMs } from './retry.js';
import { Transport, type Attempt, type RawResponse } from './transport.js';

export interface LayerswapClientOptions {
  /** "https://api.layerswap.io" or the sandbox's URL; a path prefix is kept. */
  baseUrl: string;
  /**
   * Absent: keyless. Layerswap's read endpoints (networks, sources, destinations, quote, limits)
   * answer without a key, so a bot without one can still quote; creating a swap is refused here.
   */
  apiKey?: string | undefined;
  /** Per attempt: the longest wait for the answer's headers, and then for each part of its body. Default 15 000. */
  timeoutMs?: number;
  /** Extra attempts for GETs. Default 2. createSwap retries only when nothing was sent. */
  maxRetries?: number;
  logger?: Logger;
  userAgent?: string;
  /** Jitter source, in [0, 1); tests pin it. */
  random?: () => number;
  /** Waits between attempts; tests record the delays instead of sleeping. */
  sleep?: (ms: number) => Promise<void>;
}

export const API = '/api/v2';

/**
 * The request loop under every endpoint of client.ts: the headers built once, one attempt at a
 * time over the Transport, each counted in the metrics, retried with backoff while retry.ts says
 * so. The API key is the one secret: answers are read with it scrubbed.
 */
export class RequestLoop {
  private readonly transport: Transport;
  /** No API key: reads only (createSwap refuses before sending). */
  readonly keyless: boolean;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly log: Logger;
  private readonly userAgent: string;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Built once: the same headers go with every request (undici only reads them). */
  private readonly getHeaders: Readonly<Record<string, string>>;
  readonly postHeaders: Readonly<Record<string, string>>;
  readonly secrets: readonly string[];

  constructor(options: LayerswapClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError(
        `Layerswap baseUrl must be an http(s) URL such as https://api.layerswap.io (got ${JSON.stringify(String(options.baseUrl).slice(0, 80))})`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('Layerswap baseUrl must start with http:// or https://');
    // Checked here so undici never builds an error message around the key's value.
    const apiKey = options.apiKey;
    if (apiKey !== undefined && (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey))) {
      throw new TypeError('Layerswap apiKey must be a non-empty string of printable ASCII without spaces');
    }
    this.keyless = apiKey === undefined;
    this.timeoutMs = positive(options.timeoutMs, 15_000, 'timeoutMs');
    this.maxRetries = nonNegativeInt(options.maxRetries, 2, 'maxRetries');
    this.log = (options.logger ?? silentLogger).child({ component: 'layerswap' });
    this.userAgent = options.userAgent ?? 'swapbot';
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.transport = new Transport(url);
    this.getHeaders = Object.freeze({
      accept: 'application/json',
      'user-agent': this.userAgent,
      ...(apiKey === undefined ? {} : { 'x-ls-apikey': apiKey }),
    });
    this.postHeaders = Object.freeze({ ...this.getHeaders, 'content-type': 'application/json' });
    this.secrets = apiKey === undefined ? [] : [apiKey];
  }

  private keyRefused = false;

  /**
   * A refused key is the operator's problem, not the user's: one error line when the refusals
   * start (not one per message or poll), counted every time, told again after a working answer.
   */
  noteAnswer(err?: unknown): void {
    if (err instanceof ApiError && (err.code === 'API_KEY_FORBIDDEN' || err.code === 'INVALID_CREDENTIALS')) {
      apiKeyRefused.inc();
      if (this.keyRefused) return;
      this.keyRefused = true;
      this.log.error(
        { request: err.request, status: err.status, code: err.code },
        this.keyless
          ? 'the swap service wants an API key for this request: set LAYERSWAP_API_KEY (users are told the bot is misconfigured)'
          : 'the swap service refuses LAYERSWAP_API_KEY: set a valid key (users are told the bot is misconfigured)',
      );
    } else if (err === undefined) this.keyRefused = false;
  }

  /** One attempt, no retry (createSwap decides its own). */
  send(attempt: Attempt): Promise<RawResponse> {
    return this.transport.send(attempt);
  }

  /** Lets requests in flight finish, then closes the connections. */
  close(): Promise<void> {
    return this.transport.close();
  }

  get<T>(
    path: string,
    query: Record<string, QueryValue>,
    schema: z.ZodType<T>,
    options?: RequestOptions,
    label = `GET ${API}${path}`,
  ): Promise<T> {
    return this.request('GET', path, query, schema, options, label);
  }

  /** One request retried with backoff, its data checked against the schema. */
  async request<T>(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, QueryValue>,
    schema: z.ZodType<T>,
    options: RequestOptions | undefined,
    label: string,
    body?: string,
    operation = label,
  ): Promise<T> {
    return checkData(await this.fetchData(method, path, query, options, label, body, operation), schema, label);
  }

  /**
   * The answer's `data`, parsed but unchecked, retried with backoff: for GETs, and for POSTs that
   * are harmless to repeat. `operation` names the route without ids (metrics).
   */
  async fetchData(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, QueryValue>,
    options: RequestOptions | undefined,
    label: string,
    body: string | undefined,
    operation: string,
  ): Promise<unknown> {
    const fullPath = `${API}${path}${buildQuery(query)}`;
    const headers = body === undefined ? this.getHeaders : this.postHeaders;
    const maxRetries = options?.maxRetries ?? this.maxRetries;
    const timeoutMs = options?.timeoutMs ?? this.timeoutMs;
    const signal = options?.signal;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      try {
        const raw = await this.transport.send({ method, path: fullPath, label, headers, body, timeoutMs, signal });
        if (this.log.isLevelEnabled('debug'))
          this.log.debug({ request: label, status: raw.status, attempt, ms: Math.round(performance.now() - started) }, 'layerswap answer');
        const data = readEnvelopeData(raw, label, this.secrets);
        count(operation, started);
        this.noteAnswer();
        return data;
      } catch (err) {
        count(operation, started, err);
        this.noteAnswer(err);
        if (!(err instanceof LayerswapError) || attempt >= maxRetries) throw err;
        await this.pause(label, err, attempt, signal);
      }
    }
  }

  /** Waits before the next attempt, or rethrows when the error is final. */
  async pause(label: string, err: LayerswapError, attempt: number, signal: AbortSignal | undefined): Promise<void> {
    const delayMs = retryDelayMs(err, attempt, this.random);
    if (delayMs === undefined) throw err;
    this.log.warn(
      { request: label, attempt: attempt + 1, delayMs, err: asError(err, { secrets: this.secrets }) },
      'layerswap request failed; retrying',
    );
    await abortable(this.sleep(delayMs), signal);
  }
}

/** One attempt in the metrics: its outcome and how long it took. A caller's abort is not counted. */
export function count(operation: string, started: number, err?: unknown): void {
  const outcome = outcomeOf(err);
  if (!outcome) return;
  apiRequests.labels(operation, outcome).inc();
  apiLatency.labels(operation).observe((performance.now() - started) / 1000);
  if (outcome === 'rate_limited') rateLimited.labels('layerswap').inc();
}

function outcomeOf(err: unknown): ApiOutcome | undefined {
  if (err === undefined) return 'ok';
  if (err instanceof ApiError) {
    if (err.status === 429) return 'rate_limited';
    if (err.code === 'NON_JSON_RESPONSE' && err.status < 300) return 'bad_response';
    return err.status >= 500 ? 'server_error' : 'client_error';
  }
  if (err instanceof TimeoutError) return 'timeout';
  if (err instanceof ConnectionError) return 'connection';
  if (err instanceof ResponseShapeError) return 'bad_response';
  return undefined;
}

function abortable(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    wait.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function positive(v: number | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v <= 0) throw new TypeError(`Layerswap ${name} must be a number above 0`);
  return v;
}

function nonNegativeInt(v: number | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < 0) throw new TypeError(`Layerswap ${name} must be a whole number, 0 or more`);
  return v;
}

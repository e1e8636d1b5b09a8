import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { silentLogger, type Logger } from '../log.js';
import type { LayerswapApi, RequestOptions } from './api.js';
import { ApiError, ConnectionError, LayerswapError, UnconfirmedCreateError } from './errors.js';
import { buildQuery, formatNumber, swapIdSegment, type QueryValue } from './query.js';
import { readEnvelope } from './response.js';
import { retryDelayMs } from './retry.js';
import {
  DepositActionListSchema,
  DestinationListSchema,
  NetworkListSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
  type CreateSwapParams,
  type DepositAction,
  type Destination,
  type DestinationsParams,
  type GetSwapParams,
  type Network,
  type NetworksParams,
  type QuoteParams,
  type QuoteResponse,
  type SwapDetails,
} from './schemas.js';
import { Transport } from './transport.js';

export interface LayerswapClientOptions {
  /** "https://api.layerswap.io" or the sandbox's URL; a path prefix is kept. */
  baseUrl: string;
  apiKey: string;
  /** Deadline per attempt, connect to last body byte. Default 15 000. */
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

const API = '/api/v2';

/**
 * The Layerswap v2 API over HTTP: one method per operation, every answer checked against the
 * zod schemas, failures sorted into the classes of errors.ts. GETs are retried with backoff;
 * createSwap is sent at most once unless the connection was certainly never made.
 */
export class LayerswapClient implements LayerswapApi {
  private readonly transport: Transport;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly log: Logger;
  private readonly userAgent: string;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: LayerswapClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError(`Layerswap baseUrl must be an http(s) URL such as https://api.layerswap.io (got ${JSON.stringify(String(options.baseUrl).slice(0, 80))})`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('Layerswap baseUrl must start with http:// or https://');
    // Checked here so undici never builds an error message around the key's value.
    if (typeof options.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new TypeError('Layerswap apiKey must be a non-empty string of printable ASCII without spaces');
    }
    this.apiKey = options.apiKey;
    this.timeoutMs = positive(options.timeoutMs, 15_000, 'timeoutMs');
    this.maxRetries = nonNegativeInt(options.maxRetries, 2, 'maxRetries');
    this.log = (options.logger ?? silentLogger).child({ component: 'layerswap' });
    this.userAgent = options.userAgent ?? 'swapbot';
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.transport = new Transport(url);
  }

  async getNetworks(params: NetworksParams = {}, options?: RequestOptions): Promise<Network[]> {
    return this.get('/networks', { network_types: params.network_types }, NetworkListSchema, options);
  }

  async getDestinations(params: DestinationsParams = {}, options?: RequestOptions): Promise<Destination[]> {
    const { source_network, source_token, include_swaps, include_unavailable, include_unmatched, network_types } = params;
    const query = { source_network, source_token, include_swaps, include_unavailable, include_unmatched, network_types };
    return this.get('/destinations', query, DestinationListSchema, options);
  }

  async getQuote(params: QuoteParams, options?: RequestOptions): Promise<QuoteResponse> {
    const query = {
      source_network: params.source_network,
      source_token: params.source_token,
      destination_network: params.destination_network,
      destination_token: params.destination_token,
      amount: params.amount,
      refuel: params.refuel,
      slippage: params.slippage,
      source_address: params.source_address,
      destination_address: params.destination_address,
      use_deposit_address: params.use_deposit_address,
      use_gasless: params.use_gasless,
    };
    return this.get('/quote', query, QuoteResponseSchema, options);
  }

  async getSwap(swapId: string, params: GetSwapParams = {}, options?: RequestOptions): Promise<SwapDetails> {
    const id = swapIdSegment(swapId, `GET ${API}/swaps/{swapId}`);
    const query = { exclude_deposit_actions: params.exclude_deposit_actions, source_address: params.source_address };
    return this.get(`/swaps/${id}`, query, SwapDetailsSchema, options);
  }

  async getDepositActions(swapId: string, params: { source_address?: string } = {}, options?: RequestOptions): Promise<DepositAction[]> {
    const id = swapIdSegment(swapId, `GET ${API}/swaps/{swapId}/deposit_actions`);
    return this.get(`/swaps/${id}/deposit_actions`, { source_address: params.source_address }, DepositActionListSchema, options);
  }

  /**
   * Sends POST /swaps at most once, unless an attempt certainly never left this machine
   * (connection refused). reference_id is fixed before the first attempt, so a retry, or a
   * person checking after an UnconfirmedCreateError, sees the same one.
   */
  async createSwap(params: CreateSwapParams, options?: RequestOptions): Promise<SwapDetails> {
    const label = `POST ${API}/swaps`;
    if (params.amount !== undefined && params.amount !== null) formatNumber(params.amount, 'amount', label);
    const referenceId = params.reference_id ?? randomUUID();
    const body = JSON.stringify({ ...params, reference_id: referenceId });
    // One correlation id per user action, like reference_id: the service can join the attempts.
    const headers = { ...this.headers(), 'content-type': 'application/json', 'x-ls-correlation-id': randomUUID() };
    const maxRetries = options?.maxRetries ?? this.maxRetries;

    for (let attempt = 0; ; attempt++) {
      options?.signal?.throwIfAborted();
      this.log.debug({ request: label, referenceId, attempt }, 'creating swap');
      const started = Date.now();
      let raw;
      try {
        raw = await this.transport.send({ method: 'POST', path: `${API}/swaps`, label, headers, body, timeoutMs: options?.timeoutMs ?? this.timeoutMs, signal: options?.signal });
      } catch (err) {
        if (err instanceof ConnectionError && err.notSent) {
          if (attempt >= maxRetries) throw err; // nothing was created: an ordinary connection error
          await this.pause(label, err, attempt, options?.signal);
          continue;
        }
        this.log.warn({ request: label, referenceId, err: describe(err) }, 'swap creation unconfirmed');
        throw new UnconfirmedCreateError(label, referenceId, err);
      }
      this.log.debug({ request: label, status: raw.status, attempt, ms: Date.now() - started }, 'layerswap answer');
      try {
        return readEnvelope(raw, SwapDetailsSchema, label, [this.apiKey]);
      } catch (err) {
        // A readable refusal below 500 (an error envelope, ASP.NET validation details, a 429):
        // the request was turned away, so nothing was created.
        if (err instanceof ApiError && err.status < 500 && err.code !== 'NON_JSON_RESPONSE') throw err;
        // 5xx, HTML from a proxy, or a 2xx we cannot read: the swap may exist.
        this.log.warn({ request: label, status: raw.status, referenceId, err: describe(err) }, 'swap creation unconfirmed');
        throw new UnconfirmedCreateError(label, referenceId, err);
      }
    }
  }

  /** Lets requests in flight finish, then closes the connections. */
  close(): Promise<void> {
    return this.transport.close();
  }

  private async get<T>(path: string, query: Record<string, QueryValue>, schema: z.ZodType<T>, options?: RequestOptions): Promise<T> {
    const label = `GET ${API}${path}`;
    const fullPath = `${API}${path}${buildQuery(query)}`;
    const maxRetries = options?.maxRetries ?? this.maxRetries;
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      try {
        const raw = await this.transport.send({ method: 'GET', path: fullPath, label, headers: this.headers(), timeoutMs: options?.timeoutMs ?? this.timeoutMs, signal: options?.signal });
        this.log.debug({ request: label, status: raw.status, attempt, ms: Date.now() - started }, 'layerswap answer');
        return readEnvelope(raw, schema, label, [this.apiKey]);
      } catch (err) {
        if (!(err instanceof LayerswapError) || attempt >= maxRetries) throw err;
        await this.pause(label, err, attempt, options?.signal);
      }
    }
  }

  /** Waits before the next attempt, or rethrows when the error is final. */
  private async pause(label: string, err: LayerswapError, attempt: number, signal: AbortSignal | undefined): Promise<void> {
    const delayMs = retryDelayMs(err, attempt, this.random);
    if (delayMs === undefined) throw err;
    this.log.warn({ request: label, attempt: attempt + 1, delayMs, err: describe(err) }, 'layerswap request failed; retrying');
    await abortable(this.sleep(delayMs), signal);
  }

  private headers(): Record<string, string> {
    return { accept: 'application/json', 'user-agent': this.userAgent, 'x-ls-apikey': this.apiKey };
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
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

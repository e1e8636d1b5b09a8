import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { silentLogger, type Logger } from '../log.js';
import type { LayerswapApi, RequestOptions } from './api.js';
import { ApiError, ConnectionError, InvalidRequestError, LayerswapError, ResponseShapeError, TimeoutError, UnconfirmedCreateError } from './errors.js';
import { buildQuery, formatNumber, requiredText, swapIdSegment, transactionHashSegment, type QueryValue } from './query.js';
import { apiLatency, apiRequests, rateLimited, type ApiOutcome } from '../metrics.js';
import { checkData, readEnvelope, readEnvelopeData } from './response.js';
import { retryDelayMs } from './retry.js';
import {
  DepositActionListSchema,
  DestinationListSchema,
  ExchangeListSchema,
  ExchangeNetworkListSchema,
  LimitsSchema,
  NetworkListSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
  SwapIdSchema,
  SwapListSchema,
  SwapPollSchema,
  TransactionStatusSchema,
  type CreatedSwap,
  type CreateSwapParams,
  type DepositAction,
  type Destination,
  type DestinationExchangesParams,
  type DestinationsParams,
  type Exchange,
  type ExchangeDepositNetworksParams,
  type ExchangeNetwork,
  type ExchangeWithdrawalNetworksParams,
  type GetSwapParams,
  type Limits,
  type LimitsParams,
  type ListSwapsParams,
  type Network,
  type NetworksParams,
  type QuoteParams,
  type QuoteResponse,
  type RouteNetwork,
  type SourceExchangesParams,
  type SourcesParams,
  type SpeedUpDepositParams,
  type SwapDetails,
  type SwapPoll,
  type TransactionStatus,
  type TransactionStatusParams,
} from './schemas.js';
import { Transport } from './transport.js';

export interface LayerswapClientOptions {
  /** "https://api.layerswap.io" or the sandbox's URL; a path prefix is kept. */
  baseUrl: string;
  apiKey: string;
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
  /** Built once: the same headers go with every request (undici only reads them). */
  private readonly getHeaders: Readonly<Record<string, string>>;
  private readonly postHeaders: Readonly<Record<string, string>>;
  private readonly secrets: readonly string[];

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
    this.getHeaders = Object.freeze({ accept: 'application/json', 'user-agent': this.userAgent, 'x-ls-apikey': this.apiKey });
    this.postHeaders = Object.freeze({ ...this.getHeaders, 'content-type': 'application/json' });
    this.secrets = [this.apiKey];
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
    return this.request('GET', `/swaps/${id}`, query, SwapDetailsSchema, options, `GET ${API}/swaps/${id}`, undefined, SWAP_OPERATION);
  }

  /**
   * GET /swaps/{id} for a poller (see api.ts): one JSON parse, only the compared fields checked
   * now, the whole answer checked by `details()` when the poll saw a change.
   */
  async pollSwap(swapId: string, params: GetSwapParams = {}, options?: RequestOptions): Promise<SwapPoll> {
    const id = swapIdSegment(swapId, `GET ${API}/swaps/{swapId}`);
    const label = `GET ${API}/swaps/${id}`;
    const query = { exclude_deposit_actions: params.exclude_deposit_actions, source_address: params.source_address };
    const data = await this.fetchData('GET', `/swaps/${id}`, query, options, label, undefined, SWAP_OPERATION);
    const poll = checkData(data, SwapPollSchema, label);
    let details: SwapDetails | undefined;
    return { ...poll, details: () => (details ??= checkData(data, SwapDetailsSchema, label)) };
  }

  async getDepositActions(swapId: string, params: { source_address?: string } = {}, options?: RequestOptions): Promise<DepositAction[]> {
    const id = swapIdSegment(swapId, `GET ${API}/swaps/{swapId}/deposit_actions`);
    return this.request('GET', `/swaps/${id}/deposit_actions`, { source_address: params.source_address }, DepositActionListSchema, options, `GET ${API}/swaps/${id}/deposit_actions`, undefined, `GET ${API}/swaps/{swapId}/deposit_actions`);
  }

  async getLimits(params: LimitsParams, options?: RequestOptions): Promise<Limits> {
    const { source_network, source_token, destination_network, destination_token, refuel, use_deposit_address, use_gasless, destination_address } = params;
    const query = { source_network, source_token, destination_network, destination_token, refuel, use_deposit_address, use_gasless, destination_address };
    return this.get('/limits', query, LimitsSchema, options);
  }

  async getSources(params: SourcesParams = {}, options?: RequestOptions): Promise<RouteNetwork[]> {
    const { destination_network, destination_token, include_swaps, include_unavailable, include_unmatched, has_deposit_address, network_types } = params;
    const query = { destination_network, destination_token, include_swaps, include_unavailable, include_unmatched, has_deposit_address, network_types };
    return this.get('/sources', query, DestinationListSchema, options);
  }

  async getSourceExchanges(params: SourceExchangesParams = {}, options?: RequestOptions): Promise<Exchange[]> {
    const { source_network, source_token, include_swaps, include_unavailable, include_unmatched } = params;
    return this.get('/source_exchanges', { source_network, source_token, include_swaps, include_unavailable, include_unmatched }, ExchangeListSchema, options);
  }

  async getDestinationExchanges(params: DestinationExchangesParams = {}, options?: RequestOptions): Promise<Exchange[]> {
    const { source_network, source_token, include_swaps, include_unavailable, include_unmatched } = params;
    return this.get('/destination_exchanges', { source_network, source_token, include_swaps, include_unavailable, include_unmatched }, ExchangeListSchema, options);
  }

  async getExchangeWithdrawalNetworks(params: ExchangeWithdrawalNetworksParams, options?: RequestOptions): Promise<ExchangeNetwork[]> {
    const label = `GET ${API}/exchange_withdrawal_networks`;
    const query = {
      source_exchange: requiredText(params?.source_exchange, 'source_exchange', label),
      destination_network: requiredText(params?.destination_network, 'destination_network', label),
      destination_token: requiredText(params?.destination_token, 'destination_token', label),
      source_token_group: params?.source_token_group,
    };
    return this.get('/exchange_withdrawal_networks', query, ExchangeNetworkListSchema, options);
  }

  async getExchangeDepositNetworks(params: ExchangeDepositNetworksParams, options?: RequestOptions): Promise<ExchangeNetwork[]> {
    const label = `GET ${API}/exchange_deposit_networks`;
    const query = {
      destination_exchange: requiredText(params?.destination_exchange, 'destination_exchange', label),
      source_network: requiredText(params?.source_network, 'source_network', label),
      source_token: requiredText(params?.source_token, 'source_token', label),
      destination_token_group: params?.destination_token_group,
    };
    return this.get('/exchange_deposit_networks', query, ExchangeNetworkListSchema, options);
  }

  async getSwapByTransactionHash(hash: string, options?: RequestOptions): Promise<SwapDetails> {
    // The hash stays out of the label: errors and logs name the route, not the user's transaction.
    const label = `GET ${API}/swaps/by_transaction_hash/{hash}`;
    const segment = transactionHashSegment(hash, label);
    return this.get(`/swaps/by_transaction_hash/${segment}`, {}, SwapDetailsSchema, options, label);
  }

  async listSwaps(params: ListSwapsParams, options?: RequestOptions): Promise<SwapDetails[]> {
    const label = `GET ${API}/swaps`;
    const address = requiredText(params?.address, 'address', label);
    if (params.page !== undefined && (!Number.isInteger(params.page) || params.page < 0)) {
      throw new InvalidRequestError(label, 'page', 'page must be a whole number, 0 or more');
    }
    return this.get('/swaps', { address, page: params.page, include_expired: params.include_expired }, SwapListSchema, options);
  }

  async getTransactionStatus(params: TransactionStatusParams, options?: RequestOptions): Promise<TransactionStatus> {
    const label = `GET ${API}/transaction_status`;
    const network = requiredText(params?.network, 'network', label);
    const transactionId = transactionHashSegment(params?.transaction_id, label, 'transaction_id');
    return this.get('/transaction_status', { network, transaction_id: decodeURIComponent(transactionId) }, TransactionStatusSchema, options);
  }

  /**
   * Asks the service to match a deposit sooner. Repeating it is harmless, so it is retried like a
   * GET; callers may ignore its failures (the swap is matched anyway, only later).
   */
  async speedUpDeposit(swapId: string, params: SpeedUpDepositParams, options?: RequestOptions): Promise<void> {
    const label = `POST ${API}/swaps/{swapId}/deposit_speedup`;
    const id = swapIdSegment(swapId, label);
    const transactionId = decodeURIComponent(transactionHashSegment(params?.transaction_id, label, 'transaction_id'));
    await this.request('POST', `/swaps/${id}/deposit_speedup`, {}, z.unknown(), options, `POST ${API}/swaps/${id}/deposit_speedup`, JSON.stringify({ transaction_id: transactionId }), label);
  }

  /**
   * Sends POST /swaps at most once, unless an attempt certainly never left this machine
   * (connection refused). reference_id is fixed before the first attempt, so a retry, or a
   * person checking after an UnconfirmedCreateError, sees the same one.
   */
  async createSwap(params: CreateSwapParams, options?: RequestOptions): Promise<CreatedSwap> {
    const label = `POST ${API}/swaps`;
    if (params.amount !== undefined && params.amount !== null) formatNumber(params.amount, 'amount', label);
    const referenceId = params.reference_id ?? randomUUID();
    const body = JSON.stringify({ ...params, reference_id: referenceId });
    // One correlation id per user action, like reference_id: the service can join the attempts.
    const headers = { ...this.postHeaders, 'x-ls-correlation-id': randomUUID() };
    const maxRetries = options?.maxRetries ?? this.maxRetries;

    for (let attempt = 0; ; attempt++) {
      options?.signal?.throwIfAborted();
      this.log.debug({ request: label, referenceId, attempt }, 'creating swap');
      const started = performance.now();
      let raw;
      try {
        raw = await this.transport.send({ method: 'POST', path: `${API}/swaps`, label, headers, body, timeoutMs: options?.timeoutMs ?? this.timeoutMs, signal: options?.signal });
      } catch (err) {
        count(label, started, err);
        if (err instanceof ConnectionError && err.notSent) {
          if (attempt >= maxRetries) throw err; // nothing was created: an ordinary connection error
          await this.pause(label, err, attempt, options?.signal);
          continue;
        }
        this.log.warn({ request: label, referenceId, err: describe(err) }, 'swap creation unconfirmed');
        throw new UnconfirmedCreateError(label, referenceId, err);
      }
      this.log.debug({ request: label, status: raw.status, attempt, ms: Math.round(performance.now() - started) }, 'layerswap answer');
      let created: { details: SwapDetails; hadStatus: boolean };
      try {
        created = { details: readEnvelope(raw, SwapDetailsSchema, label, this.secrets), hadStatus: true };
        count(label, started);
      } catch (err) {
        count(label, started, err);
        // A readable refusal below 500 (an error envelope, ASP.NET validation details, a 429):
        // the request was turned away, so nothing was created.
        if (err instanceof ApiError && err.status < 500 && err.code !== 'NON_JSON_RESPONSE') throw err;
        // A 2xx is an answer: if it names the swap, the swap exists, however cut down the rest is.
        const salvaged = err instanceof ResponseShapeError ? salvageCreated(raw.text) : undefined;
        if (!salvaged) {
          // 5xx, HTML from a proxy, or a 2xx without a readable swap id: the swap may exist.
          this.log.warn({ request: label, status: raw.status, referenceId, err: describe(err) }, 'swap creation unconfirmed');
          throw new UnconfirmedCreateError(label, referenceId, err);
        }
        this.log.warn({ request: label, swapId: salvaged.details.swap.id, err: describe(err) }, 'swap created; its answer was cut down');
        created = salvaged;
      }
      return this.completeCreated(created.details, created.hadStatus, params, options);
    }
  }

  /**
   * A create answer without the swap's route or date (the live capture sends only {id, status})
   * is filled in from GET /swaps/{id}, with the usual GET retries. If that fails too, what the
   * answer had is returned with `partial: true`: the id is certain, so the caller can still show
   * it, record it and follow it. Never throws: the swap exists.
   */
  private async completeCreated(details: SwapDetails, hadStatus: boolean, params: CreateSwapParams, options?: RequestOptions): Promise<CreatedSwap> {
    const s = details.swap;
    if (hadStatus && s.source_network && s.source_token && s.destination_network && s.destination_token && s.created_date) return details;
    try {
      const fetched = await this.getSwap(s.id, params.source_address ? { source_address: params.source_address } : {}, { signal: options?.signal, timeoutMs: options?.timeoutMs });
      // The GET is the fuller view; the create answer's deposit actions and quote fill its gaps.
      return {
        ...details,
        ...fetched,
        quote: fetched.quote ?? details.quote,
        deposit_actions: fetched.deposit_actions?.length ? fetched.deposit_actions : details.deposit_actions,
      };
    } catch (err) {
      this.log.warn({ request: `GET ${API}/swaps/{swapId}`, swapId: s.id, err: describe(err) }, 'could not complete a cut-down create answer');
      return { ...details, partial: true };
    }
  }

  /** Lets requests in flight finish, then closes the connections. */
  close(): Promise<void> {
    return this.transport.close();
  }

  private get<T>(path: string, query: Record<string, QueryValue>, schema: z.ZodType<T>, options?: RequestOptions, label = `GET ${API}${path}`): Promise<T> {
    return this.request('GET', path, query, schema, options, label);
  }

  /** One request retried with backoff, its data checked against the schema. */
  private async request<T>(method: 'GET' | 'POST', path: string, query: Record<string, QueryValue>, schema: z.ZodType<T>, options: RequestOptions | undefined, label: string, body?: string, operation = label): Promise<T> {
    return checkData(await this.fetchData(method, path, query, options, label, body, operation), schema, label);
  }

  /**
   * The answer's `data`, parsed but unchecked, retried with backoff: for GETs, and for POSTs that
   * are harmless to repeat. `operation` names the route without ids (metrics).
   */
  private async fetchData(method: 'GET' | 'POST', path: string, query: Record<string, QueryValue>, options: RequestOptions | undefined, label: string, body: string | undefined, operation: string): Promise<unknown> {
    const fullPath = `${API}${path}${buildQuery(query)}`;
    const headers = body === undefined ? this.getHeaders : this.postHeaders;
    const maxRetries = options?.maxRetries ?? this.maxRetries;
    const timeoutMs = options?.timeoutMs ?? this.timeoutMs;
    const signal = options?.signal;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      try {
        const raw = await this.transport.send({ method, path: fullPath, label, headers, body, timeoutMs, signal });
        if (this.log.isLevelEnabled('debug')) this.log.debug({ request: label, status: raw.status, attempt, ms: Math.round(performance.now() - started) }, 'layerswap answer');
        const data = readEnvelopeData(raw, label, this.secrets);
        count(operation, started);
        return data;
      } catch (err) {
        count(operation, started, err);
        if (!(err instanceof LayerswapError) || attempt >= maxRetries) throw err;
        await this.pause(label, err, attempt, signal);
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

}

/** The metrics name of GET /swaps/{id} (ids stay out of labels). */
const SWAP_OPERATION = `GET ${API}/swaps/{swapId}`;

/** One attempt in the metrics: its outcome and how long it took. A caller's abort is not counted. */
function count(operation: string, started: number, err?: unknown): void {
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

/**
 * The swap a 2xx create answer names, when the answer does not fit the schema as a whole: its id
 * (it must be usable later), its status ("created" when none was readable), and whatever else
 * parses. Undefined when there is no usable id.
 */
function salvageCreated(text: string): { details: SwapDetails; hadStatus: boolean } | undefined {
  let data: unknown;
  try {
    data = (JSON.parse(text) as { data?: unknown } | null)?.data;
  } catch {
    return undefined;
  }
  const swap = isRecord(data) && isRecord(data.swap) ? data.swap : undefined;
  const id = SwapIdSchema.safeParse(swap?.id);
  if (!swap || !id.success || !isRecord(data)) return undefined;
  const hadStatus = typeof swap.status === 'string';
  const status = hadStatus ? swap.status : 'created';
  const whole = SwapDetailsSchema.safeParse({ ...data, swap: { ...swap, id: id.data, status } });
  const details = whole.success ? whole.data : SwapDetailsSchema.parse({ swap: { id: id.data, status } });
  return { details, hadStatus };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

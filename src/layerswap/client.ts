import { z } from 'zod';
import type { LayerswapApi, RequestOptions } from './api.js';
import { createSwap } from './create-swap.js';
import { InvalidRequestError } from './errors.js';
import { Repeated, requiredText, swapIdSegment, transactionHashSegment, type QueryValue } from './query.js';
import { API, RequestLoop, type LayerswapClientOptions } from './request-loop.js';
import { checkData } from './response.js';
import {
  DepositActionListSchema,
  DestinationListSchema,
  ExchangeListSchema,
  ExchangeNetworkListSchema,
  LimitsSchema,
  NetworkListSchema,
  QuoteResponseSchema,
  SwapDetailsSchema,
  SwapListSchema,
  SwapPollSchema,
  TransactionStatusSchema,
  AuthorizeStatusSchema,
  type AuthorizeStatus,
  type CreatedSwap,
  type DepositAction,
  type Destination,
  type Exchange,
  type ExchangeNetwork,
  type Limits,
  type Network,
  type QuoteResponse,
  type RouteNetwork,
  type SwapDetails,
  type SwapPoll,
  type TransactionStatus,
} from './schemas.js';
import {
  type AuthorizeSwapParams,
  type CreateSwapParams,
  type DestinationExchangesParams,
  type DestinationsParams,
  type ExchangeDepositNetworksParams,
  type ExchangeWithdrawalNetworksParams,
  type GetSwapParams,
  type LimitsParams,
  type ListSwapsParams,
  type NetworksParams,
  type QuoteParams,
  type SourceExchangesParams,
  type SourcesParams,
  type SpeedUpDepositParams,
  type TransactionStatusParams,
} from './params.js';

/**
 * The Layerswap v2 API over HTTP: one method per operation, every answer checked against the
 * zod schemas, failures sorted into the classes of errors.ts. GETs are retried with backoff
 * (request-loop.ts); createSwap is sent at most once unless the connection was certainly never
 * made (create-swap.ts).
 */
export class LayerswapClient implements LayerswapApi {
  private readonly http: RequestLoop;

  constructor(options: LayerswapClientOptions) {
    this.http = new RequestLoop(options);
  }

  /** No API key: quotes, limits and the catalogue work; createSwap refuses before sending. */
  get keyless(): boolean {
    return this.http.keyless;
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
    const data = await this.http.fetchData('GET', `/swaps/${id}`, query, options, label, undefined, SWAP_OPERATION);
    const poll = checkData(data, SwapPollSchema, label);
    let details: SwapDetails | undefined;
    return { ...poll, details: () => (details ??= checkData(data, SwapDetailsSchema, label)) };
  }

  async getDepositActions(swapId: string, params: { source_address?: string } = {}, options?: RequestOptions): Promise<DepositAction[]> {
    const id = swapIdSegment(swapId, `GET ${API}/swaps/{swapId}/deposit_actions`);
    return this.request(
      'GET',
      `/swaps/${id}/deposit_actions`,
      { source_address: params.source_address },
      DepositActionListSchema,
      options,
      `GET ${API}/swaps/${id}/deposit_actions`,
      undefined,
      `GET ${API}/swaps/{swapId}/deposit_actions`,
    );
  }

  async getLimits(params: LimitsParams, options?: RequestOptions): Promise<Limits> {
    const {
      source_network,
      source_token,
      destination_network,
      destination_token,
      refuel,
      use_deposit_address,
      use_gasless,
      destination_address,
    } = params;
    const query = {
      source_network,
      source_token,
      destination_network,
      destination_token,
      refuel,
      use_deposit_address,
      use_gasless,
      destination_address,
    };
    return this.get('/limits', query, LimitsSchema, options);
  }

  async getSources(params: SourcesParams = {}, options?: RequestOptions): Promise<RouteNetwork[]> {
    const {
      destination_network,
      destination_token,
      include_swaps,
      include_unavailable,
      include_unmatched,
      has_deposit_address,
      network_types,
    } = params;
    const query = {
      destination_network,
      destination_token,
      include_swaps,
      include_unavailable,
      include_unmatched,
      has_deposit_address,
      network_types,
    };
    return this.get('/sources', query, DestinationListSchema, options);
  }

  async getSourceExchanges(params: SourceExchangesParams = {}, options?: RequestOptions): Promise<Exchange[]> {
    const { source_network, source_token, include_swaps, include_unavailable, include_unmatched } = params;
    return this.get(
      '/source_exchanges',
      { source_network, source_token, include_swaps, include_unavailable, include_unmatched },
      ExchangeListSchema,
      options,
    );
  }

  async getDestinationExchanges(params: DestinationExchangesParams = {}, options?: RequestOptions): Promise<Exchange[]> {
    const { source_network, source_token, include_swaps, include_unavailable, include_unmatched } = params;
    return this.get(
      '/destination_exchanges',
      { source_network, source_token, include_swaps, include_unavailable, include_unmatched },
      ExchangeListSchema,
      options,
    );
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
    const addresses = (typeof params?.address === 'string' ? [params.address] : (params?.address ?? [])).map((a) =>
      requiredText(a, 'address', label),
    );
    if (addresses.length === 0) requiredText(undefined, 'address', label);
    if (params.page !== undefined && (!Number.isInteger(params.page) || params.page < 0)) {
      throw new InvalidRequestError(label, 'page', 'page must be a whole number, 0 or more');
    }
    const query = {
      address: new Repeated(addresses),
      page: params.page,
      include_expired: params.include_expired,
      ...(params.statuses?.length ? { statuses: new Repeated(params.statuses) } : {}),
      ...(params.networks?.length ? { networks: new Repeated(params.networks) } : {}),
    };
    return this.get('/swaps', query, SwapListSchema, options);
  }

  async getTransactionStatus(params: TransactionStatusParams, options?: RequestOptions): Promise<TransactionStatus> {
    const label = `GET ${API}/transaction_status`;
    const network = requiredText(params?.network, 'network', label);
    const transactionId = transactionHashSegment(params?.transaction_id, label, 'transaction_id');
    return this.get(
      '/transaction_status',
      { network, transaction_id: decodeURIComponent(transactionId) },
      TransactionStatusSchema,
      options,
    );
  }

  /**
   * Asks the service to match a deposit sooner. Repeating it is harmless, so it is retried like a
   * GET; callers may ignore its failures (the swap is matched anyway, only later).
   */
  async speedUpDeposit(swapId: string, params: SpeedUpDepositParams, options?: RequestOptions): Promise<void> {
    const label = `POST ${API}/swaps/{swapId}/deposit_speedup`;
    const id = swapIdSegment(swapId, label);
    const transactionId = decodeURIComponent(transactionHashSegment(params?.transaction_id, label, 'transaction_id'));
    await this.request(
      'POST',
      `/swaps/${id}/deposit_speedup`,
      {},
      z.unknown(),
      options,
      `POST ${API}/swaps/${id}/deposit_speedup`,
      JSON.stringify({ transaction_id: transactionId }),
      label,
    );
  }
  /**
   * Hands the service a gasless swap's signed authorization. Sending the same signature again is
   * answered "already authorized", which callers count as success, so it is retried like a GET.
   */
  async authorizeSwap(swapId: string, params: AuthorizeSwapParams, options?: RequestOptions): Promise<void> {
    const label = `POST ${API}/swaps/{swapId}/authorize`;
    const id = swapIdSegment(swapId, label);
    const signature = requiredText(params?.signature, 'signature', label);
    const signer = requiredText(params?.signer_address, 'signer_address', label);
    await this.request(
      'POST',
      `/swaps/${id}/authorize`,
      {},
      z.unknown(),
      options,
      `POST ${API}/swaps/${id}/authorize`,
      JSON.stringify({ signature, signer_address: signer }),
      label,
    );
  }

  getAuthorization(swapId: string, options?: RequestOptions): Promise<AuthorizeStatus> {
    const label = `GET ${API}/swaps/{swapId}/authorize`;
    const id = swapIdSegment(swapId, label);
    return this.get(`/swaps/${id}/authorize`, {}, AuthorizeStatusSchema, options, label);
  }

  /** Sends POST /swaps at most once, unless an attempt certainly never left this machine (create-swap.ts). */
  createSwap(params: CreateSwapParams, options?: RequestOptions): Promise<CreatedSwap> {
    return createSwap(this.http, (id, p, o) => this.getSwap(id, p, o), params, options);
  }

  /** Lets requests in flight finish, then closes the connections. */
  close(): Promise<void> {
    return this.http.close();
  }

  private get<T>(
    path: string,
    query: Record<string, QueryValue>,
    schema: z.ZodType<T>,
    options?: RequestOptions,
    label = `GET ${API}${path}`,
  ): Promise<T> {
    return this.http.get(path, query, schema, options, label);
  }

  private request<T>(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, QueryValue>,
    schema: z.ZodType<T>,
    options: RequestOptions | undefined,
    label: string,
    body?: string,
    operation = label,
  ): Promise<T> {
    return this.http.request(method, path, query, schema, options, label, body, operation);
  }
}

/** The metrics name of GET /swaps/{id} (ids stay out of labels). */
const SWAP_OPERATION = `GET ${API}/swaps/{swapId}`;

import type {
  CreatedSwap,
  DepositAction,
  Destination,
  Exchange,
  ExchangeNetwork,
  Limits,
  Network,
  QuoteResponse,
  RouteNetwork,
  SwapDetails,
  SwapPoll,
  TransactionStatus,
  AuthorizeStatus,
} from './schemas.js';
import type {
  AuthorizeSwapParams,
  CreateSwapParams,
  DestinationExchangesParams,
  DestinationsParams,
  ExchangeDepositNetworksParams,
  ExchangeWithdrawalNetworksParams,
  GetSwapParams,
  LimitsParams,
  ListSwapsParams,
  NetworksParams,
  QuoteParams,
  SourceExchangesParams,
  SourcesParams,
  SpeedUpDepositParams,
  TransactionStatusParams,
} from './params.js';

/**
 * The operations the bot uses, one method per API operation. Implemented over HTTP by
 * LayerswapClient (client.ts); everything above it depends on this interface only.
 * Every method resolves to parsed data or rejects with an error from errors.ts.
 */
export interface LayerswapApi {
  /** True when there is no API key: reads only (Layerswap's read endpoints are public). */
  readonly keyless?: boolean;
  getNetworks(params?: NetworksParams, options?: RequestOptions): Promise<Network[]>;
  getDestinations(params?: DestinationsParams, options?: RequestOptions): Promise<Destination[]>;
  /** GET /sources: the networks and tokens a swap can start from (to one destination, if given). */
  getSources(params?: SourcesParams, options?: RequestOptions): Promise<RouteNetwork[]>;
  getQuote(params: QuoteParams, options?: RequestOptions): Promise<QuoteResponse>;
  /** GET /limits: a route's min and max amount (source-token units), without an amount. */
  getLimits(params: LimitsParams, options?: RequestOptions): Promise<Limits>;
  /** GET /source_exchanges: exchanges a swap can start from (those withdrawing one token on one network, if given). */
  getSourceExchanges(params?: SourceExchangesParams, options?: RequestOptions): Promise<Exchange[]>;
  /** GET /destination_exchanges: exchanges a swap can pay out to (reachable from one source token, if given). */
  getDestinationExchanges(params?: DestinationExchangesParams, options?: RequestOptions): Promise<Exchange[]>;
  /** GET /exchange_withdrawal_networks: the networks (and tokens) an exchange withdraws on to reach a destination. */
  getExchangeWithdrawalNetworks(params: ExchangeWithdrawalNetworksParams, options?: RequestOptions): Promise<ExchangeNetwork[]>;
  /** GET /exchange_deposit_networks: the networks (and tokens) an exchange takes deposits on from a source. */
  getExchangeDepositNetworks(params: ExchangeDepositNetworksParams, options?: RequestOptions): Promise<ExchangeNetwork[]>;
  /**
   * Never sends twice for one call; reference_id is generated once when absent. A 2xx answer
   * that names the swap always resolves, completed from GET /swaps/{id} when it was cut down,
   * or with `partial: true` when that failed too (the id is still certain). Rejects with
   * UnconfirmedCreateError only when there was no answer to read (timeout, reset after
   * sending, 5xx, unreadable non-2xx) or a 2xx without a usable swap id.
   */
  createSwap(params: CreateSwapParams, options?: RequestOptions): Promise<CreatedSwap>;
  getSwap(swapId: string, params?: GetSwapParams, options?: RequestOptions): Promise<SwapDetails>;
  /**
   * GET /swaps/{id} for a poller: the same request and errors as getSwap, but only what a poller
   * compares (id, status, fail_reason, each transaction's type, status, hash and confirmations,
   * quote.avg_completion_time) is checked on the spot; `details()` returns the whole SwapDetails,
   * checked from the already-parsed body on first call. Call it only when the poll saw a change:
   * an unchanged poll then costs about half the CPU of getSwap. Optional so test doubles that
   * wrap getSwap keep compiling: `api.pollSwap?.(...) ?? wrap(await api.getSwap(...))`.
   */
  pollSwap?(swapId: string, params?: GetSwapParams, options?: RequestOptions): Promise<SwapPoll>;
  /**
   * The swap's deposit actions, once. Right after a create the list can still be empty (or 404):
   * `loadDepositActions` (deposit-actions.ts) asks again a few times over ~3 s, the way the
   * official app loads them when the create answer has none.
   */
  getDepositActions(swapId: string, params?: { source_address?: string }, options?: RequestOptions): Promise<DepositAction[]>;
  /** GET /swaps/by_transaction_hash/{hash}: the swap a deposit (or payout) transaction belongs to. */
  getSwapByTransactionHash(hash: string, options?: RequestOptions): Promise<SwapDetails>;
  /** GET /swaps?address=: swaps from or to an address, newest first; unreadable entries are left out. */
  listSwaps(params: ListSwapsParams, options?: RequestOptions): Promise<SwapDetails[]>;
  /** POST /swaps/{id}/deposit_speedup: asks for a sent deposit to be matched sooner; failures are safe to ignore. */
  speedUpDeposit(swapId: string, params: SpeedUpDepositParams, options?: RequestOptions): Promise<void>;
  /**
   * POST /swaps/{id}/authorize: hands the service the wallet's signature of a gasless swap's `sign`
   * action; its paymaster then makes the deposit. Optional: only the HTTP client has it.
   */
  authorizeSwap?(swapId: string, params: AuthorizeSwapParams, options?: RequestOptions): Promise<void>;
  /** GET /swaps/{id}/authorize: the gasless authorization's state (Initiated, Published, Completed, Expired, ...). */
  getAuthorization?(swapId: string, options?: RequestOptions): Promise<AuthorizeStatus>;
  /** GET /transaction_status: whether the service sees a transaction on a network, and its confirmations. */
  getTransactionStatus(params: TransactionStatusParams, options?: RequestOptions): Promise<TransactionStatus>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Override the client's per-request timeout. */
  timeoutMs?: number;
  /** Override the client's retry count for GETs (0 = single attempt). */
  maxRetries?: number;
}

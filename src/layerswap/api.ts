import type {
  CreateSwapParams,
  DepositAction,
  Destination,
  DestinationsParams,
  GetSwapParams,
  Network,
  NetworksParams,
  QuoteParams,
  QuoteResponse,
  SwapDetails,
} from './schemas.js';

/**
 * The operations the bot uses, one method per API operation. Implemented over HTTP by
 * LayerswapClient (client.ts); everything above it depends on this interface only.
 * Every method resolves to parsed data or rejects with an error from errors.ts.
 */
export interface LayerswapApi {
  getNetworks(params?: NetworksParams, options?: RequestOptions): Promise<Network[]>;
  getDestinations(params?: DestinationsParams, options?: RequestOptions): Promise<Destination[]>;
  getQuote(params: QuoteParams, options?: RequestOptions): Promise<QuoteResponse>;
  /** Never sends twice for one call; reference_id is generated once when absent. */
  createSwap(params: CreateSwapParams, options?: RequestOptions): Promise<SwapDetails>;
  getSwap(swapId: string, params?: GetSwapParams, options?: RequestOptions): Promise<SwapDetails>;
  getDepositActions(swapId: string, params?: { source_address?: string }, options?: RequestOptions): Promise<DepositAction[]>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Override the client's per-request timeout. */
  timeoutMs?: number;
  /** Override the client's retry count for GETs (0 = single attempt). */
  maxRetries?: number;
}

/**
 * The parameters of each LayerswapApi operation, as the API names them (snake_case): what the
 * client sends, beside schemas.ts, which checks what comes back.
 */

export interface QuoteParams {
  source_network: string;
  source_token: string;
  destination_network: string;
  destination_token: string;
  amount: number;
  refuel?: boolean;
  slippage?: string;
  source_address?: string;
  destination_address?: string;
  use_deposit_address?: boolean;
  use_gasless?: boolean;
}

export interface DestinationsParams {
  source_network?: string;
  source_token?: string;
  include_swaps?: boolean;
  include_unavailable?: boolean;
  include_unmatched?: boolean;
  network_types?: string[];
}

export interface NetworksParams {
  network_types?: string[];
}

export interface CreateSwapParams {
  source_network: string;
  source_token: string;
  destination_network: string;
  destination_token: string;
  destination_address: string;
  amount: number;
  refund_address?: string;
  source_address?: string;
  /** Generated once per user action by the client when absent; reused on every attempt. */
  reference_id?: string;
  refuel?: boolean;
  slippage?: string;
  use_deposit_address?: boolean;
  /** Pay through Layerswap's depository contract (a wallet transaction); never with use_deposit_address. */
  use_depository?: boolean;
  /** Fund by a signed EIP-712 authorization (docs api-reference/gasless-swaps.mdx); never with use_deposit_address. */
  use_gasless?: boolean;
  use_new_deposit_address?: boolean | null;
  source_exchange?: string;
  destination_exchange?: string;
  app_name?: string;
}

export interface GetSwapParams {
  exclude_deposit_actions?: boolean;
  source_address?: string;
}

/** GET /limits: the route without an amount. */
export interface LimitsParams {
  source_network: string;
  source_token: string;
  destination_network: string;
  destination_token: string;
  refuel?: boolean;
  use_deposit_address?: boolean;
  use_gasless?: boolean;
  destination_address?: string;
}

export interface SourcesParams {
  destination_network?: string;
  destination_token?: string;
  include_swaps?: boolean;
  include_unavailable?: boolean;
  include_unmatched?: boolean;
  has_deposit_address?: boolean;
  network_types?: string[];
}

/**
 * GET /source_exchanges: exchanges a swap can start from. With source_network and source_token,
 * those that withdraw that token on that network (the current official app's filter).
 */
export interface SourceExchangesParams {
  source_network?: string;
  source_token?: string;
  include_swaps?: boolean;
  include_unavailable?: boolean;
  include_unmatched?: boolean;
}

/**
 * GET /destination_exchanges: exchanges a swap can pay out to. With source_network and
 * source_token, those reachable from that token (the 2024 official app; the current app no longer
 * offers exchanges as a destination).
 */
export interface DestinationExchangesParams {
  source_network?: string;
  source_token?: string;
  include_swaps?: boolean;
  include_unavailable?: boolean;
  include_unmatched?: boolean;
}

/** GET /exchange_withdrawal_networks: where an exchange can withdraw to reach this destination. */
export interface ExchangeWithdrawalNetworksParams {
  source_exchange: string;
  destination_network: string;
  destination_token: string;
  /** Narrows to one token group (the 2024 app sent it; the current one does not). */
  source_token_group?: string;
}

/** GET /exchange_deposit_networks: where an exchange takes deposits reachable from this source. */
export interface ExchangeDepositNetworksParams {
  destination_exchange: string;
  source_network: string;
  source_token: string;
  destination_token_group?: string;
}

/**
 * GET /swaps `statuses` values: PascalCase, its own enum (a snake_case value gets an empty 400).
 * Layerswap documents `PendingDeposit` and `PendingWithdrawal` as examples and no mapping to the
 * swap statuses; the sandbox's reading of the rest is in src/sandbox/swaps.ts.
 */
export const SWAP_LIST_STATUSES = [
  'PendingDeposit',
  'PendingWithdrawal',
  'PendingRefund',
  'Completed',
  'Failed',
  'Expired',
  'Refunded',
] as const;
export type SwapListStatus = (typeof SWAP_LIST_STATUSES)[number];
/** The swaps still moving: what an address watch looks for. */
export const OPEN_SWAP_STATUSES: readonly SwapListStatus[] = ['PendingDeposit', 'PendingWithdrawal', 'PendingRefund'];

export interface ListSwapsParams {
  /** The source or destination address(es) whose swaps are listed (repeated: one request for several). */
  address: string | readonly string[];
  page?: number;
  include_expired?: boolean;
  /** Only swaps in these states (repeated on the wire). */
  statuses?: readonly SwapListStatus[];
  /** Only swaps from or to these networks (repeated on the wire). */
  networks?: readonly string[];
}

export interface TransactionStatusParams {
  network: string;
  transaction_id: string;
}

export interface SpeedUpDepositParams {
  /** The hash of the deposit transaction the user sent. */
  transaction_id: string;
}

/** POST /swaps/{id}/authorize: the wallet's EIP-712 signature of the swap's `sign` action. */
export interface AuthorizeSwapParams {
  signature: string;
  signer_address: string;
}

import { z } from 'zod';

/**
 * zod schemas for every resource of the Layerswap v2 API. They are lenient the way the real
 * service needs: unknown fields are kept (looseObject), most fields may be null or absent, and
 * enums accept strings we have never seen while the known values stay typed.
 * Facts: ../../../shared/reference/layerswap-api.md (sections 3 and 4).
 */

/** A string enum that still accepts unknown values: known ones keep their literal types. */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<T[number] | (string & {})>;
}

export const SWAP_STATUSES = [
  'created',
  'user_transfer_pending',
  'user_transfer_delayed',
  'ls_transfer_pending',
  'completed',
  'failed',
  'expired',
  'cancelled',
  'pending_refund',
  'refunded',
] as const;
export type KnownSwapStatus = (typeof SWAP_STATUSES)[number];
export const FINAL_SWAP_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'expired', 'cancelled', 'refunded']);

export const TRANSACTION_TYPES = ['input', 'output', 'refuel', 'refund'] as const;
export const TRANSACTION_STATUSES = ['completed', 'failed', 'initiated', 'pending'] as const;
export const DEPOSIT_ACTION_TYPES = ['transfer', 'manual_transfer', 'sign'] as const;
export const DEPOSIT_METHODS = ['wallet', 'deposit_address'] as const;
export const TOKEN_STATUSES = ['active', 'inactive', 'not_found'] as const;
export const NETWORK_TYPES = [
  'evm', 'starknet', 'solana', 'cosmos', 'starkex', 'zksynclite', 'ton', 'paradex', 'tron', 'fuel', 'bitcoin', 'hyperliquid',
] as const;
export const FAIL_REASONS = ['received_less_than_valid_range', 'received_more_than_valid_range', 'swap_route_unavailable', 'degraded_quote'] as const;

const str = z.string();
const optStr = z.string().nullish();
const optNum = z.number().nullish();
const optBool = z.boolean().nullish();

export const ApiErrorBodySchema = z.looseObject({
  code: z.string(),
  message: z.string().nullish().transform((m) => m ?? ''),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;

/** Every response: {data, error}. Data is checked separately so a shape error can name its path. */
export const EnvelopeSchema = z.looseObject({
  data: z.unknown().optional(),
  error: ApiErrorBodySchema.nullish(),
});

export const TokenSchema = z.looseObject({
  symbol: str,
  display_asset: optStr,
  logo: optStr,
  contract: optStr,
  decimals: z.number().int().nonnegative(),
  price_in_usd: optNum,
  precision: optNum,
  listing_date: optStr,
  group: optStr,
  source_rank: optNum,
  destination_rank: optNum,
  supports_gasless_deposit: optBool,
});
export type Token = z.infer<typeof TokenSchema>;

/** Tokens in /sources and /destinations add the route status and refuel offer. */
export const RefuelSchema = z.looseObject({
  token: TokenSchema.nullish(),
  network: z.lazy(() => NetworkRefSchema).nullish(),
  amount: optNum,
  amount_in_usd: optNum,
});
export type Refuel = z.infer<typeof RefuelSchema>;

export const RouteTokenSchema = TokenSchema.extend({
  status: openEnum(TOKEN_STATUSES).nullish(),
  refuel: RefuelSchema.nullish(),
});
export type RouteToken = z.infer<typeof RouteTokenSchema>;

export const NetworkMetadataSchema = z.looseObject({
  listing_date: optStr,
  evm_oracle_contract: optStr,
  evm_multicall_contract: optStr,
  zks_paymaster_contract: optStr,
  watchdog_contract: optStr,
});

/** Networks nested inside quotes, swaps and transactions may be cut down: only name is certain. */
export const NetworkRefSchema = z.looseObject({
  name: str,
  display_name: optStr,
  logo: optStr,
  chain_id: optStr,
  type: openEnum(NETWORK_TYPES).nullish(),
  transaction_explorer_template: optStr,
  account_explorer_template: optStr,
  token: TokenSchema.nullish(),
});
export type NetworkRef = z.infer<typeof NetworkRefSchema>;

export const NetworkSchema = z.looseObject({
  name: str,
  display_name: z.string().nullish().transform((d) => d ?? ''),
  logo: optStr,
  chain_id: optStr,
  type: openEnum(NETWORK_TYPES),
  node_url: optStr,
  nodes: z.array(z.unknown()).nullish(),
  transaction_explorer_template: optStr,
  account_explorer_template: optStr,
  metadata: NetworkMetadataSchema.nullish(),
  deposit_methods: z.array(openEnum(DEPOSIT_METHODS)).nullish(),
  source_rank: optNum,
  destination_rank: optNum,
  token: TokenSchema.nullish(),
  tokens: z.array(TokenSchema).default([]),
});
export type Network = z.infer<typeof NetworkSchema>;

/** A network returned by /destinations (or /sources): its tokens carry status and refuel. */
export const DestinationSchema = NetworkSchema.extend({
  tokens: z.array(RouteTokenSchema).default([]),
});
export type Destination = z.infer<typeof DestinationSchema>;

export const ExchangeSchema = z.looseObject({
  name: str,
  display_name: optStr,
  logo: optStr,
  token_groups: z.array(z.unknown()).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

export const PathStepSchema = z.looseObject({ provider: str, order: optNum });

export const QuoteSchema = z.looseObject({
  source_network: NetworkRefSchema.nullish(),
  source_token: TokenSchema.nullish(),
  destination_network: NetworkRefSchema.nullish(),
  destination_token: TokenSchema.nullish(),
  requested_amount: optNum,
  receive_amount: z.number(),
  fee_discount: optNum,
  min_receive_amount: optNum,
  blockchain_fee: optNum,
  service_fee: optNum,
  total_fee: optNum,
  total_fee_in_usd: optNum,
  avg_completion_time: optStr,
  refuel_in_source: optNum,
  slippage: optNum,
  rate: optNum,
  path: z.array(PathStepSchema).nullish(),
});
export type Quote = z.infer<typeof QuoteSchema>;

export const RewardSchema = z.looseObject({
  token: TokenSchema.nullish(),
  network: NetworkRefSchema.nullish(),
  amount: optNum,
  amount_in_usd: optNum,
  campaign_type: openEnum(['for_nft_holders', 'default'] as const).nullish(),
  nft_contract_address: optStr,
});
export type Reward = z.infer<typeof RewardSchema>;

/** GET /quote data. */
export const QuoteResponseSchema = z.looseObject({
  quote: QuoteSchema,
  refuel: RefuelSchema.nullish(),
  reward: RewardSchema.nullish(),
});
export type QuoteResponse = z.infer<typeof QuoteResponseSchema>;

export const TransactionSchema = z.looseObject({
  type: openEnum(TRANSACTION_TYPES),
  status: openEnum(TRANSACTION_STATUSES).nullish(),
  from: optStr,
  to: optStr,
  transaction_hash: optStr,
  amount: optNum,
  confirmations: optNum,
  max_confirmations: optNum,
  usd_value: optNum,
  usd_price: optNum,
  created_date: optStr,
  timestamp: optStr,
  network: NetworkRefSchema.nullish(),
  token: TokenSchema.nullish(),
  fee_amount: optNum,
  fee_token: TokenSchema.nullish(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

export const SwapMetadataSchema = z.looseObject({
  reference_id: optStr,
  app: optStr,
  exchange_account: optStr,
  sequence_number: z.union([z.number(), z.string()]).nullish(),
});

export const SwapSchema = z.looseObject({
  id: z.uuid(),
  created_date: str,
  status: openEnum(SWAP_STATUSES),
  source_network: NetworkRefSchema,
  source_token: TokenSchema,
  destination_network: NetworkRefSchema,
  destination_token: TokenSchema,
  destination_address: optStr,
  source_address: optStr,
  refund_address: optStr,
  requested_amount: optNum,
  fail_reason: openEnum(FAIL_REASONS).nullish(),
  use_deposit_address: optBool,
  source_exchange: ExchangeSchema.nullish(),
  destination_exchange: ExchangeSchema.nullish(),
  metadata: SwapMetadataSchema.nullish(),
  transactions: z.array(TransactionSchema).default([]),
});
export type Swap = z.infer<typeof SwapSchema>;

export const DepositActionSchema = z.looseObject({
  type: openEnum(DEPOSIT_ACTION_TYPES),
  to_address: optStr,
  amount: optNum,
  amount_in_base_units: optStr,
  call_data: optStr,
  encoded_args: z.array(z.unknown()).nullish(),
  gas_limit: optStr,
  order: optNum,
  network: NetworkRefSchema.nullish(),
  token: TokenSchema.nullish(),
  fee_token: TokenSchema.nullish(),
  typed_data: z.unknown().optional(),
  valid_after: z.union([z.number(), z.string()]).nullish(),
  valid_before: z.union([z.number(), z.string()]).nullish(),
  nonce: z.union([z.number(), z.string()]).nullish(),
});
export type DepositAction = z.infer<typeof DepositActionSchema>;

/** POST /swaps and GET /swaps/{id} data: {quote, refuel, reward, swap, deposit_actions}. */
export const SwapDetailsSchema = z.looseObject({
  swap: SwapSchema,
  quote: QuoteSchema.nullish(),
  refuel: RefuelSchema.nullish(),
  reward: RewardSchema.nullish(),
  deposit_actions: z.array(DepositActionSchema).nullish(),
});
export type SwapDetails = z.infer<typeof SwapDetailsSchema>;

export const NetworkListSchema = z.array(NetworkSchema);
export const DestinationListSchema = z.array(DestinationSchema);
export const DepositActionListSchema = z.array(DepositActionSchema);

// ---- request parameters ----

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
  use_new_deposit_address?: boolean | null;
  source_exchange?: string;
  destination_exchange?: string;
  app_name?: string;
}

export interface GetSwapParams {
  exclude_deposit_actions?: boolean;
  source_address?: string;
}

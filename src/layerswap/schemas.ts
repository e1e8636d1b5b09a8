import { z } from 'zod';
import { isSwapId } from '../contracts/swap-id.js';
import {
  DEPOSIT_ACTION_TYPES,
  DEPOSIT_METHODS,
  FAIL_REASONS,
  NETWORK_TYPES,
  openEnum,
  SWAP_STATUSES,
  TOKEN_STATUSES,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from './enums.js';

/**
 * zod schemas for every resource of the Layerswap v2 API. They are lenient the way the real
 * service needs: unknown fields are kept (looseObject), most fields may be null or absent, and
 * enums accept strings we have never seen while the known values stay typed.
 * Facts: ../../../shared/reference/layerswap-api.md (sections 3 and 4).
 */

export { FAIL_REASONS, FINAL_SWAP_STATUSES, SWAP_STATUSES, TRANSACTION_STATUSES } from './enums.js';

const str = z.string();

/**
 * An optional field: null or absent as sent, and a malformed value (a string where a number
 * belongs, a cut-down nested object) dropped as undefined instead of failing the whole answer.
 * The official SDK marks every response field optional; only what a feature cannot work
 * without is required below.
 */
function opt<T extends z.ZodType>(schema: T) {
  return schema.nullish().catch(undefined);
}

/** An array of nested objects where an unreadable element drops only itself. */
function items<T extends z.ZodType>(item: T) {
  return z.array(z.unknown()).transform((values) =>
    values.flatMap((v): z.output<T>[] => {
      const r = item.safeParse(v);
      return r.success ? [r.data] : [];
    }),
  );
}

const optStr = opt(z.string());
const optNum = opt(z.number());
const optBool = opt(z.boolean());
/** A date as sent ("2026-01-01T12:00:00+00:00"); "" or an unparseable text becomes undefined. */
const optDate = optStr.transform((s) => (s && s.trim() !== '' && !Number.isNaN(Date.parse(s)) ? s : undefined)).optional();

export const ApiErrorBodySchema = z.looseObject({
  code: z.string(),
  message: z
    .string()
    .nullish()
    .transform((m) => m ?? ''),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/** Every response: {data, error}. Data is checked separately so a shape error can name its path. */
export const EnvelopeSchema = z.looseObject({
  data: z.unknown().optional(),
  error: ApiErrorBodySchema.nullish(),
});

/** Only the symbol is certain: nested tokens are often cut down (no decimals in the refund docs). */
export const TokenSchema = z.looseObject({
  symbol: str,
  display_asset: optStr,
  logo: optStr,
  contract: optStr,
  decimals: opt(z.number().int().nonnegative()),
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
const RefuelSchema = z.looseObject({
  token: opt(TokenSchema),
  network: opt(z.lazy(() => NetworkRefSchema)),
  amount: optNum,
  amount_in_usd: optNum,
});

export const RouteTokenSchema = TokenSchema.extend({
  status: opt(openEnum(TOKEN_STATUSES)),
  refuel: opt(RefuelSchema),
});
export type RouteToken = z.infer<typeof RouteTokenSchema>;

const NetworkMetadataSchema = z.looseObject({
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
  type: opt(openEnum(NETWORK_TYPES)),
  transaction_explorer_template: optStr,
  account_explorer_template: optStr,
  token: opt(TokenSchema),
});
export type NetworkRef = z.infer<typeof NetworkRefSchema>;

export const NetworkSchema = z.looseObject({
  name: str,
  display_name: z
    .string()
    .nullish()
    .catch(undefined)
    .transform((d) => d ?? ''),
  logo: optStr,
  chain_id: optStr,
  type: opt(openEnum(NETWORK_TYPES)),
  node_url: optStr,
  nodes: opt(z.array(z.unknown())),
  transaction_explorer_template: optStr,
  account_explorer_template: optStr,
  metadata: opt(NetworkMetadataSchema),
  deposit_methods: opt(items(openEnum(DEPOSIT_METHODS))),
  source_rank: optNum,
  destination_rank: optNum,
  token: opt(TokenSchema),
  tokens: items(TokenSchema).catch([]),
});
export type Network = z.infer<typeof NetworkSchema>;

/** A network returned by /destinations (or /sources): its tokens carry status and refuel. */
export const DestinationSchema = NetworkSchema.extend({
  tokens: items(RouteTokenSchema).catch([]),
});
export type Destination = z.infer<typeof DestinationSchema>;
/** /sources answers the same route shape as /destinations, seen from the other end. */
export type RouteNetwork = Destination;

export const ExchangeSchema = z.looseObject({
  name: str,
  display_name: optStr,
  logo: optStr,
  token_groups: opt(z.array(z.unknown())),
  metadata: opt(z.record(z.string(), z.unknown())),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/**
 * One network an exchange withdraws a token on (GET /exchange_withdrawal_networks) or takes it
 * on (GET /exchange_deposit_networks): the app's ExchangeNetwork. Without the network and token
 * the entry says nothing, so it is dropped; the fee is an estimate and may be missing.
 */
export const ExchangeNetworkSchema = z.looseObject({
  network: NetworkRefSchema,
  token: TokenSchema,
  fee: opt(z.looseObject({ total_fee: optNum, total_fee_in_usd: optNum })),
});
export type ExchangeNetwork = z.infer<typeof ExchangeNetworkSchema>;

const PathStepSchema = z.looseObject({ provider: str, order: optNum });

/** receive_amount is what a quote is for: without it the quote cannot be shown. */
export const QuoteSchema = z.looseObject({
  source_network: opt(NetworkRefSchema),
  source_token: opt(TokenSchema),
  destination_network: opt(NetworkRefSchema),
  destination_token: opt(TokenSchema),
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
  path: opt(items(PathStepSchema)),
});
export type Quote = z.infer<typeof QuoteSchema>;

const RewardSchema = z.looseObject({
  token: opt(TokenSchema),
  network: opt(NetworkRefSchema),
  amount: optNum,
  amount_in_usd: optNum,
  campaign_type: opt(openEnum(['for_nft_holders', 'default'] as const)),
  nft_contract_address: optStr,
});

/** GET /quote data: the quote itself is the answer, so it is required. */
export const QuoteResponseSchema = z.looseObject({
  quote: QuoteSchema,
  refuel: opt(RefuelSchema),
  reward: opt(RewardSchema),
});
export type QuoteResponse = z.infer<typeof QuoteResponseSchema>;

/** GET /limits data: a route's amount range in source-token units. */
export const LimitsSchema = z.looseObject({
  min_amount: z.number(),
  max_amount: z.number(),
  min_amount_in_usd: optNum,
  max_amount_in_usd: optNum,
});
export type Limits = z.infer<typeof LimitsSchema>;

export const TransactionSchema = z.looseObject({
  type: opt(openEnum(TRANSACTION_TYPES)),
  status: opt(openEnum(TRANSACTION_STATUSES)),
  from: optStr,
  to: optStr,
  transaction_hash: optStr,
  amount: optNum,
  confirmations: optNum,
  max_confirmations: optNum,
  usd_value: optNum,
  usd_price: optNum,
  created_date: optDate,
  timestamp: optDate,
  network: opt(NetworkRefSchema),
  token: opt(TokenSchema),
  fee_amount: optNum,
  fee_token: opt(TokenSchema),
});
export type Transaction = z.infer<typeof TransactionSchema>;

const SwapMetadataSchema = z.looseObject({
  reference_id: optStr,
  app: optStr,
  exchange_account: optStr,
  sequence_number: opt(z.union([z.number(), z.string()])),
});

/**
 * A swap needs only its id and status to be shown, recorded and followed. The id must be one the
 * client can use later (GET /swaps/{id}): an elided doc id such as "550e8400-..." fails here.
 */
export const SwapIdSchema = z.string().refine(isSwapId, 'not a swap id (a UUID)');

const SwapSchema = z.looseObject({
  id: SwapIdSchema,
  created_date: optDate,
  status: openEnum(SWAP_STATUSES),
  source_network: opt(NetworkRefSchema),
  source_token: opt(TokenSchema),
  destination_network: opt(NetworkRefSchema),
  destination_token: opt(TokenSchema),
  destination_address: optStr,
  source_address: optStr,
  refund_address: optStr,
  requested_amount: optNum,
  fail_reason: opt(openEnum(FAIL_REASONS)),
  use_deposit_address: optBool,
  source_exchange: opt(ExchangeSchema),
  destination_exchange: opt(ExchangeSchema),
  metadata: opt(SwapMetadataSchema),
  transactions: items(TransactionSchema).catch([]),
});

export const DepositActionSchema = z.looseObject({
  type: opt(openEnum(DEPOSIT_ACTION_TYPES)),
  to_address: optStr,
  amount: optNum,
  amount_in_base_units: optStr,
  call_data: optStr,
  encoded_args: opt(z.array(z.unknown())),
  gas_limit: optStr,
  order: optNum,
  network: opt(NetworkRefSchema),
  token: opt(TokenSchema),
  fee_token: opt(TokenSchema),
  typed_data: z.unknown().optional(),
  valid_after: opt(z.union([z.number(), z.string()])),
  valid_before: opt(z.union([z.number(), z.string()])),
  nonce: opt(z.union([z.number(), z.string()])),
});
export type DepositAction = z.infer<typeof DepositActionSchema>;

/**
 * POST /swaps and GET /swaps/{id} data: {quote, refuel, reward, swap, deposit_actions}.
 * deposit_actions stays absent when the answer had none (GET with exclude_deposit_actions).
 */
export const SwapDetailsSchema = z.looseObject({
  swap: SwapSchema,
  quote: opt(QuoteSchema),
  refuel: opt(RefuelSchema),
  reward: opt(RewardSchema),
  deposit_actions: opt(items(DepositActionSchema)),
});
export type SwapDetails = z.infer<typeof SwapDetailsSchema>;

/**
 * The part of GET /swaps/{id} a poller compares between polls, checked on every poll: plain
 * objects (unknown fields dropped, not copied) and only these fields, so a poll that finds no
 * change costs a fraction of checking the whole answer. Same leniency as SwapSchema.
 */
const PollTransactionSchema = z.object({
  type: opt(openEnum(TRANSACTION_TYPES)),
  status: opt(openEnum(TRANSACTION_STATUSES)),
  transaction_hash: optStr,
  confirmations: optNum,
  max_confirmations: optNum,
});
export const SwapPollSchema = z.object({
  swap: z.object({
    id: SwapIdSchema,
    status: openEnum(SWAP_STATUSES),
    fail_reason: opt(openEnum(FAIL_REASONS)),
    transactions: items(PollTransactionSchema).catch([]),
  }),
  quote: opt(z.object({ avg_completion_time: optStr })),
});

/**
 * LayerswapApi.pollSwap's answer: the compared fields, and the whole SwapDetails on demand
 * (checked from the same parsed body, once; it throws ResponseShapeError only where getSwap would).
 */
export type SwapPoll = z.infer<typeof SwapPollSchema> & { details(): SwapDetails };

/**
 * What createSwap resolves to. `partial: true` when the create answer was cut down (the live
 * capture sends only {id, status}) and GET /swaps/{id} could not fill it in either: the id is
 * certain, the rest may be missing. When the answer had no status, `swap.status` is "created",
 * which is what a swap the service has just accepted is.
 */
export type CreatedSwap = SwapDetails & { partial?: true };

/** `data: null` is allowed by Layerswap's seed spec: read as no networks, not as a broken answer. */
export const NetworkListSchema = z
  .array(NetworkSchema)
  .nullable()
  .transform((v) => v ?? []);
export const DestinationListSchema = z.array(DestinationSchema);
export const DepositActionListSchema = items(DepositActionSchema);
export const ExchangeListSchema = items(ExchangeSchema);
export const ExchangeNetworkListSchema = items(ExchangeNetworkSchema);

/**
 * GET /swaps?address= data: the SDK types it as SwapResponse[] ({swap, quote, ...}), older answers
 * were bare swaps; both are read, null is an empty list, and an unreadable entry is left out.
 */
export const SwapListSchema = z
  .array(z.unknown())
  .nullish()
  .transform((values) =>
    (values ?? []).flatMap((v): SwapDetails[] => {
      const wrapped = typeof v === 'object' && v !== null && !Array.isArray(v) && !('swap' in v) ? { swap: v } : v;
      const r = SwapDetailsSchema.safeParse(wrapped);
      return r.success ? [r.data] : [];
    }),
  );

/** GET /transaction_status data (SDK LsTransactionStatus); every field may be missing. */
export const TransactionStatusSchema = z.looseObject({
  network: optStr,
  transaction_id: optStr,
  is_found: optBool,
  is_completed: optBool,
  confirmations: optNum,
  max_confirmations: optNum,
});
export type TransactionStatus = z.infer<typeof TransactionStatusSchema>;

/** GET /swaps/{id}/authorize data (gasless deposits: the pay page's "Pay without gas"). */
export const AuthorizeStatusSchema = z.looseObject({
  status: optStr,
  transaction: opt(z.looseObject({ transaction_id: optStr, status: optStr })),
});
export type AuthorizeStatus = z.infer<typeof AuthorizeStatusSchema>;

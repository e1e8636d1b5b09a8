import { z } from 'zod';

/** The Layerswap v2 API's enumerations (reference sections 3 and 4), open to values we have never seen. */

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
export const FINAL_SWAP_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'expired', 'cancelled', 'refunded']);

export const TRANSACTION_TYPES = ['input', 'output', 'refuel', 'refund'] as const;
export const TRANSACTION_STATUSES = ['completed', 'failed', 'initiated', 'pending'] as const;
export const DEPOSIT_ACTION_TYPES = ['transfer', 'manual_transfer', 'sign'] as const;
export const DEPOSIT_METHODS = ['wallet', 'deposit_address'] as const;
export const TOKEN_STATUSES = ['active', 'inactive', 'not_found'] as const;
export const NETWORK_TYPES = [
  'evm',
  'starknet',
  'solana',
  'cosmos',
  'starkex',
  'zksynclite',
  'ton',
  'paradex',
  'tron',
  'fuel',
  'bitcoin',
  'hyperliquid',
] as const;
export const FAIL_REASONS = [
  'received_less_than_valid_range',
  'received_more_than_valid_range',
  'swap_route_unavailable',
  'degraded_quote',
] as const;

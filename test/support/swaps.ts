import type { CreateSwapParams, QuoteParams } from '../../src/layerswap/params.js';
import { SwapDetailsSchema, type SwapDetails } from '../../src/layerswap/schemas.js';

/**
 * One builder of the networks, tokens and swaps the pure card and money tests render: a 100 USDC
 * swap from Arbitrum One to Base, quoted at the figures of the money issue (fees 0.847739, 99.152261
 * to receive). Files that need another shape spread these and change what differs.
 */

/** The tests' "now": a swap created two minutes before it. */
export const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
export const SWAP_ID = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';
/** The destination address (vitalik.eth's, a well-formed mixed-case EVM address). */
export const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

export const ARBITRUM = {
  name: 'ARBITRUM_MAINNET',
  display_name: 'Arbitrum One',
  type: 'evm',
  chain_id: '42161',
  transaction_explorer_template: 'https://arbiscan.io/tx/{0}',
};
export const BASE = {
  name: 'BASE_MAINNET',
  display_name: 'Base',
  type: 'evm',
  chain_id: '8453',
  transaction_explorer_template: 'https://basescan.org/tx/{0}',
};
/** USDC on Arbitrum One, at 1 USD. */
export const USDC = { symbol: 'USDC', decimals: 6, contract: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', price_in_usd: 1 };

/** A 32-byte hash of one repeated hex digit: hash('a') = 0xaaaa…. */
export const hash = (c: string): string => `0x${c.repeat(64)}`;

/** The money issue's quote: 100 USDC asked, fees 0.847739, 99.152261 to receive. */
export const QUOTE = {
  requested_amount: 100,
  receive_amount: 99.152261,
  min_receive_amount: 98.90438,
  service_fee: 0.2,
  blockchain_fee: 0.647739,
  total_fee: 0.847739,
  total_fee_in_usd: 0.85,
  rate: 1,
  avg_completion_time: '00:00:35',
};

/** The swap in `status` with these transactions, parsed as the client parses the service's answer. */
export function swapDetails(
  status: string,
  transactions: unknown[] = [],
  opts: { swap?: Record<string, unknown>; quote?: Record<string, unknown>; more?: Record<string, unknown> } = {},
): SwapDetails {
  return SwapDetailsSchema.parse({
    swap: {
      id: SWAP_ID,
      created_date: '2026-01-01T11:58:00+00:00',
      status,
      source_network: ARBITRUM,
      source_token: USDC,
      destination_network: BASE,
      destination_token: USDC,
      destination_address: DEST,
      requested_amount: 100,
      transactions,
      ...opts.swap,
    },
    quote: opts.quote ?? QUOTE,
    ...opts.more,
  });
}

/**
 * The request for the tests' usual swap against the sandbox: 100 USDC from Arbitrum One to Base,
 * paid to a deposit address, received at `destination`. `more` changes what a test needs to differ.
 */
export function swapRequest(destination: string, more: Partial<CreateSwapParams> = {}): CreateSwapParams {
  return {
    source_network: 'ARBITRUM_MAINNET',
    source_token: 'USDC',
    destination_network: 'BASE_MAINNET',
    destination_token: 'USDC',
    destination_address: destination,
    amount: 100,
    use_deposit_address: true,
    ...more,
  };
}

/** The quote the bot asks for that swap: 100 USDC, no refuel, paid to a deposit address. */
export function quoteRequest(more: Partial<QuoteParams> = {}): QuoteParams {
  return {
    source_network: 'ARBITRUM_MAINNET',
    source_token: 'USDC',
    destination_network: 'BASE_MAINNET',
    destination_token: 'USDC',
    amount: 100,
    refuel: false,
    use_deposit_address: true,
    ...more,
  };
}

/** The deposit address the card tests' service gives. */
export const DEPOSIT_ADDRESS = '0x7821fA24AFb8CBD74AEb71134f1c2309DeC4e03C';

/** The deposit action of a swap paid by transfer: 100 USDC on Arbitrum One to DEPOSIT_ADDRESS. */
export function manualTransfer(more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'manual_transfer',
    to_address: DEPOSIT_ADDRESS,
    amount: 100,
    amount_in_base_units: '100000000',
    call_data: null,
    order: 0,
    network: ARBITRUM,
    token: USDC,
    ...more,
  };
}

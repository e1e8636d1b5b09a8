/**
 * Response bodies shaped like the real service's (shared/reference/layerswap-api.md sections 3
 * and 12). Plain JSON, as it comes off the wire, so schema tests see what the client would see.
 */

const USDC_SOLANA = {
  symbol: 'USDC',
  display_asset: 'USDC',
  logo: 'https://cdn.layerswap.io/usdc.png',
  contract: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  decimals: 6,
  price_in_usd: 0.9998,
  precision: 6,
  listing_date: '2023-01-01T00:00:00+00:00',
  group: 'USDC',
  source_rank: 1,
  destination_rank: 1,
  supports_gasless_deposit: false,
};
const USDC_ARBITRUM = { ...USDC_SOLANA, contract: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' };
const ETH = { symbol: 'ETH', display_asset: 'ETH', logo: null, contract: null, decimals: 18, price_in_usd: 3100.5, precision: 6 };
const SOL = { symbol: 'SOL', display_asset: 'SOL', logo: null, contract: null, decimals: 9, price_in_usd: 150.2, precision: 6 };

export const ARBITRUM = {
  name: 'ARBITRUM_MAINNET',
  display_name: 'Arbitrum One',
  logo: 'https://cdn.layerswap.io/arbitrum.png',
  chain_id: '42161',
  type: 'evm',
  node_url: 'https://arb1.arbitrum.io/rpc',
  nodes: [{ url: 'https://arb1.arbitrum.io/rpc' }],
  transaction_explorer_template: 'https://arbiscan.io/tx/{0}',
  account_explorer_template: 'https://arbiscan.io/address/{0}',
  metadata: {
    listing_date: '2022-01-01T00:00:00+00:00',
    evm_oracle_contract: null,
    evm_multicall_contract: '0xcA11bde05977b3631167028862bE2a173976CA11',
    zks_paymaster_contract: null,
    watchdog_contract: null,
  },
  deposit_methods: ['wallet', 'deposit_address'],
  source_rank: 2,
  destination_rank: 2,
  token: ETH,
  tokens: [ETH, USDC_ARBITRUM, { symbol: 'USDC.e', contract: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8', decimals: 6 }],
};

export const SOLANA = {
  name: 'SOLANA_MAINNET',
  display_name: 'Solana',
  logo: null,
  chain_id: '',
  type: 'solana',
  transaction_explorer_template: 'https://solscan.io/tx/{0}',
  account_explorer_template: 'https://solscan.io/account/{0}',
  token: SOL,
  tokens: [SOL, USDC_SOLANA, { symbol: 'USDT', contract: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6 }],
};

export const TON = {
  name: 'TON_MAINNET',
  display_name: 'Ton',
  chain_id: null,
  type: 'ton',
  token: { symbol: 'TON', contract: null, decimals: 9 },
  tokens: [{ symbol: 'TON', contract: null, decimals: 9 }],
};

/** The real capture (WDK quote.spl.json): SOLANA_MAINNET USDC → ARBITRUM_MAINNET USDC, amount 10. */
export const QUOTE = {
  quote: {
    source_network: {
      name: 'SOLANA_MAINNET',
      display_name: 'Solana',
      logo: null,
      chain_id: '',
      type: 'solana',
      transaction_explorer_template: 'https://solscan.io/tx/{0}',
    },
    source_token: USDC_SOLANA,
    destination_network: { name: 'ARBITRUM_MAINNET', display_name: 'Arbitrum One', chain_id: '42161', type: 'evm' },
    destination_token: USDC_ARBITRUM,
    requested_amount: 10,
    receive_amount: 9.55772,
    fee_discount: 0,
    min_receive_amount: 9.533826,
    blockchain_fee: 0.439897,
    service_fee: 0.002382,
    total_fee: 0.442279,
    total_fee_in_usd: 0.442175,
    avg_completion_time: '00:00:05.4528534',
    refuel_in_source: 0,
    slippage: 0.0025,
    rate: 1,
    path: [{ provider: 'LAYERSWAP', order: 0 }],
  },
  refuel: null,
  reward: null,
};

/** Quote parameters the client tests ask with. */
export const QUOTE_PARAMS = {
  source_network: 'SOLANA_MAINNET',
  source_token: 'USDC',
  destination_network: 'ARBITRUM_MAINNET',
  destination_token: 'USDC',
  amount: 10,
};

export const SWAP_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

export const SWAP_DETAILS = {
  swap: {
    id: SWAP_ID,
    created_date: '2026-01-01T12:00:00.123+00:00',
    status: 'user_transfer_pending',
    source_network: QUOTE.quote.source_network,
    source_token: USDC_SOLANA,
    destination_network: QUOTE.quote.destination_network,
    destination_token: USDC_ARBITRUM,
    destination_address: '0x1111111111111111111111111111111111111111',
    source_address: null,
    refund_address: null,
    requested_amount: 10,
    fail_reason: null,
    use_deposit_address: true,
    metadata: { reference_id: 'ref-1', app: 'swapbot', exchange_account: null, sequence_number: 5089 },
    transactions: [],
  },
  quote: QUOTE.quote,
  refuel: null,
  reward: null,
  deposit_actions: [
    {
      type: 'manual_transfer',
      to_address: '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1',
      amount: 10,
      amount_in_base_units: '10000000',
      call_data: null,
      gas_limit: null,
      order: 0,
      network: QUOTE.quote.source_network,
      token: USDC_SOLANA,
      fee_token: SOL,
    },
  ],
};

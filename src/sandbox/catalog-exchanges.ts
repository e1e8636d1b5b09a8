import type { CatalogExchange } from './model.js';

/**
 * Centralised exchanges as a swap's source (the exchange withdraws to the deposit address over one
 * of its withdrawal networks) or destination (Layerswap pays out to the user's exchange deposit
 * address on one of its deposit networks). Same networks both ways, for simplicity.
 */
export const EXCHANGES: readonly CatalogExchange[] = [
  {
    name: 'BINANCE',
    display_name: 'Binance',
    token_groups: [
      { symbol: 'ETH', networks: ['ETHEREUM_MAINNET', 'ARBITRUM_MAINNET', 'OPTIMISM_MAINNET', 'BASE_MAINNET'] },
      { symbol: 'USDC', networks: ['ETHEREUM_MAINNET', 'SOLANA_MAINNET', 'BASE_MAINNET', 'BSC_MAINNET'] },
      { symbol: 'USDT', networks: ['TRON_MAINNET', 'ETHEREUM_MAINNET', 'TON_MAINNET', 'BSC_MAINNET'] },
      { symbol: 'BTC', networks: ['BITCOIN_MAINNET'] },
    ],
  },
  {
    name: 'COINBASE',
    display_name: 'Coinbase',
    token_groups: [
      { symbol: 'ETH', networks: ['ETHEREUM_MAINNET', 'BASE_MAINNET', 'ARBITRUM_MAINNET', 'OPTIMISM_MAINNET'] },
      { symbol: 'USDC', networks: ['ETHEREUM_MAINNET', 'BASE_MAINNET', 'SOLANA_MAINNET', 'POLYGON_MAINNET'] },
      { symbol: 'BTC', networks: ['BITCOIN_MAINNET'] },
    ],
  },
  {
    name: 'OKX',
    display_name: 'OKX',
    token_groups: [
      { symbol: 'ETH', networks: ['ETHEREUM_MAINNET', 'ARBITRUM_MAINNET', 'LINEA_MAINNET', 'ZKSYNCERA_MAINNET'] },
      { symbol: 'USDT', networks: ['ETHEREUM_MAINNET', 'TRON_MAINNET'] },
    ],
  },
  {
    name: 'KRAKEN',
    display_name: 'Kraken',
    token_groups: [
      { symbol: 'ETH', networks: ['ETHEREUM_MAINNET', 'ARBITRUM_MAINNET'] },
      { symbol: 'BTC', networks: ['BITCOIN_MAINNET'] },
    ],
  },
];

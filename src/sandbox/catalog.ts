import type { CatalogNetwork, CatalogToken, Family } from './model.js';

/**
 * The sandbox's catalogue: real Layerswap network names, chain ids, token contracts and decimals
 * (shared/reference/layerswap-api.md section 12 and the chains' own registries), with fixed prices
 * so every quote the sandbox gives is reproducible. Data only.
 */

/** USD prices by token symbol. Fixed on purpose: figures in tests never drift. */
export const PRICES_USD: Readonly<Record<string, number>> = {
  ETH: 3000,
  BTC: 60000,
  WBTC: 59987.5,
  SOL: 150,
  TON: 5,
  TRX: 0.25,
  XLM: 0.27,
  BNB: 600,
  POL: 0.5,
  // Stablecoins are never exactly 1 in real answers (live capture: USDC 0.999766).
  USDC: 0.999766,
  'USDC.e': 0.999766,
  USDT: 0.998889,
  USDT0: 0.998889,
};

/** The native token of each family given by address: EVM and Solana have a "zero address". */
export const NATIVE_ZERO_ADDRESS: Readonly<Partial<Record<Family, string>>> = {
  evm: '0x0000000000000000000000000000000000000000',
  solana: '11111111111111111111111111111111',
};

const LOGO_ROOT = 'https://prodlslayerswapbridgesa.blob.core.windows.net/layerswap';
export const networkLogo = (name: string): string => `${LOGO_ROOT}/networks/${name.toLowerCase()}.png`;
export const tokenLogo = (symbol: string): string => `${LOGO_ROOT}/currencies/${symbol.toLowerCase().replace('.', '')}.png`;

const LISTED = '2023-12-27T16:46:50.617075+00:00';
const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11';
const OP_GAS_ORACLE = '0x420000000000000000000000000000000000000F';

function token(
  symbol: string,
  contract: string | null,
  decimals: number,
  precision: number,
  group: string,
  rank: number,
  extra: Partial<CatalogToken> = {},
): CatalogToken {
  return {
    symbol,
    display_asset: symbol,
    // The service writes EVM contracts in lower case (live captures), whatever case they were listed in.
    contract: contract?.startsWith('0x') ? contract.toLowerCase() : contract,
    decimals,
    precision,
    group,
    listing_date: LISTED,
    source_rank: rank,
    destination_rank: rank,
    supports_gasless_deposit: false,
    ...extra,
  };
}

const eth = (rank = 1) => token('ETH', null, 18, 8, 'ETH', rank);
const usdc = (contract: string, rank = 2, decimals = 6, extra: Partial<CatalogToken> = {}) =>
  token('USDC', contract, decimals, 6, 'USDC', rank, extra);
const usdt = (contract: string, rank = 3, decimals = 6) => token('USDT', contract, decimals, 6, 'USDT', rank);

interface NetworkInit {
  name: string;
  display_name: string;
  type: Family;
  chain_id: string | null;
  node_url: string;
  explorer: string;
  account: string;
  max_confirmations: number;
  deposit_seconds: number;
  rank: number;
  tokens: CatalogToken[];
  deposit_methods?: string[];
  evm_oracle_contract?: string | null;
  evm_multicall_contract?: string | null;
}

function network(n: NetworkInit): CatalogNetwork {
  const native = n.tokens[0];
  if (!native) throw new Error(`catalog: ${n.name} has no tokens`);
  return {
    name: n.name,
    display_name: n.display_name,
    type: n.type,
    chain_id: n.chain_id,
    node_url: n.node_url,
    transaction_explorer_template: n.explorer,
    account_explorer_template: n.account,
    deposit_methods: n.deposit_methods ?? ['wallet', 'deposit_address'],
    listing_date: LISTED,
    evm_oracle_contract: n.evm_oracle_contract ?? null,
    evm_multicall_contract: n.evm_multicall_contract ?? (n.type === 'evm' ? MULTICALL3 : null),
    source_rank: n.rank,
    destination_rank: n.rank,
    max_confirmations: n.max_confirmations,
    deposit_seconds: n.deposit_seconds,
    native,
    tokens: n.tokens,
  };
}

export const NETWORKS: readonly CatalogNetwork[] = [
  network({
    name: 'ETHEREUM_MAINNET',
    display_name: 'Ethereum',
    type: 'evm',
    chain_id: '1',
    node_url: 'https://ethereum-rpc.publicnode.com',
    explorer: 'https://etherscan.io/tx/{0}',
    account: 'https://etherscan.io/address/{0}',
    max_confirmations: 12,
    deposit_seconds: 150.5,
    rank: 1,
    tokens: [
      eth(),
      usdc('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'),
      usdt('0xdAC17F958D2ee523a2206206994597C13D831ec7'),
      token('WBTC', '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', 8, 8, 'BTC', 4),
    ],
  }),
  network({
    name: 'ARBITRUM_MAINNET',
    display_name: 'Arbitrum One',
    type: 'evm',
    chain_id: '42161',
    node_url: 'https://arb1.arbitrum.io/rpc',
    explorer: 'https://arbiscan.io/tx/{0}',
    account: 'https://arbiscan.io/address/{0}',
    max_confirmations: 3,
    deposit_seconds: 21.25,
    rank: 2,
    tokens: [
      eth(),
      usdc('0xaf88d065e77c8cc2239327c5edb3a432268e5831', 2, 6, { supports_gasless_deposit: true }),
      token('USDC.e', '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8', 6, 6, 'USDC', 5),
      token('USDT0', '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9', 6, 6, 'USDT', 3),
      token('WBTC', '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f', 8, 8, 'BTC', 4),
    ],
  }),
  network({
    name: 'BASE_MAINNET',
    display_name: 'Base',
    type: 'evm',
    chain_id: '8453',
    node_url: 'https://mainnet.base.org',
    explorer: 'https://basescan.org/tx/{0}',
    account: 'https://basescan.org/address/{0}',
    max_confirmations: 3,
    deposit_seconds: 24.75,
    rank: 3,
    evm_oracle_contract: OP_GAS_ORACLE,
    tokens: [eth(), usdc('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', 2, 6, { supports_gasless_deposit: true })],
  }),
  network({
    name: 'OPTIMISM_MAINNET',
    display_name: 'Optimism',
    type: 'evm',
    chain_id: '10',
    node_url: 'https://mainnet.optimism.io',
    explorer: 'https://optimistic.etherscan.io/tx/{0}',
    account: 'https://optimistic.etherscan.io/address/{0}',
    max_confirmations: 3,
    deposit_seconds: 26.4,
    rank: 4,
    evm_oracle_contract: OP_GAS_ORACLE,
    tokens: [eth(), usdc('0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'), usdt('0x94b008aA00579c1307B0EF2c499aD98a8ce58e58')],
  }),
  network({
    name: 'LINEA_MAINNET',
    display_name: 'Linea',
    type: 'evm',
    chain_id: '59144',
    node_url: 'https://rpc.linea.build',
    explorer: 'https://lineascan.build/tx/{0}',
    account: 'https://lineascan.build/address/{0}',
    max_confirmations: 3,
    deposit_seconds: 32.6,
    rank: 7,
    tokens: [eth(), usdc('0x176211869cA2b568f2A7D4EE941E073a821EE1ff')],
  }),
  network({
    name: 'POLYGON_MAINNET',
    display_name: 'Polygon',
    type: 'evm',
    chain_id: '137',
    node_url: 'https://polygon-rpc.com',
    explorer: 'https://polygonscan.com/tx/{0}',
    account: 'https://polygonscan.com/address/{0}',
    max_confirmations: 10,
    deposit_seconds: 41.8,
    rank: 8,
    tokens: [
      token('POL', null, 18, 4, 'POL', 1),
      usdc('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'),
      usdt('0xc2132D05D31c914a87C6611C10748AEb04B58e8F'),
    ],
  }),
  network({
    name: 'ZKSYNCERA_MAINNET',
    display_name: 'zkSync Era',
    type: 'evm',
    chain_id: '324',
    node_url: 'https://mainnet.era.zksync.io',
    explorer: 'https://explorer.zksync.io/tx/{0}',
    account: 'https://explorer.zksync.io/address/{0}',
    max_confirmations: 3,
    deposit_seconds: 35.1,
    rank: 9,
    evm_multicall_contract: '0xf9cda624fbc7e059355ce98a31693d299facd963',
    tokens: [eth(), usdc('0x1d17CBcF0D6D143135aE902365D2E5e2A16538D4')],
  }),
  network({
    name: 'SCROLL_MAINNET',
    display_name: 'Scroll',
    type: 'evm',
    chain_id: '534352',
    node_url: 'https://rpc.scroll.io',
    explorer: 'https://scrollscan.com/tx/{0}',
    account: 'https://scrollscan.com/address/{0}',
    max_confirmations: 3,
    deposit_seconds: 38.9,
    rank: 10,
    tokens: [eth(), usdc('0x06eFdBFf2a14a7c8E15944D1F4A48F9F95F663A4')],
  }),
  network({
    name: 'BSC_MAINNET',
    display_name: 'BNB Smart Chain',
    type: 'evm',
    chain_id: '56',
    node_url: 'https://bsc-dataseed.bnbchain.org',
    explorer: 'https://bscscan.com/tx/{0}',
    account: 'https://bscscan.com/address/{0}',
    max_confirmations: 6,
    deposit_seconds: 29.3,
    rank: 11,
    // BSC's bridged stablecoins use 18 decimals, a classic source of unit bugs.
    tokens: [
      token('BNB', null, 18, 6, 'BNB', 1),
      usdt('0x55d398326f99059fF775485246999027B3197955', 2, 18),
      usdc('0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 3, 18),
    ],
  }),
  network({
    name: 'STARKNET_MAINNET',
    display_name: 'StarkNet',
    type: 'starknet',
    chain_id: '0x534e5f4d41494e',
    node_url: 'https://starknet-mainnet.public.blastapi.io',
    explorer: 'https://starkscan.co/tx/{0}',
    account: 'https://starkscan.co/contract/{0}',
    max_confirmations: 1,
    deposit_seconds: 95.2,
    rank: 5,
    // Wallet flow only: a quote with use_deposit_address=true answers QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS.
    deposit_methods: ['wallet'],
    tokens: [
      token('ETH', '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7', 18, 6, 'ETH', 1),
      usdc('0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8'),
    ],
  }),
  network({
    name: 'SOLANA_MAINNET',
    display_name: 'Solana',
    type: 'solana',
    chain_id: '',
    node_url: 'https://api.mainnet-beta.solana.com',
    explorer: 'https://solscan.io/tx/{0}',
    account: 'https://solscan.io/account/{0}',
    max_confirmations: 2,
    deposit_seconds: 5.4528534,
    rank: 6,
    tokens: [
      token('SOL', null, 9, 8, 'SOL', 1),
      usdc('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'),
      usdt('Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'),
    ],
  }),
  network({
    name: 'TON_MAINNET',
    display_name: 'Ton',
    type: 'ton',
    chain_id: null,
    node_url: 'https://toncenter.com/api/v2/jsonRPC',
    explorer: 'https://tonscan.org/tx/{0}',
    account: 'https://tonscan.org/address/{0}',
    max_confirmations: 1,
    deposit_seconds: 12.3,
    rank: 12,
    // Wallet-only, as on Layerswap (wallet-deposits.md §1): no deposit address to send to.
    deposit_methods: ['wallet'],
    tokens: [token('TON', null, 9, 4, 'TON', 1), usdt('EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs', 2)],
  }),
  network({
    name: 'TRON_MAINNET',
    display_name: 'Tron',
    type: 'tron',
    chain_id: '728126428',
    node_url: 'https://api.trongrid.io',
    explorer: 'https://tronscan.org/#/transaction/{0}',
    account: 'https://tronscan.org/#/address/{0}',
    max_confirmations: 3,
    deposit_seconds: 57.0,
    rank: 13,
    tokens: [token('TRX', null, 6, 2, 'TRX', 1), usdt('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 2)],
  }),
  network({
    name: 'BITCOIN_MAINNET',
    display_name: 'Bitcoin',
    type: 'bitcoin',
    chain_id: null,
    node_url: 'https://mempool.space/api',
    explorer: 'https://mempool.space/tx/{0}',
    account: 'https://mempool.space/address/{0}',
    max_confirmations: 2,
    deposit_seconds: 1260.0,
    rank: 14,
    tokens: [token('BTC', null, 8, 8, 'BTC', 1)],
  }),
  network({
    name: 'STELLAR_MAINNET',
    display_name: 'Stellar',
    type: 'stellar',
    chain_id: null,
    node_url: 'https://horizon.stellar.org',
    explorer: 'https://stellar.expert/explorer/public/tx/{0}',
    account: 'https://stellar.expert/explorer/public/account/{0}',
    max_confirmations: 1,
    deposit_seconds: 6.0,
    rank: 15,
    // Stellar deposits go to one shared account told apart by the memo (Layerswap PR #2156: G-addresses
    // and memos): the sandbox's deposit actions carry the memo in call_data in both flows.
    // USDC is Circle's, named by its issuing account (a trustline asset).
    tokens: [token('XLM', null, 7, 4, 'XLM', 1), usdc('GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN', 2, 7)],
  }),
];

export const exchangeLogo = (name: string): string => `${LOGO_ROOT}/exchanges/${name.toLowerCase()}.png`;

/**
 * Fixed cost of a route in USD (gas on both sides, by family), taken in the source token. Odd
 * figures on purpose: real fees never come out round (live: 0.439897 USDC SOLANA -> ARBITRUM).
 */
export const PAYOUT_GAS_USD: Readonly<Record<Family, number>> = {
  evm: 0.411873,
  starknet: 0.302919,
  solana: 0.027891,
  ton: 0.153377,
  tron: 1.186442,
  bitcoin: 2.517309,
  stellar: 0.004113,
};

/** Seconds the payout itself takes, by destination family, added to the route's completion time. */
export const PAYOUT_SECONDS: Readonly<Record<Family, number>> = {
  evm: 12.125,
  starknet: 30.5,
  solana: 3.75,
  ton: 8.5,
  tron: 9.25,
  bitcoin: 600.0,
  stellar: 5.5,
};

/** NetworkType values the API accepts in network_types (SPEC enum); unknown ones are a VALIDATION_ERROR. */
export const KNOWN_NETWORK_TYPES: readonly string[] = [
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
  'stellar',
];

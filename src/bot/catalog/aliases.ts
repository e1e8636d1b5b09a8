/**
 * Short names people use for networks, mapped to the stem of Layerswap network names
 * (ARBITRUM for ARBITRUM_MAINNET / ARBITRUM_SEPOLIA). An alias only counts when the catalogue
 * has a network with that stem, so a testnet key resolves "arb" to ARBITRUM_SEPOLIA.
 */
export const NETWORK_ALIASES: Readonly<Record<string, string>> = {
  eth: 'ETHEREUM', ether: 'ETHEREUM', ethereum: 'ETHEREUM', mainnet: 'ETHEREUM', l1: 'ETHEREUM',
  arb: 'ARBITRUM', arbitrum: 'ARBITRUM', arb1: 'ARBITRUM', arbone: 'ARBITRUM',
  nova: 'ARBITRUMNOVA',
  op: 'OPTIMISM', opt: 'OPTIMISM', optimism: 'OPTIMISM',
  base: 'BASE',
  sol: 'SOLANA', solana: 'SOLANA',
  zksync: 'ZKSYNCERA', zk: 'ZKSYNCERA', era: 'ZKSYNCERA', zksyncera: 'ZKSYNCERA',
  zksynclite: 'ZKSYNC',
  starknet: 'STARKNET', stark: 'STARKNET', strk: 'STARKNET', sn: 'STARKNET',
  ton: 'TON',
  tron: 'TRON', trx: 'TRON',
  btc: 'BITCOIN', bitcoin: 'BITCOIN',
  bsc: 'BSC', bnb: 'BSC', binance: 'BSC', bnbchain: 'BSC', bep20: 'BSC',
  polygon: 'POLYGON', matic: 'POLYGON', pol: 'POLYGON',
  linea: 'LINEA',
  scroll: 'SCROLL',
  avax: 'AVAX', avalanche: 'AVAX',
  imx: 'IMMUTABLEZK', immutable: 'IMMUTABLEZK',
  hl: 'HYPERLIQUID', hyperliquid: 'HYPERLIQUID',
  fuel: 'FUEL',
  paradex: 'PARADEX',
  uni: 'UNICHAIN', unichain: 'UNICHAIN',
  monad: 'MONAD',
  blast: 'BLAST',
  mantle: 'MANTLE',
  mode: 'MODE',
  zora: 'ZORA',
  taiko: 'TAIKO',
  gnosis: 'GNOSIS', xdai: 'GNOSIS',
  celo: 'CELO',
  erc20: 'ETHEREUM', trc20: 'TRON',
};

/** ARBITRUM_MAINNET -> ARBITRUM; names without an underscore are their own stem. */
export function networkStem(name: string): string {
  const i = name.lastIndexOf('_');
  return (i > 0 ? name.slice(0, i) : name).toUpperCase();
}

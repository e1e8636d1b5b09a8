/**
 * The sandbox's own vocabulary: the shapes its catalogue and route table are written in.
 * Kept apart from catalog.ts so the catalogue stays data only.
 */

/** Address and transaction formats differ per family; the sandbox knows these seven. */
export type Family = 'evm' | 'starknet' | 'solana' | 'ton' | 'tron' | 'bitcoin' | 'stellar';

export interface CatalogToken {
  readonly symbol: string;
  readonly display_asset: string;
  /** null for a native token (except on Starknet, where ETH is a contract). */
  readonly contract: string | null;
  readonly decimals: number;
  /** Decimal places the service shows and rounds fees to. */
  readonly precision: number;
  /** Same-asset routes connect tokens of one group across networks. */
  readonly group: string;
  readonly listing_date: string;
  readonly source_rank: number;
  readonly destination_rank: number;
  readonly supports_gasless_deposit: boolean;
}

export interface CatalogNetwork {
  readonly name: string;
  readonly display_name: string;
  readonly type: Family;
  readonly chain_id: string | null;
  readonly node_url: string;
  readonly transaction_explorer_template: string;
  readonly account_explorer_template: string;
  readonly deposit_methods: readonly string[];
  readonly listing_date: string;
  readonly evm_oracle_contract: string | null;
  readonly evm_multicall_contract: string | null;
  readonly source_rank: number;
  readonly destination_rank: number;
  /** Confirmations the service waits for on a deposit from this network. */
  readonly max_confirmations: number;
  /** Typical seconds from a deposit on this network to its detection and confirmation. */
  readonly deposit_seconds: number;
  /** The native (gas) token; also listed first in tokens. */
  readonly native: CatalogToken;
  readonly tokens: readonly CatalogToken[];
}

export interface CatalogExchange {
  readonly name: string;
  readonly display_name: string;
  readonly token_groups: readonly { symbol: string; networks: readonly string[] }[];
}

/** One direction of one route: this token on this network to that token on that network. */
export interface Route {
  readonly from: { readonly network: CatalogNetwork; readonly token: CatalogToken };
  readonly to: { readonly network: CatalogNetwork; readonly token: CatalogToken };
  readonly status: 'active' | 'inactive';
  /** Different assets: needs a swap (listed by /destinations only with include_swaps). */
  readonly crossAsset: boolean;
}

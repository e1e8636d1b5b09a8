/**
 * A chain watcher per network family: it watches deposit addresses on the networks it has an RPC
 * for and reports transfers to them and each new chain head. EVM is implemented (evm.ts, viem:
 * one eth_getLogs per network per new block range for every watched address, plus the blocks'
 * transactions for native transfers); Solana (solana/watcher.ts: getBlock per new slot for every
 * watched address, SPL mint in the contract's place); TON (src/chain/ton/: the address's
 * transactions). Each is a reader in the one per-network loop (network-loop.ts), so a new family
 * (Tron, Starknet, Bitcoin) writes only its reader. A family without a watcher keeps the API
 * polling cadence. See docs/architecture.md.
 */

export interface WatchedToken {
  symbol: string;
  /** null: the network's native coin. */
  contract: string | null;
  decimals: number;
}

export interface WatchEntry {
  swapId: string;
  /** The service's network name (the key of CHAIN_RPC_URLS). */
  network: string;
  /** The swap's own deposit address (deposit-address flow only: a shared one would match others' transfers). */
  address: string;
  token: WatchedToken;
  /** Confirmations after which a reported transfer is final (no longer re-checked); 0 or absent: DEFAULT_FINAL_DEPTH. */
  depth?: number;
  /**
   * The comment (memo) the deposit must carry (TON: a shared deposit address, each swap told apart
   * by its comment); absent: the address is the swap's own.
   */
  memo?: string;
  /** The swap's source (sender) address, when the service names it: a transfer from it without the memo is this swap's. */
  from?: string;
}

export interface SeenTransfer {
  network: string;
  to: string;
  txHash: string;
  block: number;
  /** null: native. */
  contract: string | null;
  value: bigint;
  /** The block's time (ms). */
  at: number;
  /** The transfer's comment (memo) where the family has one: null when it carries none. */
  memo?: string | null;
  /** Its sender, as the watcher normalises addresses (TON: workchain:hex). */
  from?: string;
  /** Its memo is one a swap watched at the same address expects (the watcher knows all of them there). */
  memoTaken?: boolean;
}

export interface WatcherEvents {
  /** Whether a transfer found is worth checking and reporting (default: all); noise is left out before any receipt is read. */
  accept?(entry: WatchEntry, t: SeenTransfer): boolean;
  /** A transfer its receipt backs (again, with its new block, after a reorganisation moved it). */
  transfer(entry: WatchEntry, t: SeenTransfer): void;
  /** A reported transfer the chain no longer shows (a reorganisation, or an RPC that cannot back it any more). */
  retract?(entry: WatchEntry, txHash: string): void;
  head(network: string, head: number): void;
  /** The network's RPC stopped (false) or started again (true) answering. */
  health(network: string, up: boolean): void;
}

export interface ChainWatcher {
  readonly family: string;
  /** Whether this watcher has an RPC for the network. */
  covers(network: string): boolean;
  /** Up: its RPC answers (else tracking polls the API at its usual cadence). */
  healthy(network: string): boolean;
  watch(entry: WatchEntry): void;
  unwatch(swapId: string): void;
  /** A node that tells of its new blocks (the sandbox's own): read them now, not at the next poll. */
  poke?(): void;
  /**
   * A driven watcher (its network's job runs it): one tick now, from `scanned` (the last block the
   * network's previous run read, whichever worker ran it); resolves to the wait before the next
   * (ms) and the last block read.
   */
  tickNow?(network: string, scanned?: number): Promise<{ waitMs: number; scanned?: number }>;
  close(): Promise<void>;
}

/** Contracts compared without case: EVM hex in either case; a Solana mint (base58) is reported as listed. */
export function sameContract(a: string | null | undefined, b: string | null | undefined): boolean {
  return (a?.toLowerCase() ?? null) === (b?.toLowerCase() ?? null);
}

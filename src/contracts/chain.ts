import type { SwapData } from './swap.js';

/**
 * What a chain watcher saw arrive at a swap's deposit address, as tracking stores it and the
 * status card shows it. The swap service stays the authority on the swap's status: this is what
 * the chain shows, beside it.
 */
/**
 * 'retracted': a transfer the chain showed, then no longer did (a reorganisation, a faulty RPC): never the deposit.
 * 'no_memo': a transfer to a shared deposit address (TON) without the swap's comment, or with another: never matched to the swap.
 */
export type SightingVerdict = 'ok' | 'wrong_token' | 'less' | 'more' | 'late' | 'retracted' | 'no_memo';

export interface ChainSighting {
  /** The source network's display name. */
  network: string;
  txHash: string;
  block: number;
  symbol: string;
  /** Decimal text of what arrived ("100", "0.05"). */
  amount: string;
  /** Counted from the chain head (head - block + 1). */
  confirmations: number;
  /** The service's required count for the network (max_confirmations); 0 while not known. */
  required: number;
  verdict: SightingVerdict;
  /** What the swap expects, for a wrong deposit. */
  expected?: { symbol: string; amount: string };
}

/** The sighting stored with the card data (tracking annotates the details it stores). */
export function sightingOf(details: SwapData): ChainSighting | undefined {
  const s = (details as { chain?: unknown }).chain;
  return s && typeof s === 'object' && typeof (s as ChainSighting).txHash === 'string' ? (s as ChainSighting) : undefined;
}

/** A stored sighting (JSON) of a transfer the swap cannot take (another token, after it closed, without its memo) that `before` did not show. */
export function newWrongTransfer(before: string | undefined, now: string): boolean {
  const s = JSON.parse(now) as ChainSighting;
  if (s.verdict !== 'wrong_token' && s.verdict !== 'late' && s.verdict !== 'no_memo') return false;
  if (!before) return true;
  const b = JSON.parse(before) as ChainSighting;
  // The same transfer first shown as the deposit, now late (the swap closed without it): news too.
  return b.txHash !== s.txHash || b.verdict !== s.verdict;
}

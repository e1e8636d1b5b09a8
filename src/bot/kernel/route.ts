/**
 * A swap's route as every part carries it (drafts, quote buttons, history): names, not objects.
 * Setting its fields from typed words, checking it and quoting it are the quote feature's
 * (quote/route.ts, quote/route-check.ts); here is only its shape, so the stores can name it.
 */

/** A route as far as it is known: what a draft and the quote buttons carry. Names, not objects. */
export interface Route {
  /** Canonical decimal text ("100", "0.5"). */
  amount?: string;
  sourceNetwork?: string;
  sourceToken?: string;
  destinationNetwork?: string;
  destinationToken?: string;
  /** A token typed before its network was known; checked once the network is set. */
  pendingSourceToken?: string;
  pendingDestinationToken?: string;
  /**
   * An exchange on either side (its API name, e.g. COINBASE): the network of that side is the one
   * the exchange withdraws on (source) or takes the deposit on (destination).
   */
  sourceExchange?: string;
  destinationExchange?: string;
  /** An address typed on the command line, checked once the destination network is known. */
  pendingDestinationAddress?: string;
}

export type RouteField = 'source_network' | 'source_token' | 'destination_network' | 'destination_token' | 'amount';

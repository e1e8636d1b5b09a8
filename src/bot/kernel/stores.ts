import type { ChatKind, Platform } from '../../contracts/incoming.js';
import type { Route, RouteField } from './route.js';

/**
 * The core's stores as the context names them: what a handler may keep between messages. The
 * Redis implementations live with their features (swap/drafts.ts, history/store.ts,
 * addresses/book.ts, follow/lookup/asks.ts) and are wired in create-core.ts only.
 */

/** The step a draft waits on: a route field or one of the swap's own questions. */
export type Step = RouteField | 'destination_address' | 'refund_address' | 'refuel' | 'confirm';

/**
 * A /swap (or step-by-step /quote) in progress. Lives in Redis with a TTL, keyed by platform and
 * user, so any process can continue it and a restart loses nothing. One per user.
 */
export interface Draft {
  /** Short random id carried by the draft's buttons: a stale button names an older draft. */
  id: string;
  kind: 'quote' | 'swap';
  platform: Platform;
  userId: string;
  /** The chat the draft is answered in (text answers from other chats are not taken). */
  chatId: string;
  chatKind: ChatKind;
  route: Route;
  destinationAddress?: string;
  refundAddress?: string;
  /** The user chose to skip the refund address (no automatic refund). */
  refundSkipped?: boolean;
  /** Refuel answer; undefined while not asked (or not offered). */
  refuel?: boolean;
  /** "Pay without gas" chosen at the confirm step: a gasless swap, paid by a signature on the pay page. */
  gasless?: boolean;
  /** "Pay from my wallet" chosen at the confirm step (Solana): created without a deposit address, paid on the pay page. */
  wallet?: boolean;
  /** The route and refuel (routeKey) that last got a quote: the service accepted them. */
  checked?: string;
  /** What that quote said arrives, and the destination address it was asked with (none: ''): the confirmation says when the address changed it. */
  quoted?: { receive: number; address: string };
  /** What the last question asked, so a typed answer lands in the right field. */
  awaiting?: Step;
  createdAt: number;
}

/** The swap a confirmed draft created and who created it. */
export interface CreatedByDraft {
  swapId: string;
  platform: Platform;
  userId: string;
}

/** Drafts, one per user, with the claims that make Confirm and the deposit card happen once. */
export interface DraftStore {
  get(platform: Platform, userId: string): Promise<Draft | undefined>;
  save(draft: Draft): Promise<void>;
  /** True when there was a draft to delete. */
  delete(platform: Platform, userId: string): Promise<boolean>;
  /** A short lock on a draft id (one Confirm at a time); true when taken. */
  lock(draftId: string, seconds?: number): Promise<boolean>;
  unlock(draftId: string): Promise<void>;
  markCreated(draftId: string, created: CreatedByDraft): Promise<void>;
  createdSwap(draftId: string): Promise<CreatedByDraft | undefined>;
  /** True for the first claim of a swap's deposit card in a chat (or the one after a claim whose sender died). */
  claimDepositCard(swapId: string, platform: Platform, chatId: string): Promise<boolean>;
  /** The claimed card reached the chat (the adapter said so). */
  depositCardDelivered?(swapId: string, platform: Platform, chatId: string): Promise<void>;
}

/** One swap a user created through the bot. */
export interface HistoryEntry {
  swapId: string;
  createdAt: number;
  /** "100 USDC on Arbitrum One → USDC on Base", in the language of the chat that created it. */
  summary: string;
  /** The route itself, so /history words it in the reader's language (entries before it: summary). */
  route?: Route;
  /** The refund address given at creation, null when skipped (the service's answer does not say). */
  refund?: string | null;
}

/** The swaps a user created, newest first, and the addresses they used. */
export interface HistoryStore {
  add(platform: Platform, userId: string, entry: HistoryEntry): Promise<void>;
  page(platform: Platform, userId: string, page: number, size: number): Promise<{ entries: HistoryEntry[]; total: number }>;
  addAddresses(platform: Platform, userId: string, addresses: ReadonlyArray<string | undefined>): Promise<void>;
  addresses(platform: Platform, userId: string): Promise<string[]>;
  all(platform: Platform, userId: string): Promise<HistoryEntry[]>;
  /** This user's entry of that swap (undefined: not made by them through the bot, or long gone). */
  entry(platform: Platform, userId: string, swapId: string): Promise<HistoryEntry | undefined>;
}

/** A saved destination address (private things: shown only in the user's private chat). */
export interface SavedAddress {
  /** Short random id, carried by buttons (the address never is). */
  id: string;
  address: string;
  family: string;
  label?: string;
  usedAt: number;
  /** New swaps to or from it are followed in the user's private chat (tracking/address-watch.ts). */
  watched?: boolean;
}

/** Saved destination addresses, per user. */
export interface AddressBook {
  list(platform: Platform, userId: string): Promise<SavedAddress[]>;
  remember(platform: Platform, userId: string, family: string, address: string, now: number): Promise<void>;
  rename(platform: Platform, userId: string, id: string, label: string): Promise<boolean>;
  setWatched(platform: Platform, userId: string, id: string, on: boolean): Promise<boolean>;
  remove(platform: Platform, userId: string, id: string): Promise<boolean>;
}

/**
 * A free-text question the lookup buttons asked ("your deposit transaction hash", "a hash or an
 * address"), so the next plain message of that user in that chat answers it. One per user, short
 * lived; any command or other button clears it, so a stale question never swallows a wizard answer.
 */
export type Ask = { kind: 'sent'; swapId: string; chatId: string } | { kind: 'where'; chatId: string };

/** The one open free-text question per user. */
export interface AskStore {
  set(platform: Platform, userId: string, ask: Ask): Promise<void>;
  get(platform: Platform, userId: string): Promise<Ask | undefined>;
  clear(platform: Platform, userId: string): Promise<void>;
}

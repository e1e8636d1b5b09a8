import type { SwapData } from './swap.js';
import type { ChatTarget, MessageRef, Platform } from './incoming.js';
import type { Reply } from './reply.js';
import type { Locale } from './locale.js';

/**
 * What the command core asks of tracking (/track, /untrack, /tracking, and the creator's private
 * chat following a new swap). Implemented on Redis + BullMQ in this folder.
 */
export type FollowResult = { ok: true; alreadyFollowing: boolean } | { ok: false; reason: 'chat_limit' | 'user_limit'; limit: number };

/**
 * Who starts a follow. `creator`: the swap was just created by this user and their deposit card is
 * on its way (their first status card waits for it; the per-user cap does not refuse it). `own`:
 * the follower is the swap's creator in their own private chat (creator implies it), the only
 * reader whose pushed cards show the destination and amounts in full (Audience).
 */
export interface FollowBy {
  userId: string;
  creator?: boolean;
  own?: boolean;
  locale?: Locale;
}

/**
 * Who reads what tracking pushes to a chat: 'private' only for the swap's creator in their own
 * private chat; anyone else, a stranger's private chat included, reads it masked as a group does.
 */
export type Audience = 'private' | 'public';

export interface FollowedSwap {
  swapId: string;
  /** Last status seen by the poller; undefined until its first poll. */
  status?: string;
  /** When this chat started following (ms since epoch). */
  since: number;
}

export interface TrackingService {
  /** Follows a swap in a chat and makes sure exactly one poll job exists for it. Idempotent. */
  /**
   * `by.locale` is the language the chat is answered in when it follows (a group's, never the
   * presser's): pushed updates use it until the chat or user saves one with /language.
   */
  follow(swapId: string, target: ChatTarget, by: FollowBy): Promise<FollowResult>;
  /**
   * The creation record of a swap the user just created, written before anything else about it:
   * their follow (`by.creator`) is then done even if Redis restarts or the process dies before
   * follow() completes (repaired at the next start or reconcile). follow() clears it.
   */
  created?(swapId: string, target: ChatTarget, by: FollowBy): Promise<void>;
  /**
   * Polls the swap at once, as a webhook hint does: the user says the deposit is on its way ("I've
   * sent it"), and no webhook announces a deposit that is only seen. Nothing when nobody follows it.
   */
  pollNow(swapId: string): Promise<void>;
  /**
   * The creator's deposit card of this swap is `ref` in this (private) chat: kept with the chat's
   * delivery record, edited by tracking as the swap moves on (never sent again), and the chat's
   * status card is sent below it now rather than at the first change. Nothing when not following.
   */
  depositCardSent?(swapId: string, target: ChatTarget, ref: MessageRef): Promise<void>;
  /**
   * Whether this chat has a live status card of this swap (sent, or about to be: tracking has
   * it to send), so words may point at it. Undefined where tracking cannot tell.
   */
  hasCard?(swapId: string, target: ChatTarget): Promise<boolean>;
  /** Stops following; returns false when the chat was not following it. */
  unfollow(swapId: string, target: ChatTarget): Promise<boolean>;
  /**
   * Whether tracking saw this swap's deposit: a card drawn outside tracking (a pressed Mute or
   * Stop) then never asks for it again, as tracking's own cards do not (CardView.depositSeen).
   */
  depositSeen?(swapId: string): Promise<boolean>;
  /** Records what the creator told the bot (merged with what it said before); "I've sent it" redraws the swap's cards. */
  note?(swapId: string, notes: CreatorNotes): Promise<void>;
  /** What the creator told the bot of this swap (empty when nothing, or the swap is not tracked). */
  notes?(swapId: string): Promise<CreatorNotes>;
  /** What this chat follows, newest first. */
  listFollowed(target: ChatTarget): Promise<FollowedSwap[]>;
  /**
   * Mutes (or unmutes) one followed swap in one chat: its card keeps updating, silently, and no
   * key-moment message is sent. Returns false when the chat does not follow it.
   */
  mute(swapId: string, target: ChatTarget, muted: boolean): Promise<boolean>;
  /** Whether this chat muted this swap (undefined: not following). */
  isMuted(swapId: string, target: ChatTarget): Promise<boolean | undefined>;
  /**
   * The chat now lives under another id (a Telegram group upgraded to a supergroup): its follows,
   * settings and language move there, and each followed swap's card is sent there. Returns how
   * many swaps moved. Idempotent.
   */
  moveChat?(platform: ChatTarget['platform'], fromChatId: string, toChatId: string): Promise<number>;
  /**
   * A private chat back after blocking the bot: the swaps it stopped following meanwhile, once
   * (the next call gives none), with their last status.
   */
  droppedWhileAway?(target: ChatTarget): Promise<FollowedSwap[]>;
  /**
   * The Redis key droppedWhileAway reads for this chat: while it does not exist there is nothing to
   * tell, so the core checks it in its first round trip and skips the call (bot/kernel/admission.ts).
   * Undefined: no key to check (the core then calls droppedWhileAway).
   */
  awayRecordKey?(target: Pick<ChatTarget, 'platform' | 'chatId'>): string | undefined;
  /** Follows again every swap dropped while away (Follow again); returns how many are followed. */
  followAgain?(target: ChatTarget, by: { userId: string; locale?: Locale; own?: (swapId: string) => Promise<boolean> }): Promise<number>;
  /**
   * Watches (on) or stops watching (off) an address for a user: new swaps to or from it, made in
   * any app, are followed in their private chat `target`. Absent: watching is not offered.
   */
  watchAddress?(address: string, target: ChatTarget, by: { userId: string; locale?: Locale }, on: boolean): Promise<void>;
  /** The chat's notification settings (defaults when never set). */
  settings(target: ChatTarget): Promise<ChatSettings>;
  saveSettings(target: ChatTarget, settings: ChatSettings): Promise<void>;
}

/**
 * What a chat chose about its notifications (/settings): a private user for themselves, a group's
 * or channel's admins for its feed. Stored beside the chat's subscriptions; read by every notify job.
 */
export interface ChatSettings {
  /** The key moments that send a message; the others only edit the card. */
  moments: MomentKind[];
  /**
   * Confirmations and other minor changes edit the card (true, the default), or the card waits
   * for the next change of status (false).
   */
  minorEdits: boolean;
  /** Hours (0-23, in `tz`) during which messages are sent without sound; from === to: none. */
  quiet?: { from: number; to: number; tz: string };
  /** Groups and channels: swaps worth less than this (USD) are followed with the card only. */
  minUsd?: number;
  /** Groups and channels: a completed swap gets a ✅ reaction on its card instead of a message. */
  reactOnly?: boolean;
  /** Groups and channels: cards and messages leave out amounts. */
  hideAmounts?: boolean;
  /** Telegram forums: the topic (message_thread_id) cards go to, instead of where /track was used. */
  topic?: string;
}

/** How a chat sees one followed swap's card: the Mute button's state, amounts shown or not. */
/**
 * The swap's creator said "I've sent it" (with the deposit transaction's hash when given): evidence
 * of a deposit like the service's or the chain's, so no card asks for the money again.
 */
export interface DepositClaim {
  at: number;
  hash?: string;
}

/** What the swap's creator told the bot, which the service's answer does not carry. */
export interface CreatorNotes {
  /** The refund address given at creation, null when skipped. */
  refund?: string | null;
  /** "I've sent it". */
  claim?: DepositClaim;
}

export interface CardView {
  /** What the creator told the bot (TrackingService.note): a refund address or none, "I've sent it". */
  notes?: CreatorNotes;
  muted?: boolean;
  hideAmounts?: boolean;
  /**
   * Tracking saw this swap's deposit before: if the service now says it waits for one (a
   * regression it confirmed), the card must not ask for the money again.
   */
  depositSeen?: boolean;
  /** The route's observed times (at least 5 swaps behind them): the expected time is their p50 and p90. */
  routeTimes?: { p50Ms: number; p90Ms: number; count: number };
  /** Past the route's p90 while funds move: "slower than usual on this route". */
  slower?: boolean;
}

/** The key moments of a swap that get a message of their own (edits of the status card notify nobody). */
/** `wrong_deposit`: money reached the swap that it cannot take (another token, or after it closed); last, so stored masks keep their bits. */
export const MOMENT_KINDS = [
  'deposit_seen',
  'completed',
  'failed',
  'expired',
  'cancelled',
  'pending_refund',
  'refunded',
  'stuck',
  'wrong_deposit',
] as const;
export type MomentKind = (typeof MOMENT_KINDS)[number];

export interface Moment {
  kind: MomentKind;
  /** The state version that carried it. */
  version: number;
  at: number;
}

/** What the poller observed over time, for messages that speak of durations ("stuck"). */
export interface TrackedTimes {
  /** Each status as first observed, with the poller's time (ms). */
  history: ReadonlyArray<{ status: string; at: number }>;
  lastPolledAt: number;
  lastChangeAt: number;
  /** From quote.avg_completion_time. */
  expectedCompletionMs?: number;
  /** When tracking first saw the deposit (the service may have gone back since). */
  depositSeenAt?: number;
}

/** When the swap last entered `status` (ms), from the history. */
export function lastEntered(history: TrackedTimes['history'], status: string): number | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const h = history[i];
    if (h && h.status === status) return h.at;
  }
  return undefined;
}

/** When a swap gives no expected completion time, it counts as stuck after a factor of this. */
export const DEFAULT_EXPECTED_COMPLETION_MS = 5 * 60_000;

/** Why tracking stopped before a final status (the chats that followed are told). */
export type StopReason = 'not_found';

/** How long the swap service must keep answering "not found" before polling stops. */
export const NOT_FOUND_GIVE_UP_MS = 30 * 60_000;

/**
 * What tracking sends, rendered by the core and fitted to platform limits like every other Reply:
 * the status card (edited in place), key-moment messages, and the notice that tracking stopped,
 * each in the chat's language (`locale`: see the notify job for how it is chosen).
 * Public chats (group, channel), and anyone but the creator, get masked addresses and never deposit details.
 */
export interface TrackingRenderer<Details extends SwapData = SwapData> {
  /** `view` is given for a followed swap: the card then carries Mute and Stop. */
  card(details: Details, target: ChatTarget, view: CardView | undefined, locale: Locale, audience: Audience): Reply;
  moment(
    moment: Moment,
    ctx: { details: Details; state: TrackedTimes; target: ChatTarget; locale: Locale; audience: Audience; notes?: CreatorNotes },
  ): Reply;
  stopped(reason: StopReason, swapId: string, locale: Locale): Reply;
  /**
   * The creator's deposit card once the swap no longer waits for a deposit (seen, confirmed,
   * completed, expired, refunded), edited in place over the card that gave the address; undefined
   * while it still waits (the original card stands). Optional: a renderer without it leaves the card.
   */
  depositCard?(details: Details, locale: Locale, notes?: CreatorNotes): Reply | undefined;
  /** Told once to a watched address's user when its new swaps hit the follow limit (tracking/address-watch.ts). */
  watchLimit?(notice: WatchLimitNotice, locale: Locale): Reply;
}

/** New swaps of a watched address that could not be followed: the chat or user is at its limit. */
export interface WatchLimitNotice {
  address: string;
  reason: 'chat_limit' | 'user_limit';
  limit: number;
  /** The swaps not followed this time (newest first). */
  swapIds: string[];
}

/** A chat that never chose: every key moment, minor edits, no quiet hours, no minimum. */
export const DEFAULT_SETTINGS: Readonly<ChatSettings> = { moments: [...MOMENT_KINDS], minorEdits: true };

/**
 * The languages people and chats chose with /language, as tracking reads them (each notify job:
 * the chat's language) and moves them (a group upgraded to a supergroup). The choices are the
 * core's (`i18n/store.ts` LanguageStore implements this); tracking is handed them and never reads
 * the core's keys itself. 'user' is a private chat's person, 'chat' a group's or channel's own.
 */
export interface ChatLanguages {
  get(scope: 'user' | 'chat', platform: Platform, id: string): Promise<Locale | undefined>;
  move(scope: 'user' | 'chat', platform: Platform, fromId: string, toId: string): Promise<void>;
}

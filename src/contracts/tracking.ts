import type { SwapDetails } from '../layerswap/schemas.js';
import type { ChatTarget } from './incoming.js';
import type { Reply } from './reply.js';

/**
 * What the command core asks of tracking (/track, /untrack, /tracking, and the creator's private
 * chat following a new swap). Implemented on Redis + BullMQ in this folder.
 */
export type FollowResult =
  | { ok: true; alreadyFollowing: boolean }
  | { ok: false; reason: 'chat_limit' | 'user_limit'; limit: number };

export interface FollowedSwap {
  swapId: string;
  /** Last status seen by the poller; undefined until its first poll. */
  status?: string;
  /** When this chat started following (ms since epoch). */
  since: number;
}

export interface TrackingService {
  /** Follows a swap in a chat and makes sure exactly one poll job exists for it. Idempotent. */
  follow(swapId: string, target: ChatTarget, by: { userId: string; creator?: boolean }): Promise<FollowResult>;
  /** Stops following; returns false when the chat was not following it. */
  unfollow(swapId: string, target: ChatTarget): Promise<boolean>;
  /** What this chat follows, newest first. */
  listFollowed(target: ChatTarget): Promise<FollowedSwap[]>;
}

/** The key moments of a swap that get a message of their own (edits of the status card notify nobody). */
export const MOMENT_KINDS = ['deposit_seen', 'completed', 'failed', 'expired', 'cancelled', 'pending_refund', 'refunded', 'stuck'] as const;
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
 * the status card (edited in place), key-moment messages, and the notice that tracking stopped.
 * Public chats (group, channel) get masked addresses and never deposit details.
 */
export interface TrackingRenderer {
  card(details: SwapDetails, target: ChatTarget): Reply;
  moment(moment: Moment, ctx: { details: SwapDetails; state: TrackedTimes; target: ChatTarget }): Reply;
  stopped(reason: StopReason, swapId: string): Reply;
}

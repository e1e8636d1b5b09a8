import type { ChatTarget } from './incoming.js';

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

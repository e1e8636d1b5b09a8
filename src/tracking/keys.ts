import type { ChatTarget, Platform } from '../contracts/incoming.js';

/**
 * Every Redis key and BullMQ id the tracking engine uses, in one place. All keys live under the
 * configured prefix; BullMQ's own keys under `${prefix}:bull`.
 */

/** "telegram:-100123": a chat, unique across platforms. */
export function targetKey(t: Pick<ChatTarget, 'platform' | 'chatId'>): string {
  return `${t.platform}:${t.chatId}`;
}

export class TrackingKeys {
  constructor(readonly prefix: string) {}
  /** BullMQ's key prefix (its queue names must not contain ':'). */
  get bull(): string {
    return `${this.prefix}:bull`;
  }
  /** hash targetKey -> Follower JSON: who follows this swap. */
  followers(swapId: string): string {
    return `${this.prefix}:trk:swap:${swapId}:followers`;
  }
  /** string: the last stored SwapSnapshot JSON (what the poller saw). */
  state(swapId: string): string {
    return `${this.prefix}:trk:swap:${swapId}:state`;
  }
  /** string: the last SwapDetails JSON, rendered into cards. */
  details(swapId: string): string {
    return `${this.prefix}:trk:swap:${swapId}:details`;
  }
  /** list of Moment JSON, append-only, in the order they happened. */
  moments(swapId: string): string {
    return `${this.prefix}:trk:swap:${swapId}:moments`;
  }
  /** hash targetKey -> Delivery JSON (card ref, delivered version and moments). */
  deliveries(swapId: string): string {
    return `${this.prefix}:trk:swap:${swapId}:deliveries`;
  }
  /** string with a short TTL: a webhook hinted a change while the poll job was busy. */
  hint(swapId: string): string {
    return `${this.prefix}:trk:swap:${swapId}:hint`;
  }
  /** zset swapId -> since: everything a chat follows (listing). */
  chatSwaps(tk: string): string {
    return `${this.chatPrefix}${tk}:swaps`;
  }
  /** set of swapIds a chat follows that are not final yet (the per-chat cap). */
  chatActive(tk: string): string {
    return `${this.chatPrefix}${tk}:active`;
  }
  /** set of "swapId|targetKey" the user started following, not final yet (the per-user cap). */
  userActive(platform: Platform, userId: string): string {
    return `${this.userPrefix}${platform}:${userId}:active`;
  }
  /** For Lua scripts that build chat and user keys from stored followers. */
  get chatPrefix(): string {
    return `${this.prefix}:trk:chat:`;
  }
  get userPrefix(): string {
    return `${this.prefix}:trk:user:`;
  }
  /** set of swapIds with at least one follower and no final status: reconciled into poll jobs. */
  get activeSwaps(): string {
    return `${this.prefix}:trk:active-swaps`;
  }
  /** Consecutive failed API polls (all swaps): drives the outage back-off. */
  get outage(): string {
    return `${this.prefix}:trk:outage`;
  }
  /** zset of send times for one chat (per-group pacing on Telegram). */
  pace(tk: string): string {
    return `${this.prefix}:trk:pace:${tk}`;
  }
  /** string with TTL: the platform asked to wait before writing to this chat again (a per-chat 429). */
  chatHold(tk: string): string {
    return `${this.prefix}:trk:hold:${tk}`;
  }
  /** string: why polling stopped early (not_found), for the notice to the chats that followed. */
  stopped(swapId: string): string {
    return `${this.prefix}:trk:swap:${swapId}:stopped`;
  }
  /** string with TTL: a webhook message id already accepted. */
  webhookSeen(id: string): string {
    return `${this.prefix}:trk:webhook:${id}`;
  }
}

export const POLL_QUEUE = 'poll';
export const notifyQueueName = (platform: Platform): string => `notify-${platform}`;

/** BullMQ job ids cannot contain ':' nor be all digits; a UUID is neither. */
export function pollJobId(swapId: string): string {
  return `swap-${swapId}`;
}

/** One deduplication id per chat and swap: a chat that is behind gets one job, the newest card. */
export function notifyDedupId(tk: string, swapId: string): string {
  return `n-${Buffer.from(tk).toString('base64url')}-${swapId}`;
}

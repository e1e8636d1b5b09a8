import { keyPart } from '../contracts/keys.js';
import type { ChatTarget, Platform } from '../contracts/incoming.js';

/**
 * Every Redis key and BullMQ id the tracking engine uses, in one place. All keys live under the
 * configured prefix; BullMQ's own keys under `bull`. Each key carries a hash tag ({...}) naming
 * what it belongs to (a swap, a chat, a user, a platform), and every script touches keys of one
 * tag only, so the engine runs unchanged on Redis Cluster.
 */

/** "telegram:-100123": a chat, unique across platforms (the id escaped: it may be any text). */
export function targetKey(t: Pick<ChatTarget, 'platform' | 'chatId'>): string {
  return `${t.platform}:${keyPart(t.chatId)}`;
}

/** The chat a targetKey names. */
export function parseTargetKey(tk: string): { platform: Platform; chatId: string } | undefined {
  const i = tk.indexOf(':');
  const platform = tk.slice(0, i);
  if (i < 0 || !(platform === 'telegram' || platform === 'discord' || platform === 'console')) return undefined;
  try {
    return { platform, chatId: decodeURIComponent(tk.slice(i + 1)) };
  } catch {
    return undefined;
  }
}

export class TrackingKeys {
  constructor(readonly prefix: string) {}
  /** BullMQ's key prefix: one hash tag for all queues (its queue names must not contain ':'). */
  get bull(): string {
    return `${this.prefix}:{bull}`;
  }
  /**
   * hash: everything about one followed swap (swap-store.ts lists the fields): state, card data,
   * key moments, and per chat its follower entry and delivery record.
   */
  swap(swapId: string): string {
    return `${this.prefix}:trk:{${swapId}}`;
  }
  /**
   * hash: one party of a conversation, a chat or a user, named by its targetKey (a user's is the
   * key of their private chat, so a private chat and its user share one hash):
   * `s:<swapId>` -> since, for every swap the chat follows (listing); `c` -> swaps the chat follows
   * that are not final yet (the per-chat cap); `u` -> follows the user started, in any chat, of
   * swaps not final yet (the per-user cap).
   */
  party(tk: string): string {
    return `${this.prefix}:trk:party:{${tk}}`;
  }
  /**
   * string (JSON) with TTL: the swaps a private chat stopped following because its user blocked
   * the bot, and whether they were told on their return (chat-moves.ts).
   */
  away(tk: string): string {
    return `${this.prefix}:trk:away:{${tk}}`;
  }
  /** set of swapIds with at least one follower and no final status: reconciled into poll jobs. */
  get activeSwaps(): string {
    return `${this.prefix}:trk:active-swaps`;
  }
  /** zset: watched addresses (`<targetKey>|<address>`) by the time of their next check (address-watch.ts). */
  get watchDue(): string {
    return `${this.prefix}:trk:watch-due`;
  }
  /** hash: each watched address's state (its user, interval and the swaps already seen), by the same member. */
  get watchState(): string {
    return `${this.prefix}:trk:watch-state`;
  }
  /** zset: swaps that expired (score: when), watched a while longer to tell a late transfer (chain-watch.ts). */
  get chainLate(): string {
    return `${this.prefix}:trk:chain-late`;
  }
  /** Consecutive failed API polls (all swaps): drives the outage back-off. */
  get outage(): string {
    return `${this.prefix}:trk:outage`;
  }
  /** zset of send times for one chat (per-group pacing on Telegram). */
  pace(tk: string): string {
    return `${this.prefix}:trk:chat:{${tk}}:pace`;
  }
  /** zset of send times for a whole platform. */
  platformPace(platform: Platform): string {
    return `${this.prefix}:trk:platform:{${platform}}:pace`;
  }
  /** string with TTL: the platform asked to wait before writing to this chat again (a per-chat 429). */
  chatHold(tk: string): string {
    return `${this.prefix}:trk:chat:{${tk}}:hold`;
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

/** The swap a poll job follows: its id says it (the job carries no data of its own). */
export function swapOfPollJob(jobId: string | undefined): string | undefined {
  return jobId?.startsWith('swap-') ? jobId.slice(5) : undefined;
}

/** One deduplication id per chat and swap: a chat that is behind gets one job, the newest card. */
export function notifyDedupId(tk: string, swapId: string): string {
  return `n-${Buffer.from(tk).toString('base64url')}-${swapId}`;
}

import type { Platform } from './incoming.js';

/**
 * How an id from outside (a user or chat id, a platform's update id) becomes part of a Redis key,
 * the same way in every area: percent-encoded, so no id can add a ':' separator or a '{' hash tag
 * of its own (Redis Cluster places a key by the text between its first '{' and '}').
 */
export function keyPart(id: string): string {
  return encodeURIComponent(id);
}

/**
 * Every Redis key of the core, in one place, under the deployment's prefix (beside TrackingKeys,
 * tracking/keys.ts; here, in the neutral contracts, since tracking reads the language keys too).
 * Ids from outside are escaped with keyPart. Each is used by single-key commands
 * only, so no key needs a hash tag on Redis Cluster.
 */
export class CoreKeys {
  constructor(readonly prefix: string) {}
  /** A user's unfinished /swap. */
  draft(platform: Platform, userId: string): string {
    return this.user('draft', platform, userId);
  }
  /** Held while a draft creates its swap (Confirm exactly once). */
  draftLock(draftId: string): string {
    return `${this.prefix}:draft-lock:${keyPart(draftId)}`;
  }
  /** The swap a draft created. */
  draftDone(draftId: string): string {
    return `${this.prefix}:draft-done:${keyPart(draftId)}`;
  }
  /** Claimed by the one Confirm press that sends a swap's deposit card to a chat (once per swap and chat). */
  depositCard(swapId: string, platform: Platform, chatId: string): string {
    return `${this.prefix}:dep-card:${platform}:${keyPart(chatId)}:${keyPart(swapId)}`;
  }
  /** A user's command rate window. */
  rate(platform: Platform, userId: string): string {
    return this.user('rate', platform, userId);
  }
  /** A question the bot asked a user and awaits an answer to. */
  ask(platform: Platform, userId: string): string {
    return this.user('ask', platform, userId);
  }
  /** The swaps a user created. */
  history(platform: Platform, userId: string): string {
    return this.user('history', platform, userId);
  }
  /** The destination addresses a user saved (bot/addresses/book.ts). */
  addressBook(platform: Platform, userId: string): string {
    return this.user('addr-book', platform, userId);
  }
  /**
   * The language a user chose with /language (scope 'user'), or admins chose for a group or
   * channel (scope 'chat'): read by the core for replies and by tracking for pushed updates.
   */
  language(scope: 'user' | 'chat', platform: Platform, id: string): string {
    return `${this.prefix}:lang:${scope}:${platform}:${keyPart(id)}`;
  }
  private user(kind: string, platform: Platform, userId: string): string {
    return `${this.prefix}:${kind}:${platform}:${keyPart(userId)}`;
  }
}

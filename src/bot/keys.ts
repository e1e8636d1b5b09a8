import { keyPart } from '../contracts/keys.js';
import type { Platform } from '../contracts/incoming.js';

/**
 * Every Redis key of the core, in one place, under the deployment's prefix. Ids from outside are
 * escaped the same way as everywhere (contracts/keys.ts). Each is used by single-key commands
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
  private user(kind: string, platform: Platform, userId: string): string {
    return `${this.prefix}:${kind}:${platform}:${keyPart(userId)}`;
  }
}

import type { Platform } from '../contracts/incoming.js';

/** Redis keys of the core, all under the deployment's prefix. User ids are escaped. */
export function userKey(prefix: string, kind: string, platform: Platform, userId: string): string {
  return `${prefix}:${kind}:${platform}:${encodeURIComponent(userId)}`;
}

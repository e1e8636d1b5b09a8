import { keyPart } from '../contracts/keys.js';
import { isPlatform, type ChatTarget, type Platform } from '../contracts/incoming.js';

/**
 * The tracking engine's names that are not Redis keys: a chat's targetKey (a hash field and key
 * part), BullMQ queue names and job ids. Its Redis keys are TrackingKeys, in the one key registry
 * (contracts/keys.ts).
 */

/** "telegram:-100123": a chat, unique across platforms (the id escaped: it may be any text). */
export function targetKey(t: Pick<ChatTarget, 'platform' | 'chatId'>): string {
  return `${t.platform}:${keyPart(t.chatId)}`;
}

/** The chat a targetKey names. */
export function parseTargetKey(tk: string): { platform: Platform; chatId: string } | undefined {
  const i = tk.indexOf(':');
  const platform = tk.slice(0, i);
  if (i < 0 || !isPlatform(platform)) return undefined;
  try {
    return { platform, chatId: decodeURIComponent(tk.slice(i + 1)) };
  } catch {
    return undefined;
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

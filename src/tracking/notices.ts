import { code, line, type Reply } from '../contracts/reply.js';
import type { StopReason } from './state-store.js';

/**
 * What a chat is told when tracking stops before the swap reached a final status. Nothing here
 * depends on the swap's data (there may be none: a swap the service never found), so it is the
 * same text in private and public chats and shows no deposit details.
 */

export const STOPPED_TITLE = 'Tracking stopped';

/** How long the swap service must keep answering "not found" before polling stops (with NOT_FOUND_MIN_POLLS). */
export const NOT_FOUND_GIVE_UP_MS = 30 * 60_000;

export function renderTrackingStopped(reason: StopReason, swapId: string): Reply {
  const why: Record<StopReason, string> = {
    not_found: `The swap service has not found this swap for over ${Math.round(NOT_FOUND_GIVE_UP_MS / 60_000)} minutes, so updates stopped.`,
  };
  return {
    title: STOPPED_TITLE,
    tone: 'warning',
    lines: [
      line('No more updates for swap ', code(swapId), '.'),
      line(why[reason]),
      line('If you sent funds for it, contact Layerswap support with this swap id. ', code(`/status ${swapId}`), ' shows its status if it appears later.'),
    ],
    target: 'here',
  };
}

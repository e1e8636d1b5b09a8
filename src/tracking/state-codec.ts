import type { SwapState } from './observe.js';

/**
 * The stored form of a SwapState: JSON whose first member is lastPolledAt, padded with spaces
 * to a fixed width, so a poll that changes nothing overwrites just those bytes in place
 * (SETRANGE) instead of rewriting the state. It stays plain JSON for every reader. A state
 * stored without the slot (an older format, or a time too wide for it) is still read; the
 * poller rewrites it whole at its next poll.
 */

export const POLLED_HEAD = '{"lastPolledAt":';
const POLLED_WIDTH = 16;

/** The padded poll time for the slot; undefined when it does not fit (never for ms since 1970). */
export function polledSlot(ms: number): string | undefined {
  const t = JSON.stringify(ms);
  return Number.isFinite(ms) && t.length <= POLLED_WIDTH ? t.padStart(POLLED_WIDTH, ' ') : undefined;
}

export function encodeState(state: SwapState): string {
  const { lastPolledAt, ...rest } = state;
  const slot = polledSlot(lastPolledAt);
  if (slot === undefined) return JSON.stringify(state);
  return `${POLLED_HEAD}${slot},${JSON.stringify(rest).slice(1)}`;
}

export function decodeState(raw: string): SwapState {
  return JSON.parse(raw) as SwapState;
}

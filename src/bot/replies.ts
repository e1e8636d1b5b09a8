import { line, type Line, type Reply, type Tone } from '../contracts/reply.js';

/** Small replies used across handlers, so wording stays consistent. */
export function notice(title: string, lines: Line[], tone: Tone = 'info'): Reply {
  return { title, tone, lines, target: 'here' };
}

/** The answer to a button that is stale, forged or someone else's: for the presser only. */
export const EXPIRED: Reply = { ...notice('This button has expired', [line('It belongs to an older message. Start again with /quote or /swap, or see /help.')], 'warning'), target: 'ephemeral' };

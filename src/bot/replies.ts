import { failureText } from './result.js';
import { bold, line, text, type Line, type Reply, type Tone } from '../contracts/reply.js';

/** Small replies used across handlers, so wording stays consistent. */
export function notice(title: string, lines: Line[], tone: Tone = 'info'): Reply {
  return { title, tone, lines, target: 'here' };
}

/** "What was wrong, and what would be right" as a reply. */
export function problem(reason: string, hint?: string, title = 'That did not work'): Reply {
  return notice(title, [line(hint === undefined ? reason : failureText({ reason, hint }))], 'error');
}

/** The line a wizard question starts with when the previous answer was wrong. */
export const problemLine = (p: { reason: string; hint?: string }): Line => [bold('⚠️ '), text(failureText(p))];

/** The answer to a button that is stale, forged or someone else's: for the presser only. */
export const EXPIRED: Reply = { ...notice('This button has expired', [line('It belongs to an older message. Start again with /quote or /swap, or see /help.')], 'warning'), target: 'ephemeral' };

import { bold, line, text, type Line, type Reply } from '../contracts/reply.js';

/** The fields a problem can be about: a route field or one of the swap's own questions. */
export type ProblemField =
  | 'source_network' | 'source_token' | 'destination_network' | 'destination_token' | 'amount'
  | 'destination_address' | 'refund_address';

/**
 * What was wrong with an input, as data: a stable id (what a translation keys on), the reason
 * (what was wrong) and a hint (what would be right), the field to ask again and names to offer
 * as choices. Parsers and checks return it; it is turned into words for a chat only here.
 */
export interface Problem {
  id: string;
  reason: string;
  hint?: string;
  /** Network names or token symbols to offer as buttons. */
  choices?: string[];
  field?: ProblemField;
}

/** What parsers and validators return instead of throwing: the value, or the problem. */
export type Result<T> = { ok: true; value: T } | ({ ok: false } & Problem);

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(id: string, reason: string, hint?: string): Result<T> =>
  hint === undefined ? { ok: false, id, reason } : { ok: false, id, reason, hint };

/** A problem built from parts, leaving out what is empty. */
export function problemOf(id: string, reason: string, extra: { hint?: string | undefined; choices?: readonly string[] | undefined; field?: ProblemField | undefined } = {}): Problem {
  const p: Problem = { id, reason };
  if (extra.hint !== undefined) p.hint = extra.hint;
  if (extra.choices && extra.choices.length > 0) p.choices = [...extra.choices];
  if (extra.field !== undefined) p.field = extra.field;
  return p;
}

/** The problem of a failed Result, on a field (the Result's own fields, without `ok`). */
export function problemFrom(r: Problem, field?: ProblemField, choices?: readonly string[]): Problem {
  return problemOf(r.id, r.reason, { hint: r.hint, choices: choices ?? r.choices, field: field ?? r.field });
}

// The one place a problem becomes words.
const problemText = (p: Pick<Problem, 'reason' | 'hint'>): string => (p.hint ? `${p.reason} ${p.hint}` : p.reason);

/** The line a wizard question starts with when the previous answer was wrong. */
export const problemLine = (p: Problem): Line => [bold('⚠️ '), text(problemText(p))];

/** A problem as a reply of its own: "what was wrong, and what would be right". */
export function problemReply(p: Pick<Problem, 'reason' | 'hint'>, title = 'That did not work'): Reply {
  return { title, tone: 'error', lines: [line(problemText(p))], target: 'here' };
}

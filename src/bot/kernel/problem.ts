import { bold, line, text, type Line, type Reply } from '../../contracts/reply.js';
import { intlLocale, t, type CatalogKey, type Locale } from '../../i18n/index.js';
import { listFormat } from '../../i18n/intl.js';

/**
 * A sentence still to be put into words: a catalog key and its values. Problems carry these, not
 * text, so one parser serves every language; they become words in problemText(), with the chat's
 * locale. A value may be another Msg (translated too) or a list, joined with the locale's "or"/"and".
 */
export interface Msg {
  key: CatalogKey;
  vars?: Record<string, MsgVar>;
}
export type MsgVar = string | number | Msg | { or: readonly string[] } | { and: readonly string[] };
export const msg = (key: CatalogKey, vars?: Record<string, MsgVar>): Msg => (vars === undefined ? { key } : { key, vars });

const isMsg = (v: MsgVar): v is Msg => typeof v === 'object' && 'key' in v;

/** A Msg in words, in `locale`. */
export function say(locale: Locale, m: Msg): string {
  if (!m.vars) return t(locale, m.key);
  const vars: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(m.vars)) {
    if (typeof v !== 'object') vars[k] = v;
    else if (isMsg(v)) vars[k] = say(locale, v);
    else if ('or' in v) vars[k] = listFormat(intlLocale(locale), { type: 'disjunction' }).format(v.or);
    else vars[k] = listFormat(intlLocale(locale), { type: 'conjunction' }).format(v.and);
  }
  return t(locale, m.key, vars);
}

/** The fields a problem can be about: a route field or one of the swap's own questions. */
export type ProblemField =
  'source_network' | 'source_token' | 'destination_network' | 'destination_token' | 'amount' | 'destination_address' | 'refund_address';

/**
 * What was wrong with an input, as data: a stable id (what a translation keys on), the reason
 * (what was wrong) and a hint (what would be right), the field to ask again and names to offer
 * as choices. Parsers and checks return it; it is turned into words for a chat only here.
 */
export interface Problem {
  id: string;
  reason: Msg;
  hint?: Msg;
  /** Network names or token symbols to offer as buttons. */
  choices?: string[];
  field?: ProblemField;
}

/** What parsers and validators return instead of throwing: the value, or the problem. */
export type Result<T> = { ok: true; value: T } | ({ ok: false } & Problem);

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(id: string, reason: Msg, hint?: Msg): Result<T> =>
  hint === undefined ? { ok: false, id, reason } : { ok: false, id, reason, hint };

/** A problem built from parts, leaving out what is empty. */
export function problemOf(
  id: string,
  reason: Msg,
  extra: { hint?: Msg | undefined; choices?: readonly string[] | undefined; field?: ProblemField | undefined } = {},
): Problem {
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
export const problemText = (locale: Locale, p: Pick<Problem, 'reason' | 'hint'>): string =>
  p.hint ? `${say(locale, p.reason)} ${say(locale, p.hint)}` : say(locale, p.reason);

/** The line a wizard question starts with when the previous answer was wrong. */
export const problemLine = (locale: Locale, p: Problem): Line => [bold('⚠️ '), text(problemText(locale, p))];

/** A problem as a reply of its own: "what was wrong, and what would be right". `title` is already in words. */
export function problemReply(locale: Locale, p: Pick<Problem, 'reason' | 'hint'>, title = t(locale, 'core.problem.title')): Reply {
  return { title, tone: 'error', lines: [line(problemText(locale, p))], target: 'here' };
}

/**
 * What parsers and validators return instead of throwing: either the value, or a reason the user
 * can read (what was wrong) with a hint (what would be right).
 */
export type Result<T> = { ok: true; value: T } | { ok: false; reason: string; hint?: string };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(reason: string, hint?: string): Result<T> =>
  hint === undefined ? { ok: false, reason } : { ok: false, reason, hint };

/** The reason and hint as one sentence pair. */
export function failureText(r: { reason: string; hint?: string }): string {
  return r.hint ? `${r.reason} ${r.hint}` : r.reason;
}

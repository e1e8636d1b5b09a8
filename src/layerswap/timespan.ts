/**
 * quote.avg_completion_time is a .NET TimeSpan string ("00:00:05.4528534", "1.02:00:00"), not
 * ISO 8601. parseTimeSpan reads it; i18n's formatDuration (`about`) puts it into words for a chat.
 */

const TIMESPAN = /^(?:(\d+)\.)?(\d+):(\d{1,2}):(\d{1,2})(?:\.(\d+))?$/;

/** Milliseconds, or undefined when the text is not a (non-negative) TimeSpan. */
export function parseTimeSpan(text: string | null | undefined): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = TIMESPAN.exec(text.trim());
  if (!m) return undefined;
  const [, d, h, min, s, frac] = m;
  const days = d === undefined ? 0 : Number(d);
  const hours = Number(h);
  const minutes = Number(min);
  const seconds = Number(s);
  // With a day part .NET writes hours as 0-23; without one, some writers let hours run on.
  if ((d !== undefined && hours > 23) || minutes > 59 || seconds > 59) return undefined;
  const fraction = frac === undefined ? 0 : Number(`0.${frac}`);
  const ms = (((days * 24 + hours) * 60 + minutes) * 60 + seconds + fraction) * 1000;
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

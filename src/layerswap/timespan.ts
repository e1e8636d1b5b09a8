/**
 * quote.avg_completion_time is a .NET TimeSpan string ("00:00:05.4528534", "1.02:00:00"), not
 * ISO 8601. parseTimeSpan reads it; describeDuration turns milliseconds into words for a chat.
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

/** "about 30 seconds", "about 2 minutes", "about 1 hour": rounded the way a person would say it. */
export function describeDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'an unknown time';
  const seconds = ms / 1000;
  if (seconds < 1) return 'less than a second';
  if (seconds < 10) return about(Math.round(seconds), 'second');
  // Past 10 s, nearest 5 s: "about 45 seconds" rather than "about 47 seconds".
  const s5 = Math.round(seconds / 5) * 5;
  if (s5 < 60) return about(s5, 'second');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return about(minutes, 'minute');
  const hours = Math.round(seconds / 3600);
  if (hours < 24) return about(hours, 'hour');
  return about(Math.round(seconds / 86_400), 'day');
}

function about(n: number, unit: string): string {
  return `about ${n} ${unit}${n === 1 ? '' : 's'}`;
}

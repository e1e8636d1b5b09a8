import type { Line, Span } from '../../contracts/reply.js';

/**
 * Discord markdown from the neutral Line model. Every user-visible string is escaped in full:
 * a backslash before each ASCII punctuation character, which Discord's parser reads as "this
 * character, literally". discord.js's escapeMarkdown is heuristic (it leaves `<@id>`, `@everyone`,
 * `:emoji:`, links and list markers alone unless asked, and escapes `_` only in some patterns), so
 * we escape the whole punctuation class instead: no user text can format, link, ping or render as
 * a mention, and the rendered text still reads exactly as given.
 */

const PUNCTUATION = /[!-/:-@[-`{-~]/g;

export function escapeText(text: string): string {
  return text.replace(PUNCTUATION, (c) => `\\${c}`);
}

/** Inline code cannot be escaped inside; a backtick would end it, so it becomes a look-alike. */
export function codeSpan(text: string): string {
  const body = text.replace(/`/g, '\u02cb').replace(/[\r\n]+/g, ' ');
  return body ? `\`${body}\`` : '';
}

/** http(s) only; characters that would end a masked link are percent-encoded. */
export function safeUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return parsed.href.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function renderSpan(span: Span): string {
  if (!span.text && span.kind !== 'link') return '';
  switch (span.kind) {
    case 'text':
      return escapeText(span.text);
    case 'bold':
      return wrap('**', span.text);
    case 'italic':
      return wrap('_', span.text);
    case 'code':
      return codeSpan(span.text);
    case 'link': {
      const url = safeUrl(span.url);
      const label = escapeText(span.text || span.url);
      return url ? `[${label}](${url})` : label;
    }
    case 'time':
      // Discord renders it in the reader's locale, relative, and keeps it current.
      return Number.isFinite(span.at) ? `<t:${Math.floor(span.at / 1000)}:R>` : escapeText(span.text);
  }
}

/** Markers hug the text: "**So far:** " renders bold where "**So far: **" may not. */
function wrap(marker: string, text: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(text);
  const [lead, body, trail] = [m?.[1] ?? '', m?.[2] ?? '', m?.[3] ?? ''];
  return body ? `${lead}${marker}${escapeText(body)}${marker}${trail}` : text;
}

/** A span shortened (with an ellipsis) so its markdown fits `budget` characters; '' when nothing fits. */
function fitSpan(span: Span, budget: number): string {
  const full = renderSpan(span);
  if (full.length <= budget) return full;
  if (span.kind === 'link' || span.kind === 'time')
    return fitSpan({ kind: 'text', text: span.text || (span.kind === 'link' ? span.url : '') }, budget);
  const chars = Array.from(span.text);
  let lo = 0;
  let hi = chars.length;
  let best = '';
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const candidate = mid === 0 ? '' : renderSpan({ ...span, text: `${chars.slice(0, mid).join('')}…` });
    if (candidate.length <= budget) {
      best = candidate;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** One line as markdown, at most `budget` characters (cut span by span, never inside an escape). */
export function renderLine(line: Line, budget = Infinity): string {
  let out = '';
  for (const span of line) {
    const full = renderSpan(span);
    if (out.length + full.length <= budget) {
      out += full;
      continue;
    }
    out += fitSpan(span, budget - out.length);
    break;
  }
  return out;
}

/** Lines joined by newlines within `budget`; a cut is marked with an ellipsis line part. */
export function renderLines(lines: readonly Line[], budget: number): string {
  let out = '';
  for (const line of lines) {
    const sep = out ? 1 : 0;
    const room = budget - out.length - sep;
    if (room <= 0) break;
    const rendered = renderLine(line, room);
    out += (sep ? '\n' : '') + rendered;
    if (rendered.length < renderLine(line).length) break;
  }
  return out;
}

/**
 * Plain text (button labels, modal titles, select options: Discord shows these literally), cut to
 * `max` UTF-16 units (the conservative reading of Discord's limits) at a code point boundary.
 */
export function plain(text: string, max: number): string {
  const flat = text.replace(/[\r\n]+/g, ' ').trim();
  if (flat.length <= max) return flat;
  let out = '';
  for (const ch of flat) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

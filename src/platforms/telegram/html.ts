import type { Line, Span } from '../../contracts/reply.js';

/**
 * Telegram HTML for structured text. Every string is escaped, so nothing a user typed (a name, an
 * address, a token symbol) can ever become a tag; only the tags made here exist in the output.
 * Lengths are counted on the visible text, as Telegram counts them "after entities parsing".
 */

/** Escapes the four characters Telegram's HTML mode gives meaning to. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** An http(s) URL with nothing that could break out of an attribute; undefined otherwise. */
export function safeHttpUrl(url: string): string | undefined {
  // Whitespace or control characters have no place in a URL we put into an attribute.
  if ([...url].some((c) => c.trim() === '' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** A span list flattened into pieces; newlines are plain text pieces. */
type Piece = Span;

function spanHtml(p: Piece): string {
  switch (p.kind) {
    case 'text':
      return escapeHtml(p.text);
    case 'bold':
      return `<b>${escapeHtml(p.text)}</b>`;
    case 'italic':
      return `<i>${escapeHtml(p.text)}</i>`;
    case 'code':
      return `<code>${escapeHtml(p.text)}</code>`;
    case 'link': {
      const href = safeHttpUrl(p.url);
      // A link we cannot vouch for is shown as its text only: never an unchecked href.
      return href ? `<a href="${escapeHtml(href)}">${escapeHtml(p.text)}</a>` : escapeHtml(p.text);
    }
    case 'time':
      // A date_time entity shown relative ("in 5 minutes"); clients without it show the text.
      return Number.isFinite(p.at)
        ? `<tg-time unix="${Math.floor(p.at / 1000)}" format="r">${escapeHtml(p.text)}</tg-time>`
        : escapeHtml(p.text);
  }
}

/** Visible length as Telegram limits it (UTF-16 units: never under the real count). */
const visibleLength = (s: string): number => s.length;

/**
 * Renders lines to HTML with at most `limit` visible characters; a longer text is cut and ends
 * with "…" (never in the middle of a tag, an entity or a surrogate pair).
 */
export function linesToHtml(lines: Line[], limit: number): string {
  const pieces: Piece[] = [];
  lines.forEach((l, i) => {
    if (i > 0) pieces.push({ kind: 'text', text: '\n' });
    for (const s of l) if (s.text.length > 0) pieces.push(s);
  });
  const total = pieces.reduce((n, p) => n + visibleLength(p.text), 0);
  if (total <= limit) return pieces.map(spanHtml).join('');
  let budget = limit - 1;
  const out: string[] = [];
  for (const p of pieces) {
    if (budget <= 0) break;
    if (p.text.length <= budget) {
      out.push(spanHtml(p));
      budget -= p.text.length;
      continue;
    }
    let cut = budget;
    // Do not split a surrogate pair.
    const code = p.text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    if (cut > 0) out.push(spanHtml({ ...p, text: p.text.slice(0, cut) } as Piece));
    budget = 0;
  }
  return out.join('').replace(/\n+$/, '') + '…';
}

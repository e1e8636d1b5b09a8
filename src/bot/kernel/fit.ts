import { utf8Length, MAX_ACTION_BYTES } from './actions.js';
import type { Button, Field, Line, Reply, Span } from '../../contracts/reply.js';
import { defaultLocale, t, type Locale } from '../../i18n/index.js';

/**
 * Every Reply leaving the core fits the strictest platform, so adapters never have to cut:
 * Telegram (text 4096, caption 1024, callback_data 64 bytes, copy text 256) and Discord
 * (content 2000; embed title 256, 25 fields, field value 1024, 6000 in total; 5 buttons per row,
 * 5 rows, label 80, modal label 45). Lengths count markup a renderer may add (link URLs, bold and
 * code markers), so they hold however an adapter draws the spans.
 */
export const LIMITS = {
  /** Whole text of a reply without an image: Discord content (2000) is the strictest. */
  text: 2000,
  /** Whole text of a reply with an image: Telegram caption. */
  caption: 1024,
  title: 256,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  buttonsPerRow: 5,
  rows: 5,
  buttonLabel: 80,
  actionBytes: MAX_ACTION_BYTES,
  copyText: 256,
  url: 512,
  promptLabel: 45,
  placeholder: 100,
  promptMaxLength: 4000,
  alt: 1024,
} as const;

/** The last line of a cut reply: "… (shortened)", in the reader's language. */
const shortened = (locale: Locale): string => `… ${t(locale, 'fit.shortened')}`;

/** Characters a renderer may spend on a span, markup included. */
function spanSize(s: Span): number {
  switch (s.kind) {
    case 'text':
      return s.text.length;
    case 'bold':
      return s.text.length + 4;
    case 'italic':
      return s.text.length + 2;
    case 'code':
      return s.text.length + 2;
    case 'link':
      return s.text.length + s.url.length + 4;
    // Discord's <t:1700000000:R> is 16 characters whatever the fallback text.
    case 'time':
      return Math.max(s.text.length + 40, 16);
  }
}
export const lineSize = (l: Line): number => l.reduce((n, s) => n + spanSize(s), 0);
const fieldSize = (f: Field): number => f.name.length + lineSize(f.value) + 3;

/** Cuts a string to at most n UTF-16 units without splitting a surrogate pair. */
function cut(s: string, n: number): string {
  if (s.length <= n) return s;
  if (n <= 0) return '';
  let end = n;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  return s.slice(0, end);
}

const ellipsize = (s: string, n: number): string => (s.length <= n ? s : `${cut(s, n - 1)}…`);

/** A line cut to a size budget, ending in "…" when cut. Links that do not fit become text. */
function cutLine(l: Line, budget: number): Line {
  if (lineSize(l) <= budget) return l;
  const out: Line = [];
  let left = budget - 1;
  for (const s of l) {
    const size = spanSize(s);
    if (size <= left) {
      out.push(s);
      left -= size;
      continue;
    }
    const overhead = size - s.text.length;
    if (s.kind === 'link' || s.kind === 'time' || left - overhead <= 0) {
      if (left > 0) out.push({ kind: 'text', text: cut(s.text, left) });
    } else {
      out.push({ ...s, text: cut(s.text, left - overhead) });
    }
    break;
  }
  out.push({ kind: 'text', text: '…' });
  return out.filter((s) => s.text.length > 0);
}

function fitField(f: Field): Field {
  const name = ellipsize(f.name.trim() === '' ? '-' : f.name, LIMITS.fieldName);
  const value =
    lineSize(f.value) === 0 || f.value.every((s) => s.text.trim() === '')
      ? [{ kind: 'text' as const, text: '-' }]
      : cutLine(f.value, LIMITS.fieldValue);
  return { ...f, name, value };
}

function fitButton(b: Button): Button | undefined {
  const label = ellipsize(b.label.trim() === '' ? '•' : b.label, LIMITS.buttonLabel);
  switch (b.kind) {
    case 'action':
      return b.action.length > 0 && utf8Length(b.action) <= LIMITS.actionBytes ? { ...b, label } : undefined;
    case 'url':
    case 'webapp':
      return /^https?:\/\//i.test(b.url) && b.url.length <= LIMITS.url ? { ...b, label } : undefined;
    case 'copy':
      // A cut copy text would be wrong (an address); drop the button instead.
      return b.text.length > 0 && b.text.length <= LIMITS.copyText ? { ...b, label } : undefined;
    case 'deeplink':
      return /^[A-Za-z0-9_-]{1,64}$/.test(b.payload) ? { ...b, label } : undefined;
    case 'share':
      // Telegram's inline query is at most 256 characters; a cut one would quote something else.
      return b.query.length <= LIMITS.copyText ? { ...b, label } : undefined;
  }
}

function fitButtons(rows: Button[][]): Button[][] {
  const out: Button[][] = [];
  for (const row of rows) {
    const kept = row.map(fitButton).filter((b): b is Button => b !== undefined);
    for (let i = 0; i < kept.length; i += LIMITS.buttonsPerRow) out.push(kept.slice(i, i + LIMITS.buttonsPerRow));
  }
  return out.slice(0, LIMITS.rows);
}

/** Title, lines and fields within the text budget, cutting from the end. */
function fitText(r: Reply, budget: number, locale: Locale): Pick<Reply, 'title' | 'lines' | 'fields'> {
  const title = r.title === undefined ? undefined : ellipsize(r.title, Math.min(LIMITS.title, budget));
  let left = budget - (title ? title.length + 1 : 0);
  let fields = (r.fields ?? []).map(fitField);
  const extra = fields.length - LIMITS.fields;
  if (extra > 0)
    fields = [
      ...fields.slice(0, LIMITS.fields - 1),
      { name: '…', value: [{ kind: 'text', text: t(locale, 'fit.more', { count: extra + 1 }) }] },
    ];

  const total = r.lines.reduce((n, l) => n + lineSize(l) + 1, 0) + fields.reduce((n, f) => n + fieldSize(f), 0);
  if (total <= left) return { title, lines: r.lines, fields: r.fields === undefined ? undefined : fields };

  const cutMark = shortened(locale);
  left -= cutMark.length + 4; // italic markers and its newline
  const lines: Line[] = [];
  let cutShort = false;
  for (const l of r.lines) {
    const size = lineSize(l) + 1;
    if (size <= left) {
      lines.push(l);
      left -= size;
    } else {
      if (left > 8) lines.push(cutLine(l, left - 1));
      left = 0;
      cutShort = true;
      break;
    }
  }
  const keptFields: Field[] = [];
  if (!cutShort) {
    for (const f of fields) {
      const size = fieldSize(f);
      if (size > left) break;
      keptFields.push(f);
      left -= size;
    }
  }
  lines.push([{ kind: 'italic', text: cutMark }]);
  return { title, lines, fields: r.fields === undefined ? undefined : keptFields };
}

/** The reply cut to the limits every platform accepts, its own notes in `locale`. Idempotent; never throws. */
export function fitReply(r: Reply, locale: Locale = defaultLocale()): Reply {
  const budget = r.image ? LIMITS.caption : LIMITS.text;
  const text = fitText(r, budget, locale);
  const out: Reply = { ...r, ...text };
  if (out.title === undefined) delete out.title;
  if (out.fields === undefined) delete out.fields;
  if (!r.image && out.lines.length === 0 && !out.title && (out.fields ?? []).length === 0) out.lines = [[{ kind: 'text', text: '…' }]];
  if (r.buttons) out.buttons = fitButtons(r.buttons);
  if (r.image) out.image = { ...r.image, alt: ellipsize(r.image.alt, LIMITS.alt) };
  if (r.prompt) {
    out.prompt = { label: ellipsize(r.prompt.label, LIMITS.promptLabel) };
    if (r.prompt.placeholder !== undefined) out.prompt.placeholder = ellipsize(r.prompt.placeholder, LIMITS.placeholder);
    if (r.prompt.maxLength !== undefined)
      out.prompt.maxLength = Math.max(1, Math.min(LIMITS.promptMaxLength, Math.floor(r.prompt.maxLength)));
    if (r.prompt.buttonsAnswer) out.prompt.buttonsAnswer = true;
  }
  if (r.dmFallback) {
    const { dmFallback: _nested, ...fallback } = r.dmFallback;
    out.dmFallback = fitReply(fallback, locale);
  }
  return out;
}

/** Plain size of a reply as the limits count it (title, lines, fields). */
export function replySize(r: Reply): number {
  return (
    (r.title ? r.title.length + 1 : 0) +
    r.lines.reduce((n, l) => n + lineSize(l) + 1, 0) +
    (r.fields ?? []).reduce((n, f) => n + fieldSize(f), 0)
  );
}

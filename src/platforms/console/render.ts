import type { Button, Field, Line, Reply, Span, Tone } from '../../contracts/reply.js';
import { defaultLocale, translator, type Translate } from '../../i18n/index.js';

/**
 * A Reply as terminal text: title with a tone mark, lines, fields as "name: value", buttons
 * numbered "[1] Swap this  [2] Refresh", the prompt's label, a file as the path it was saved to. Text from users or the service is
 * printed, never interpreted: control characters (terminal escapes) are replaced.
 */
const TONE: Record<Tone, string> = { info: 'ℹ️ ', success: '✅', warning: '⚠️ ', error: '❌', pending: '⏳' };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
export const safe = (s: string): string => s.replace(CONTROL, '�');

function span(s: Span): string {
  switch (s.kind) {
    case 'link':
      return `${safe(s.text)} (${safe(s.url)})`;
    default:
      return safe(s.text);
  }
}
const lineText = (l: Line): string => l.map(span).join('');
const fieldText = (f: Field): string => `${safe(f.name)}: ${lineText(f.value)}`;

export interface Rendered {
  text: string;
  /** The buttons in the order they were numbered (1-based in the text). */
  buttons: Button[];
}

function buttonLabel(b: Button): string {
  switch (b.kind) {
    case 'url':
    case 'webapp':
      return `${safe(b.label)} ↗`;
    case 'copy':
      return `${safe(b.label)} ⧉`;
    default:
      return safe(b.label);
  }
}

/**
 * `hashed`: number buttons as [#1] (a prompt is open, so a plain number is an answer).
 * `firstNumber`: the number of the reply's first button (the screen numbers every button it
 * prints apart, so a later card never takes over an earlier card's numbers); default 1.
 * `promptHint`: printed under the prompt (how to press a button while text is asked for).
 * `imageArt`: the image drawn as characters (a terminal QR), printed below its note.
 * `words`: the terminal's own words ("updated:", the image and file notes) in the reader's language.
 */
export function renderReply(
  r: Reply,
  opts: {
    updated?: boolean;
    hashed?: boolean;
    firstNumber?: number;
    promptHint?: string;
    imageArt?: string;
    savedTo?: string;
    words?: Translate;
  } = {},
): Rendered {
  const say = opts.words ?? translator(defaultLocale());
  const first = opts.firstNumber ?? 1;
  const out: string[] = [];
  const title = r.title ? `${r.tone ? `${TONE[r.tone]} ` : ''}${safe(r.title)}` : undefined;
  if (title) out.push(opts.updated ? say('console.updated', { title }) : title);
  else if (opts.updated) out.push(say('console.updatedBare'));
  for (const l of r.lines) out.push(lineText(l));
  for (const f of r.fields ?? []) out.push(`  ${fieldText(f)}`);
  if (r.image) out.push(say('console.image', { alt: safe(r.image.alt) }));
  if (r.image && opts.imageArt) out.push(opts.imageArt.replace(/\n+$/, ''));
  if (r.attachment) {
    const name = safe(r.attachment.filename);
    out.push(opts.savedTo ? say('console.fileSaved', { name, path: safe(opts.savedTo) }) : say('console.fileNotSaved', { name }));
  }
  const buttons: Button[] = [];
  for (const row of r.buttons ?? []) {
    // The terminal has no inline mode to share through.
    const parts = row
      .filter((b) => b.kind !== 'share')
      .map((b) => {
        buttons.push(b);
        return `[${opts.hashed ? '#' : ''}${first + buttons.length - 1}] ${buttonLabel(b)}`;
      });
    if (parts.length > 0) out.push(parts.join('  '));
  }
  if (r.prompt && opts.promptHint) out.push(opts.promptHint);
  if (r.prompt) out.push(`› ${safe(r.prompt.label)}${r.prompt.placeholder ? ` (${safe(r.prompt.placeholder)})` : ''}:`);
  return { text: out.join('\n'), buttons };
}

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { Line, Span } from '../../../src/contracts/reply.js';
import { codeSpan, escapeText, plain, renderLine, renderLines, renderSpan, safeUrl } from '../../../src/platforms/discord/markdown.js';

/**
 * Discord's markdown reads "\" + punctuation as that character, literally; every formatting,
 * link, mention, emoji, heading, list or quote needs a bare ASCII punctuation character. So
 * text is safe exactly when it splits into escaped punctuation and non-punctuation characters.
 */
const PUNCT = /[!-/:-@[-`{-~]/;
function tokens(out: string): string[] | undefined {
  const result: string[] = [];
  const chars = Array.from(out);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === '\\') {
      const next = chars[i + 1];
      if (next === undefined || !PUNCT.test(next)) return undefined;
      result.push(next);
      i++;
    } else if (PUNCT.test(c)) return undefined;
    else result.push(c);
  }
  return result;
}

const userText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.constantFrom(
    '@everyone',
    '@here',
    '<@123456789012345678>',
    '<@&1>',
    '<#1>',
    '</quote:1>',
    '**bold**',
    '__u__',
    '||spoiler||',
    '```js\nx```',
    '[click](https://evil.example)',
    '# Heading',
    '> quote',
    '- item',
    '1. item',
    ':smile:',
    '<:a:1>',
    'https://evil.example',
    '\\*',
    '`',
    '\\',
  ),
);

describe('escaping user text (property)', () => {
  test.prop([userText])(
    'no user text can format, link or mention: every punctuation character is escaped, and it reads back as given',
    (s) => {
      const out = escapeText(s);
      const t = tokens(out);
      expect(t).toBeDefined();
      expect(t?.join('')).toBe(s);
    },
  );

  test.prop([userText])('a code span holds exactly one span: no backtick inside, single line', (s) => {
    const out = codeSpan(s);
    if (out === '') return;
    expect([out.at(0), out.at(-1)]).toEqual(['`', '`']);
    const inner = out.slice(1, -1);
    expect(inner).not.toMatch(/[`\r\n]/);
  });

  test.prop([userText, fc.webUrl()])(
    'links carry escaped text and an http(s) URL that cannot break out of the parentheses',
    (label, url) => {
      const out = renderSpan({ kind: 'link', text: label, url });
      const m = /^\[([\s\S]*)\]\((\S+)\)$/.exec(out);
      expect(m).not.toBeNull();
      expect(tokens(m?.[1] ?? '')?.join('')).toBe(label || url);
      expect(m?.[2]).toMatch(/^https?:\/\/[^()\s<>]+$/);
    },
  );

  test.prop([
    fc.array(fc.record({ kind: fc.constantFrom('text', 'bold', 'italic', 'code'), text: userText }) as fc.Arbitrary<Span>, {
      maxLength: 8,
    }),
    fc.integer({ min: 0, max: 300 }),
  ])('a line never exceeds its budget', (line: Line, budget) => {
    expect(renderLine(line, budget).length).toBeLessThanOrEqual(budget);
  });

  test.prop([
    fc.array(fc.array(fc.record({ kind: fc.constant('text'), text: userText }) as fc.Arbitrary<Span>, { maxLength: 4 }), { maxLength: 30 }),
    fc.integer({ min: 1, max: 500 }),
  ])('lines never exceed their budget', (lines, budget) => {
    expect(renderLines(lines, budget).length).toBeLessThanOrEqual(budget);
  });

  test.prop([fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 120 })])('plain labels fit their limit', (s, max) => {
    expect(plain(s, max).length).toBeLessThanOrEqual(max);
  });
});

describe('markdown (examples)', () => {
  test('formatting markers hug the text', () => {
    expect(renderSpan({ kind: 'bold', text: 'So far: ' })).toBe('**So far\\:** ');
    expect(renderSpan({ kind: 'italic', text: ' note' })).toBe(' _note_');
    expect(renderSpan({ kind: 'bold', text: '   ' })).toBe('   ');
  });

  test('only http(s) links become links', () => {
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(renderSpan({ kind: 'link', text: 'explorer', url: 'javascript:alert(1)' })).toBe('explorer');
    expect(safeUrl('https://x.example/a(b) c')).toBe('https://x.example/a%28b%29%20c');
  });

  test('a cut line ends with an ellipsis and never splits an escape', () => {
    const out = renderLine([{ kind: 'text', text: 'a.b.c.d.e.f.g' }], 9);
    expect(out.endsWith('…')).toBe(true);
    expect(tokens(out.slice(0, -1))).toBeDefined();
  });
});

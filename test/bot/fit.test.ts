import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { utf8Length } from '../../src/bot/kernel/actions.js';
import { fitReply, LIMITS, lineSize, replySize } from '../../src/bot/kernel/fit.js';
import type { Button, Field, Line, Reply, Span } from '../../src/contracts/reply.js';

const str = (max: number) => fc.string({ unit: 'binary', maxLength: max });
const span: fc.Arbitrary<Span> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), text: str(600) }),
  fc.record({ kind: fc.constant('bold' as const), text: str(200) }),
  fc.record({ kind: fc.constant('italic' as const), text: str(200) }),
  fc.record({ kind: fc.constant('code' as const), text: str(200) }),
  fc.record({ kind: fc.constant('link' as const), text: str(100), url: fc.webUrl() }),
);
const lineArb: fc.Arbitrary<Line> = fc.array(span, { maxLength: 5 });
const field: fc.Arbitrary<Field> = fc.record({ name: str(300), value: lineArb, inline: fc.boolean() });
const button: fc.Arbitrary<Button> = fc.oneof(
  fc.record({ kind: fc.constant('action' as const), label: str(120), action: str(80) }),
  fc.record({ kind: fc.constant('url' as const), label: str(120), url: fc.oneof(fc.webUrl(), str(40)) }),
  fc.record({ kind: fc.constant('copy' as const), label: str(120), text: str(300) }),
  fc.record({ kind: fc.constant('deeplink' as const), label: str(120), payload: str(80) }),
);
const reply: fc.Arbitrary<Reply> = fc.record(
  {
    title: str(400),
    lines: fc.array(lineArb, { maxLength: 40 }),
    fields: fc.array(field, { maxLength: 40 }),
    buttons: fc.array(fc.array(button, { maxLength: 9 }), { maxLength: 9 }),
    image: fc.record({ png: fc.uint8Array({ maxLength: 8 }), alt: str(1500) }),
    target: fc.constantFrom('here' as const, 'dm' as const, 'ephemeral' as const),
    prompt: fc.record({ label: str(100), placeholder: str(200), maxLength: fc.integer({ min: -5, max: 10_000 }) }),
  },
  { requiredKeys: ['lines', 'target'] },
);

function checkLimits(r: Reply): void {
  expect(replySize(r)).toBeLessThanOrEqual(r.image ? LIMITS.caption : LIMITS.text);
  expect(replySize(r)).toBeLessThanOrEqual(4096);
  expect((r.title ?? '').length).toBeLessThanOrEqual(LIMITS.title);
  expect((r.fields ?? []).length).toBeLessThanOrEqual(LIMITS.fields);
  for (const f of r.fields ?? []) {
    expect(f.name.length).toBeLessThanOrEqual(LIMITS.fieldName);
    expect(f.name.length).toBeGreaterThan(0);
    expect(lineSize(f.value)).toBeLessThanOrEqual(LIMITS.fieldValue);
    expect(lineSize(f.value)).toBeGreaterThan(0);
  }
  expect((r.buttons ?? []).length).toBeLessThanOrEqual(LIMITS.rows);
  for (const row of r.buttons ?? []) {
    expect(row.length).toBeLessThanOrEqual(LIMITS.buttonsPerRow);
    for (const b of row) {
      expect(b.label.length).toBeLessThanOrEqual(LIMITS.buttonLabel);
      if (b.kind === 'action') expect(utf8Length(b.action)).toBeLessThanOrEqual(64);
      if (b.kind === 'copy') expect(b.text.length).toBeLessThanOrEqual(256);
      if (b.kind === 'url') expect(b.url).toMatch(/^https?:\/\//);
      if (b.kind === 'deeplink') expect(b.payload).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    }
  }
  if (r.prompt) expect(r.prompt.label.length).toBeLessThanOrEqual(LIMITS.promptLabel);
  if (!r.image) expect(replySize(r)).toBeGreaterThan(0);
}

describe('fitReply (property)', () => {
  test.prop([reply])('no reply leaves over any platform limit', (r) => {
    const fitted = fitReply(r);
    checkLimits(fitted);
    if (fitted.dmFallback) checkLimits(fitted.dmFallback);
  });

  test.prop([reply])('fitting is idempotent', (r) => {
    const once = fitReply(r);
    expect(fitReply(once)).toEqual(once);
  });

  test.prop([reply, reply])('the DM fallback is fitted too', (r, fallback) => {
    checkLimits(fitReply({ ...r, dmFallback: fallback }).dmFallback as Reply);
  });
});

describe('fitReply (examples)', () => {
  test('a reply within limits is left as it is', () => {
    const r: Reply = {
      title: 'Quote',
      lines: [[{ kind: 'text', text: 'You send 100 USDC' }]],
      fields: [{ name: 'Fees', value: [{ kind: 'text', text: '0.5 USDC' }] }],
      buttons: [[{ kind: 'action', label: 'Refresh', action: 'qr:1' }]],
      target: 'here',
    };
    expect(fitReply(r)).toEqual(r);
  });

  test('a long list is cut at a line and says so', () => {
    const lines: Line[] = Array.from({ length: 400 }, (_, i) => [{ kind: 'text', text: `line number ${i} with some words` }]);
    const fitted = fitReply({ lines, target: 'here' });
    expect(fitted.lines.at(-1)).toEqual([{ kind: 'italic', text: '… (shortened)' }]);
    expect(fitted.lines[0]).toEqual(lines[0]);
  });

  test("what fitting adds is in the reader's language", () => {
    const lines: Line[] = Array.from({ length: 400 }, (_, i) => [{ kind: 'text', text: `строка ${i}` }]);
    expect(fitReply({ lines, target: 'here' }, 'ru').lines.at(-1)).toEqual([{ kind: 'italic', text: '… (сокращено)' }]);
    const fields: Field[] = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, value: [{ kind: 'text', text: 'v' }] }));
    expect(fitReply({ lines: [], fields, target: 'here' }, 'es').fields?.at(-1)).toEqual({
      name: '…',
      value: [{ kind: 'text', text: 'y 6 más' }],
    });
    expect(fitReply({ lines: [], fields, target: 'here' }, 'zh-CN').fields?.at(-1)?.value).toEqual([{ kind: 'text', text: '还有 6 项' }]);
  });

  test('surrogate pairs are never split', () => {
    const fitted = fitReply({ title: '😀'.repeat(300), lines: [[{ kind: 'text', text: '😀'.repeat(3000) }]], target: 'here' });
    const all =
      (fitted.title ?? '') +
      fitted.lines
        .flat()
        .map((s) => s.text)
        .join('');
    expect(all).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

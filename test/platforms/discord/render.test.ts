import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  actionButton,
  copyButton,
  deeplinkButton,
  line,
  urlButton,
  type Button,
  type Reply,
  type Span,
} from '../../../src/contracts/reply.js';
import { parseOwnId } from '../../../src/platforms/discord/custom-ids.js';
import { buildModal } from '../../../src/platforms/discord/modal.js';
import { renderReply, TONE_COLOURS } from '../../../src/platforms/discord/render.js';
import { validateMessage, validateModal } from '../../e2e/discord/fake-validate.js';

/** Reply -> Discord payload: within every Discord limit for any reply, mentions off. */
const str = (max: number) => fc.string({ unit: 'binary', maxLength: max });
const span: fc.Arbitrary<Span> = fc.oneof(
  fc.record({ kind: fc.constantFrom('text' as const, 'bold' as const, 'italic' as const, 'code' as const), text: str(300) }),
  fc.record({ kind: fc.constant('link' as const), text: str(60), url: fc.oneof(fc.webUrl(), str(30)) }),
);
const lineArb = fc.array(span, { maxLength: 6 });
const button: fc.Arbitrary<Button> = fc.oneof(
  fc.record({ kind: fc.constant('action' as const), label: str(120), action: fc.string({ minLength: 1, maxLength: 64 }) }),
  fc.record({ kind: fc.constant('url' as const), label: str(120), url: fc.webUrl() }),
  fc.record({ kind: fc.constant('copy' as const), label: str(40), text: str(150) }),
  fc.record({ kind: fc.constant('deeplink' as const), label: str(40), payload: str(40) }),
);
const reply: fc.Arbitrary<Reply> = fc.record(
  {
    title: str(400),
    tone: fc.constantFrom('info' as const, 'success' as const, 'warning' as const, 'error' as const, 'pending' as const),
    lines: fc.array(lineArb, { maxLength: 60 }),
    fields: fc.array(fc.record({ name: str(300), value: lineArb, inline: fc.boolean() }), { maxLength: 30 }),
    buttons: fc.array(fc.array(button, { maxLength: 12 }), { maxLength: 7 }),
    target: fc.constantFrom('here' as const, 'dm' as const, 'ephemeral' as const),
    prompt: fc.record({ label: str(80), placeholder: str(150), maxLength: fc.integer({ min: -5, max: 10_000 }) }),
  },
  { requiredKeys: ['lines', 'target'] },
);

describe('rendering (property)', () => {
  test.prop([reply], { numRuns: 300 })('every reply renders into a payload Discord accepts, with mentions off', (r) => {
    const m = renderReply(r);
    expect(m.allowedMentions).toEqual({ parse: [] });
    const problems = validateMessage(
      { embeds: m.embeds, components: m.components },
      m.files.map((f) => f.name),
    );
    expect(problems).toEqual([]);
    for (const row of m.components)
      for (const c of row.components) {
        if ('custom_id' in c) expect(c.custom_id.length).toBeLessThanOrEqual(100);
      }
  });

  test.prop([reply.filter((r) => r.prompt !== undefined)])('every prompt makes a valid modal', (r) => {
    expect(validateModal({ ...buildModal(r.prompt ?? { label: '' }, r) })).toEqual([]);
  });
});

describe('rendering (examples)', () => {
  const base: Reply = { title: 'Deposit', tone: 'pending', lines: [line('Send ', { kind: 'code', text: '0xabc' })], target: 'dm' };

  test('tone gives the colour; the image is an attachment the embed shows', () => {
    const m = renderReply({ ...base, image: { png: new Uint8Array([1, 2]), alt: 'QR code', filename: 'deposit qr.png' } });
    expect(m.embeds[0]?.color).toBe(TONE_COLOURS.pending);
    expect(m.files).toEqual([{ name: 'deposit_qr.png', data: Buffer.from([1, 2]), description: 'QR code' }]);
    expect(m.embeds[0]?.image).toEqual({ url: 'attachment://deposit_qr.png' });
  });

  test('buttons: actions keep their action, links stay links, copies reveal their text, deeplinks are left out', () => {
    const m = renderReply({
      ...base,
      buttons: [
        [
          actionButton('Status', 'st:1'),
          urlButton('Explorer', 'https://x.example'),
          copyButton('Copy address', '0xabc'),
          deeplinkButton('Open DM', 'd_1'),
        ],
      ],
    });
    const row = m.components[0]?.components ?? [];
    expect(row.map((c) => ('label' in c ? c.label : ''))).toEqual(['Status', 'Explorer', 'Copy address']);
    const copy = row[2];
    expect(copy && 'custom_id' in copy ? parseOwnId(copy.custom_id) : undefined).toEqual({ kind: 'copy', text: '0xabc' });
  });

  test('text too long to copy through a button goes into the card as code instead', () => {
    const long = 'x'.repeat(150);
    const m = renderReply({ ...base, buttons: [[copyButton('Copy memo', long)]] });
    expect(m.components).toEqual([]);
    expect(m.embeds[0]?.description).toContain(`\`${long}\``);
  });

  test('a row of more than five actions becomes one select menu; a prompt adds a button that opens the modal', () => {
    const many = Array.from({ length: 7 }, (_, i) => actionButton(`Page ${i}`, `pg:${i}`));
    const m = renderReply({ ...base, buttons: [many], prompt: { label: 'Your address on Base', maxLength: 64 } });
    expect(m.components).toHaveLength(2);
    const select = m.components[0]?.components[0];
    expect(select && 'options' in select ? select.options.map((o) => o.value) : []).toEqual(
      many.map((b) => (b.kind === 'action' ? b.action : '')),
    );
    const prompt = m.components[1]?.components[0];
    expect(prompt && 'custom_id' in prompt ? parseOwnId(prompt.custom_id) : undefined).toEqual({
      kind: 'prompt',
      prompt: { label: 'Your address on Base', maxLength: 64 },
    });
  });

  test('the modal keeps the question and limits the answer', () => {
    const modal = buildModal(
      { label: 'Your address on Base', placeholder: '0x…', maxLength: 64 },
      { title: 'New swap', lines: [line('Send the address @everyone')], target: 'here' },
    );
    expect(modal.title).toBe('New swap');
    expect(JSON.stringify(modal.components)).toContain('Send the address \\\\@everyone');
    expect(JSON.stringify(modal.components)).toContain('"max_length":64');
  });
});

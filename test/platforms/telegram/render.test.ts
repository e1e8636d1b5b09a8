import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  actionButton,
  bold,
  code,
  copyButton,
  deeplinkButton,
  italic,
  line,
  link,
  text,
  urlButton,
  type Reply,
  type Span,
} from '../../../src/contracts/reply.js';
import { escapeHtml } from '../../../src/platforms/telegram/html.js';
import { CAPTION_LIMIT, TEXT_LIMIT, renderReply } from '../../../src/platforms/telegram/render.js';
import { parseTelegramHtml } from '../../e2e/telegram/telegram-html.js';

const anyText = fc.string({ unit: 'binary', maxLength: 80 });
const span: fc.Arbitrary<Span> = fc.oneof(
  anyText.map(text),
  anyText.map(bold),
  anyText.map(italic),
  anyText.map(code),
  fc.tuple(anyText, fc.oneof(fc.webUrl(), anyText)).map(([t, u]) => link(t, u)),
);
const reply: fc.Arbitrary<Reply> = fc.record({
  title: fc.option(anyText, { nil: undefined }),
  lines: fc.array(fc.array(span, { maxLength: 5 }), { maxLength: 6 }),
  fields: fc.option(fc.array(fc.record({ name: anyText, value: fc.array(span, { maxLength: 3 }) }), { maxLength: 3 }), { nil: undefined }),
  target: fc.constant('here' as const),
});

describe('renderReply', () => {
  test.prop([anyText])('user text never becomes a tag and reads back exactly', (s) => {
    const html = renderReply({ lines: [line(s)], target: 'here' }).messages[0]!.html;
    const parsed = parseTelegramHtml(html);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.tags).toEqual([]);
    expect(parsed.text).toBe(s.trim() ? s : '…');
  });

  test.prop([reply])('any reply is valid Telegram HTML, only our tags, within the limit', (r) => {
    for (const m of renderReply(r).messages) {
      const parsed = parseTelegramHtml(m.html);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      expect(parsed.tags.filter((t) => !['b', 'i', 'code', 'a'].includes(t))).toEqual([]);
      expect(parsed.text.length).toBeLessThanOrEqual(TEXT_LIMIT);
      expect(parsed.text.trim().length).toBeGreaterThan(0);
    }
  });

  it('a reply whose only text is blank still sends visible text (Telegram refuses empty messages)', () => {
    // Found by the property above (seed -339227591): a title of one tab rendered as "<b>\t</b>".
    const parsed = parseTelegramHtml(renderReply({ title: '\t', lines: [], target: 'here' }).messages[0]!.html);
    expect(parsed).toMatchObject({ ok: true, text: expect.stringMatching(/\S/) });
  });

  test.prop([anyText, anyText])('bold and code wrap exactly the escaped text', (a, b) => {
    const html = renderReply({ lines: [[bold(a), code(b)]], target: 'here' }).messages[0]!.html;
    if (a && b) expect(html).toBe(`<b>${escapeHtml(a)}</b><code>${escapeHtml(b)}</code>`);
  });

  it('renders title, lines and fields in order', () => {
    const r: Reply = {
      title: 'Quote',
      lines: [line('You send ', bold('100 USDC'))],
      fields: [{ name: 'Fee', value: line(code('0.5')) }],
      target: 'here',
    };
    const html = renderReply(r).messages[0]!.html;
    expect(html).toBe('<b>Quote</b>\n\nYou send <b>100 USDC</b>\n\n<b>Fee:</b> <code>0.5</code>');
    expect(parseTelegramHtml(html)).toMatchObject({ ok: true, text: 'Quote\n\nYou send 100 USDC\n\nFee: 0.5' });
  });

  it('links only http(s) URLs; anything else stays plain text', () => {
    const html = renderReply({
      lines: [
        [
          link('docs', 'https://docs.layerswap.io/a?b=1&c="2"'),
          text(' '),
          link('evil', 'javascript:alert(1)'),
          link('x', 'https://a.b/"onclick='),
        ],
      ],
      target: 'here',
    }).messages[0]!.html;
    expect(html).toContain('<a href="https://docs.layerswap.io/a?b=1&amp;c=%222%22">docs</a>');
    expect(html).toContain(' evil');
    expect(html).not.toContain('javascript');
    expect(parseTelegramHtml(html).ok).toBe(true);
  });

  it('cuts an over-long text at the limit with an ellipsis, never inside a tag', () => {
    const long = 'x'.repeat(5000);
    const html = renderReply({ lines: [[bold(long)]], target: 'here' }).messages[0]!.html;
    const parsed = parseTelegramHtml(html);
    expect(parsed.ok && parsed.text.length).toBe(TEXT_LIMIT);
    expect(html.endsWith('</b>…')).toBe(true);
  });

  it('maps every button kind; drops the ones Telegram would refuse', () => {
    const r: Reply = {
      lines: [line('pick')],
      buttons: [
        [actionButton('Go', 'go:1'), urlButton('Site', 'https://layerswap.io'), copyButton('Copy', '0xabc'), deeplinkButton('DM', 'd_1')],
        [actionButton('Too long', 'ü'.repeat(33)), urlButton('Bad', 'ftp://x'), deeplinkButton('Bad payload', 'has space')],
      ],
      target: 'here',
    };
    const out = renderReply(r, { botUsername: 'swap_bot' });
    expect(out.messages[0]!.markup).toEqual({
      inline_keyboard: [
        [
          { text: 'Go', callback_data: 'go:1' },
          { text: 'Site', url: 'https://layerswap.io/' },
          { text: 'Copy', copy_text: { text: '0xabc' } },
          { text: 'DM', url: 'https://t.me/swap_bot?start=d_1' },
        ],
      ],
    });
    expect(out.problems).toHaveLength(3);
  });

  it('a photo carries the text as its caption when it fits, else the text follows', () => {
    const image = { png: new Uint8Array([1]), alt: 'QR code' };
    const short = renderReply({ lines: [line('Send 1 ETH')], buttons: [[copyButton('Copy', '1')]], image, target: 'dm' });
    expect(short.messages.map((m) => m.kind)).toEqual(['photo']);
    expect(short.messages[0]!.markup).toBeDefined();
    const long = renderReply({ lines: [line('y'.repeat(CAPTION_LIMIT + 5))], buttons: [[copyButton('Copy', '1')]], image, target: 'dm' });
    expect(long.messages.map((m) => m.kind)).toEqual(['photo', 'text']);
    expect(long.messages[0]!.html).toBe('QR code');
    expect(long.main).toBe(1);
    expect(long.messages[1]!.markup).toBeDefined();
  });

  it('a prompt is a ForceReply; with buttons it comes as its own message', () => {
    const alone = renderReply({ lines: [line('Address?')], prompt: { label: 'Address', placeholder: '0x…' }, target: 'here' });
    expect(alone.messages).toHaveLength(1);
    expect(alone.messages[0]!.markup).toEqual({ force_reply: true, input_field_placeholder: '0x…' });
    const both = renderReply({
      lines: [line('Address?')],
      buttons: [[actionButton('Cancel', 'cx:1')]],
      prompt: { label: 'Address', placeholder: 'p'.repeat(100) },
      target: 'here',
    });
    expect(both.messages).toHaveLength(2);
    expect(both.main).toBe(0);
    expect(both.messages[1]).toMatchObject({
      kind: 'text',
      html: 'Address',
      markup: { force_reply: true, input_field_placeholder: 'p'.repeat(64) },
    });
  });
});

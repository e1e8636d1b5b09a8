import { describe, expect, it, test } from 'vitest';
import { renderMoment, supportSummary } from '../../src/bot/status/moments.js';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { statusCard } from '../../src/bot/status/card.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { lineText, replyButtons, type Reply } from '../../src/contracts/reply.js';
import { MOMENT_KINDS } from '../../src/contracts/tracking.js';
import { SwapDetailsSchema, type SwapDetails } from '../../src/layerswap/schemas.js';
import { observe } from '../../src/tracking/observe.js';
import { fixtureData, fixtureNames } from '../support/fixtures.js';

/**
 * Everything tracking pushes, rendered in the pseudo-locale (every catalog string wrapped in
 * ⟦…⟧) from every real swap answer: the status card (private and public, followed) and every key
 * moment in a private chat and a group, and the "tracking stopped" notice. Any text left outside
 * ⟦…⟧ must be a value (a number, a date, a network or token name, an address, a hash, an id):
 * a word there is a sentence that bypassed the catalogs. The support summary's lines are English
 * on purpose (they are pasted to Layerswap's support) and are the one exception.
 */

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const ELIDED_ID = '0b0c0d0e-1111-4222-8333-944455556666';
const SWAP_FIXTURES = fixtureNames().filter((n) => /(get-swap|post-swaps)/.test(n));
const chats: ChatTarget[] = [
  { platform: 'telegram', chatId: '42', chatKind: 'private' },
  { platform: 'telegram', chatId: '-100', chatKind: 'group' },
];

function swapFixture(name: string): SwapDetails {
  const data = structuredClone(fixtureData<{ swap: { id?: string } }>(name));
  if (!/^[0-9a-f-]{36}$/.test(data.swap.id ?? '')) data.swap.id = ELIDED_ID;
  return SwapDetailsSchema.parse(data);
}

/** The swap's values a card may show as they are: names, symbols, addresses, hashes, ids. */
function valuesOf(details: SwapDetails): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key = ''): void => {
    if (
      typeof v === 'string' &&
      (['id', 'name', 'display_name', 'symbol', 'transaction_hash', 'to'].includes(key) || key.endsWith('_address'))
    )
      out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(details);
  return out;
}

const MONTHS = Array.from({ length: 12 }, (_, m) =>
  new Intl.DateTimeFormat('en', { month: 'short', timeZone: 'UTC' }).format(Date.UTC(2026, m, 1)),
);
const SEPARATORS = /[\s·:,.()/→…]+/;

/** The text of a string outside every ⟦…⟧ (nested ones too). */
function outside(s: string): string {
  let rest = s;
  for (let prev = ''; prev !== rest;) {
    prev = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  }
  return rest;
}

/** Words outside ⟦…⟧ that are no value of this swap. */
function strays(reply: Reply, details: SwapDetails, exempt: ReadonlySet<string>): string[] {
  const values = valuesOf(details);
  const words = new Set(values.flatMap((v) => v.split(SEPARATORS)));
  const isValue = (w: string) =>
    /^[\d%+\-$<>?▓░]+$/.test(w) ||
    words.has(w) ||
    MONTHS.includes(w) ||
    w === 'UTC' ||
    // a masked address or shortened hash: its ends
    (w.length >= 4 && values.some((v) => v.length > w.length && (v.startsWith(w) || v.endsWith(w))));
  const texts = [
    reply.title ?? '',
    ...reply.lines.map(lineText).filter((l) => !exempt.has(l)),
    ...(reply.fields ?? []).flatMap((f) => [f.name, lineText(f.value)]),
    ...replyButtons(reply).map((b) => b.label),
  ];
  return texts.flatMap((t) =>
    outside(t)
      .split(SEPARATORS)
      .filter((w) => w !== '' && !isValue(w))
      .map((w) => `${w} (in "${t}")`),
  );
}

describe('pseudo-locale: no text outside the catalogs in what tracking sends', () => {
  test.each(SWAP_FIXTURES)('%s: status card and every key moment', (name) => {
    const d = swapFixture(name);
    const state = observe(undefined, d, NOW, 4).state;
    const replies: Array<{ reply: Reply; exempt: Set<string> }> = [];
    for (const audience of ['private', 'public'] as const) {
      replies.push({ reply: statusCard(d, { audience, now: NOW, locale: 'pseudo', followed: { muted: false } }), exempt: new Set() });
    }
    for (const target of chats) {
      const summary = new Set(supportSummary(d, state, target.chatKind === 'private' ? 'private' : 'public'));
      for (const kind of MOMENT_KINDS)
        replies.push({
          reply: renderMoment({ kind, version: 1, at: NOW }, { details: d, state, target, locale: 'pseudo' }),
          exempt: summary,
        });
    }
    replies.push({ reply: trackingRenderer.stopped('not_found', d.swap.id, 'pseudo'), exempt: new Set() });
    const found = replies.flatMap((r) => strays(r.reply, d, r.exempt));
    expect(found).toEqual([]);
    // Not vacuous: every reply carries catalog text.
    for (const r of replies) expect(r.reply.title).toMatch(/^⟦/);
  });

  it('finds a word that bypassed the catalogs', () => {
    const d = swapFixture(SWAP_FIXTURES[0]!);
    const card = statusCard(d, { audience: 'private', now: NOW, locale: 'pseudo' });
    const leaked: Reply = { ...card, lines: [...card.lines, [{ kind: 'text', text: 'Refund pending' }]] };
    expect(strays(leaked, d, new Set())).toEqual(['Refund (in "Refund pending")', 'pending (in "Refund pending")']);
  });
});

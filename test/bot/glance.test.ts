import { describe, expect, test } from 'vitest';
import { findLookup } from '../../src/bot/follow/lookup/glance.js';
import { replyText } from '../../src/contracts/reply.js';
import { useHarness } from './support/conversation.js';
import { SWAP_ID } from '../support/swaps.js';

/** The swap in free text (guest mentions, "Track this swap"), and guest answers' rate limit. */
const h = useHarness({ commandsPerMinute: 3 });
const ID = SWAP_ID;

describe('the swap named in a message', () => {
  test.each([
    [`my swap ${ID}, please help!`, 'swap'],
    [`https://layerswap.io/app/swap/${ID}?x=1`, 'swap'],
    [`tx 0x${'ab'.repeat(32)} from 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045`, 'transaction'],
    ['wallet 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045.', 'address'],
  ])('%s names a %s', (text, kind) => {
    expect(findLookup(text)?.kind).toBe(kind);
  });

  test('words, amounts and networks name nothing', () => {
    expect(findLookup('gm, 500 usdc arbitrum base, how do fees work?')).toBeUndefined();
  });
});

describe('guest answers', () => {
  test('share the inline queries\' rate limit: past it, a "slow down" result, never an error', async () => {
    const q = { platform: 'telegram' as const, userId: 'guest-flood', userName: 'G', text: 'hello' };
    const kinds: string[] = [];
    for (let i = 0; i < 4; i++) kinds.push((await h.core.guestQuery!(q)).kind);
    expect(kinds.slice(0, 3)).not.toContain('slow');
    expect(kinds[3]).toBe('slow');
    const inline = await h.core.inlineQuote(q);
    expect(inline.results[0]?.kind).toBe('slow');
  });

  test('an unknown swap id: a result that says so', async () => {
    const r = await h.core.guestQuery!({ platform: 'telegram', userId: 'guest-2', userName: 'G', text: ID });
    expect(r.kind).toBe('problem');
    expect(replyText(r.reply)).toMatch(/No swap found/);
  });
});

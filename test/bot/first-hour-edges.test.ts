import { describe, expect, test } from 'vitest';
import { replyText, type Reply } from '../../src/contracts/reply.js';
import { card, ChatUser, useHarness } from './support/conversation.js';

const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

/** Rough edges a new user met in the first hour (issue 34, second round). */
const h = useHarness();

describe('/status and /track input errors', () => {
  test('a bad /status in a group goes to the sender alone, as /track does', async () => {
    const g = new ChatUser(h, { userId: 'fh1', chatId: 'grp-fh', chatKind: 'group' });
    card(await g.says('/status not-a-swap-id'), { title: 'Which swap?', contains: ['That is not a swap id'], target: 'ephemeral' });
    // In private there is nobody else to hide it from.
    card(await new ChatUser(h, { userId: 'fh1' }).says('/status not-a-swap-id'), { title: 'Which swap?', target: 'here' });
  });

  test('the headline is said once: the title asks "Which swap?", the text says what to add', async () => {
    const u = new ChatUser(h, { userId: 'fh2' });
    for (const command of ['/status', '/track', '/untrack']) {
      const r = card(await u.says(command), { title: 'Which swap?', contains: ['Add its id'] });
      expect(replyText(r).match(/Which swap\?/g)).toHaveLength(1);
    }
  });
});

describe('the Starknet reading of a hash', () => {
  test('an EVM transaction hash above 2^251 gets no Starknet hint', async () => {
    const u = new ChatUser(h, { userId: 'fh3' });
    const r = card(await u.says(`/status 0x${'cd'.repeat(32)}`), { title: 'No swap found' });
    expect(replyText(r)).not.toContain('Starknet');
  });

  test('a hash that can be a Starknet address keeps the hint and its button', async () => {
    const u = new ChatUser(h, { userId: 'fh4' });
    card(await u.says('/status 0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7'), {
      title: 'No swap found',
      contains: ['If it is a Starknet wallet address instead'],
      buttons: ['It is an address: list its swaps'],
    });
  });
});

describe('Track on a finished swap', () => {
  test('says the swap is finished and shows its final state, instead of "keeps updating"', async () => {
    const u = new ChatUser(h, { userId: 'fh5' });
    const { id } = await u.createsSwap('/swap 100 USDC arbitrum base', DEST);
    const viewer = new ChatUser(h, { userId: 'fh5-viewer' });
    card(await viewer.says(`/status ${id}`), { buttons: ['Track'] });
    h.sandbox.deposit(id);
    h.clock.advance(120_000);
    // The Track button of the card shown before the swap finished, pressed after.
    const pressed = await viewer.presses('Track');
    card(pressed, { title: 'This swap is finished', contains: ['nothing to follow'] });
    // Masked for anyone but the creator in private.
    expect(replyText(card(pressed, { title: 'Completed', contains: ['The funds were delivered'] }))).not.toContain(DEST);
    expect(replyText(pressed[0] as Reply)).not.toMatch(/keeps updating/);
    expect(h.tracking.followersOf(id)).not.toContain('console:private:fh5-viewer');
    // /track by id, from the creator: the same, the card unmasked for them.
    const tracked = await u.says(`/track ${id}`);
    card(tracked, { title: 'This swap is finished' });
    card(tracked, { title: 'Completed', contains: [`To address: ${DEST}`] });
  });
});

describe('a wizard step with one choice', () => {
  test('is not asked: the only token is taken and the next message says so', async () => {
    const u = new ChatUser(h, { userId: 'fh6' });
    const r = await u.says('/quote 0.1 wbtc arbitrum bitcoin');
    const quote = card(r, { title: 'Quote: WBTC Arbitrum One → BTC Bitcoin', contains: ['You send: 0.1 WBTC on Arbitrum One'] });
    expect(replyText(quote)).toContain('BTC is the only token you can receive on Bitcoin on this route, so I took it.');
    expect(replyText(quote)).not.toContain('Which token');
  });

  test('a step with several choices still asks', async () => {
    const u = new ChatUser(h, { userId: 'fh7' });
    card(await u.says('/quote 100 arbitrum base'), { title: 'New quote', buttons: ['USDC', 'ETH'] });
  });
});

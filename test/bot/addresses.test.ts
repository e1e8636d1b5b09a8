import { describe, expect, test } from 'vitest';
import { replyButtons, replyText } from '../../src/contracts/reply.js';
import { allText, card, ChatUser, useHarness } from './support/conversation.js';

const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const SHORT = '0xd8dA…6045';

const h = useHarness();

describe('saved addresses', () => {
  test('a destination used once is offered at the next address step of its family; renamed, then removed with /addresses', async () => {
    const u = new ChatUser(h, { userId: 'ab1' });
    const first = await u.says('/swap 10 USDC arbitrum base');
    expect(replyButtons(first[0]!).map((b) => b.label)).not.toContain(SHORT);
    await u.createsSwap('/swap 10 USDC arbitrum base', EVM);

    // Another EVM destination: the saved address is a button; pressing it is the typed answer.
    const ask = card(await u.says('/swap 10 USDC arbitrum optimism'), { contains: ['Or pick one you used before:'], buttons: [SHORT] });
    expect(ask.target).toBe('here');
    card(await u.presses(SHORT, [ask]), { contains: ['refunds'], buttons: ['Skip (no refund address)'] });

    const list = card(await u.says('/addresses'), {
      title: 'Saved addresses',
      contains: [`1. EVM · ${EVM}`],
      buttons: [`Remove 1: ${SHORT}`],
    });
    expect(list.target).toBe('here');
    card(await u.says('/addresses rename 1 Main wallet'), { contains: ['Renamed.', `1. Main wallet · EVM · ${EVM}`] });
    card(await u.says('/swap 10 USDC arbitrum base'), { buttons: ['Main wallet'] });

    card(await u.presses('Remove 1: Main wallet', await u.says('/addresses')), { contains: ['Removed.', 'No saved addresses yet.'] });
    const after = await u.says('/swap 10 USDC arbitrum base');
    expect(replyButtons(after[0]!).map((b) => b.label)).not.toContain('Main wallet');
    expect(allText(after)).not.toContain('Or pick one you used before:');
  });

  test('an exchange destination is the user’s deposit address there: no personal wallet is offered for it (issue 32)', async () => {
    const u = new ChatUser(h, { userId: 'ab-ex' });
    await u.createsSwap('/swap 10 USDC arbitrum base', EVM);
    await u.says('/swap 100 USDC arbitrum to coinbase');
    const ask = card(await u.presses('Base'), { contains: ['Send your Coinbase deposit address for USDC on Base'] });
    expect(replyButtons(ask).map((b) => b.label)).not.toContain(SHORT);
    expect(allText([ask])).not.toContain('Or pick one you used before:');
  });

  test('never in a group: /addresses lists nothing there, and the address step offers none', async () => {
    const dm = new ChatUser(h, { userId: 'ab2' });
    await dm.createsSwap('/swap 10 USDC arbitrum base', EVM);
    const g = new ChatUser(h, { userId: 'ab2', chatId: 'grp-ab', chatKind: 'group' });
    const r = await g.says('/addresses');
    expect(allText(r)).toContain('only in your private chat');
    expect(allText(r)).not.toContain(EVM.slice(2, 10));
    const ask = await g.says(`/swap 10 USDC arbitrum base`);
    expect(ask.flatMap(replyButtons).map((b) => b.label)).not.toContain(SHORT);
    expect(ask.map(replyText).join('\n')).not.toContain(EVM.slice(2, 10));
  });

  test('bad input: an unknown number says which numbers exist', async () => {
    const u = new ChatUser(h, { userId: 'ab3' });
    card(await u.says('/addresses remove 7'), { contains: ['Which address?', '/addresses remove 2'] });
    card(await u.says('/addresses frobnicate'), { contains: ['Usage: /addresses'] });
  });
});

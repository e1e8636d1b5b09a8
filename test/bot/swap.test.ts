import { describe, expect, test } from 'vitest';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import { allText, card, ChatUser, findButton, useHarness } from './support/conversation.js';

const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const TON = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

const h = useHarness();

const swapIdIn = (replies: Reply[]): string => {
  const m = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(allText(replies));
  if (!m) throw new Error(`no swap id in:\n${allText(replies)}`);
  return m[0];
};

describe('/swap', () => {
  test('one line to the deposit card: private, exact amount, QR, copy buttons, followed and in /history', async () => {
    const u = new ChatUser(h, { userId: 's1' });
    const confirm = await u.toConfirmation('/swap 100 USDC arbitrum base', EVM);
    card(confirm, {
      title: 'Confirm your swap',
      contains: [
        'You send: 100 USDC on Arbitrum One',
        /You receive: 9\d/,
        `To address: ${EVM}`,
        'Refund address: none: no automatic refund',
        'Refuel: no',
      ],
      buttons: ['Confirm', 'Cancel'],
    });
    const created = await u.presses('Confirm');
    const deposit = card(created, {
      title: 'Deposit for swap',
      contains: [
        'Send exactly 100 USDC on Arbitrum One',
        'USDC token contract: 0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        'after that the swap expires',
        'Swap id:',
      ],
      buttons: ['Copy address', 'Copy amount', 'Status', 'Track'],
      target: 'dm',
    });
    expect(Array.from(deposit.image?.png.slice(0, 4) ?? [])).toEqual(PNG_MAGIC);
    const address = findButton([deposit], 'Copy address');
    expect(address).toMatchObject({ kind: 'copy', text: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) });
    expect(replyText(deposit)).toContain(address.kind === 'copy' ? address.text : '');
    const amount = findButton([deposit], 'Copy amount');
    expect(amount.kind === 'copy' && amount.text).toBe('100');
    expect(deposit.dmFallback?.buttons?.flat()[0]?.kind).toBe('deeplink');

    const id = swapIdIn(created);
    expect(h.tracking.followersOf(id)).toEqual(['console:private:s1']);
    card(await u.says('/history'), { title: 'Your swaps (1)', contains: [id, '100 USDC on Arbitrum One → USDC on Base'] });
    // The draft is finished: the same chat can start over.
    expect(allText(await u.says('/cancel'))).toContain('Nothing to cancel');
  });

  test('TON is wallet-only (as on Layerswap): no deposit address is promised, the user picks another network', async () => {
    const u = new ChatUser(h, { userId: 's2' });
    card(await u.says('/swap 10 USDT ton to ethereum'), {
      contains: ['Not available by deposit address', 'send from a connected wallet', 'Which network do you send from?'],
    });
    // Paying out to TON needs no deposit address there: that swap goes through.
    await u.says('/cancel');
    const confirm = await u.toConfirmation('/swap 10 USDT ethereum to ton', TON);
    card(confirm, { title: 'Confirm your swap', contains: ['USDT on Ton'] });
  });

  test('Confirm pressed twice, even at once, creates one swap and one deposit card; a late press says where the card is', async () => {
    const u = new ChatUser(h, { userId: 's3' });
    const confirm = await u.toConfirmation('/swap 20 usdc base optimism', EVM);
    const before = h.sandbox.requestCount('createSwap');
    const [a, b] = await Promise.all([u.presses('Confirm', confirm), u.presses('Confirm', confirm)]);
    expect(h.sandbox.requestCount('createSwap')).toBe(before + 1);
    const id = swapIdIn([...a, ...b].filter((r) => r.title?.startsWith('Deposit')));
    // The other press waited for the creation, or came after it (a loaded machine may run the two
    // presses one after the other): either way it names no other swap and sends no second card.
    for (const replies of [a, b]) expect(allText(replies)).toMatch(new RegExp(`already being created|Swap id: ${id}|/status ${id}`));
    expect([...a, ...b].filter((r) => r.title?.startsWith('Deposit'))).toHaveLength(1);
    const late = await u.presses('Confirm', confirm);
    card(late, { title: /already created/, contains: [`/status ${id}`], target: 'ephemeral' });
    expect(h.sandbox.requestCount('createSwap')).toBe(before + 1);
  });

  test('in a group: the deposit card goes privately, the group gets a note and a deep link fallback', async () => {
    const g = new ChatUser(h, { userId: 's4', chatId: 'group-1', chatKind: 'group' });
    const ask = await g.says('/swap 15 usdc arbitrum base');
    card(ask, { buttons: ['Cancel', 'Continue privately'] });
    await g.says(EVM);
    await g.presses('Skip (no refund address)');
    await g.presses('No refuel');
    const created = await g.presses('Confirm');
    const deposit = card(created, { title: 'Deposit for swap', target: 'dm' });
    const note = card(created, { title: /created/, contains: ['shown only to its creator, in a private chat'], target: 'here' });
    expect(replyText(note)).not.toContain(swapIdIn([deposit]));
    const link = findButton([deposit.dmFallback as Reply], 'Get deposit details');
    const payload = link.kind === 'deeplink' ? link.payload : '';
    expect(payload).toMatch(/^dep_[0-9a-f]{32}$/);

    // The creator opens the private chat through the link and gets the details again.
    const dm = new ChatUser(h, { userId: 's4' });
    card(await dm.says(`/start ${payload}`), { title: 'Deposit for swap', contains: ['Send exactly 15 USDC on Arbitrum One'] });
    // Someone else with the same link gets nothing.
    const other = new ChatUser(h, { userId: 'intruder' });
    const refused = await other.says(`/start ${payload}`);
    card(refused, { title: 'This link has expired' });
    expect(allText(refused)).not.toContain('Send exactly');
  });

  test('Continue privately resumes the same draft in the private chat', async () => {
    const g = new ChatUser(h, { userId: 's5', chatId: 'group-2', chatKind: 'group' });
    const ask = await g.says('/swap 12 usdc arbitrum base');
    const link = findButton(ask, 'Continue privately');
    const dm = new ChatUser(h, { userId: 's5' });
    card(await dm.says(`/start ${link.kind === 'deeplink' ? link.payload : ''}`), {
      contains: ['Continuing where you left off', 'So far: 12 USDC on Arbitrum One → USDC on Base', 'address on Base'],
    });
    card(await dm.says(EVM), { contains: ['refunds'] });
    // The group no longer takes answers for it.
    expect(await g.says('0x0000000000000000000000000000000000000001')).toEqual([]);
  });

  test('a refund address of the wrong family is refused; a right one shows on the confirmation', async () => {
    const u = new ChatUser(h, { userId: 's6' });
    await u.says('/swap 100 USDC arbitrum base');
    await u.says(EVM);
    card(await u.says(TON), {
      contains: [
        '⚠️ That is not a valid Arbitrum One address',
        '0x followed by 40 hex characters',
        'So far: 100 USDC on Arbitrum One → USDC on Base',
      ],
    });
    const next = await u.says('0x52908400098527886E0F7030069857D2E4169EE7');
    const confirm = next.some((r) => replyButtons(r).some((b) => b.label === 'No refuel')) ? await u.presses('No refuel') : next;
    card(confirm, { title: 'Confirm your swap', contains: ['Refund address: 0x52908400098527886E0F7030069857D2E4169EE7'] });
  });

  test('refuel on shows what arrives for gas', async () => {
    const u = new ChatUser(h, { userId: 's7' });
    await u.says('/swap 100 USDC arbitrum base');
    await u.says(EVM);
    card(await u.presses('Skip (no refund address)'), {
      contains: ['Refuel: also get a little ETH on Base'],
      buttons: ['Yes, refuel', 'No refuel'],
    });
    card(await u.presses('Yes, refuel'), { title: 'Confirm your swap', contains: [/Refuel: 0\.000\d+ ETH on Base/] });
  });

  test('answering the refuel question asks for one quote, whichever the answer', async () => {
    for (const [who, answer] of [
      ['s7y', 'Yes, refuel'],
      ['s7n', 'No refuel'],
    ] as const) {
      const u = new ChatUser(h, { userId: who });
      await u.says('/swap 100 USDC arbitrum base');
      await u.says(EVM);
      await u.presses('Skip (no refund address)');
      const before = h.sandbox.requestCount('getQuote');
      const confirm = card(await u.presses(answer), { title: 'Confirm your swap' });
      expect(h.sandbox.requestCount('getQuote') - before).toBe(1);
      // The card's words point at the figures where they are: below the lines.
      expect(replyText(confirm)).toContain('the figures below are the current quote');
      expect(replyText(confirm)).not.toContain('figures above');
    }
  });

  test('/cancel and the Cancel button drop the draft; old buttons then expire', async () => {
    const u = new ChatUser(h, { userId: 's8' });
    const ask = await u.says('/swap');
    card(await u.says('/cancel'), { title: 'Cancelled' });
    card(await u.presses('Arbitrum One', ask), { title: 'This button has expired' });
    const again = await u.says('/swap 1 eth arbitrum base');
    card(await u.presses('Cancel', again), { title: 'Cancelled' });
    expect(allText(await u.says(EVM))).toContain('Not sure what you mean');
  });

  test('Swap this on a quote says nothing was dropped when nothing was; with an unfinished swap open, it says so', async () => {
    const fresh = new ChatUser(h, { userId: 's9a' });
    await fresh.says('/quote 100 USDC arbitrum base');
    const asked = await fresh.presses('Swap this');
    card(asked, { title: 'New swap', contains: ['address on Base'] });
    expect(allText(asked)).not.toContain('dropped');

    const busy = new ChatUser(h, { userId: 's9b' });
    await busy.says('/swap 50 usdc arbitrum base');
    // A complete quote leaves the unfinished swap alone...
    await busy.says('/quote 100 USDC arbitrum base');
    expect(allText(await busy.says(EVM))).toContain('refunds');
    // ...and Swap this replaces it, saying so.
    await busy.says('/quote 100 USDC arbitrum base');
    card(await busy.presses('Swap this'), { title: 'New swap', contains: ['Your unfinished swap was dropped'] });
  });

  test('a new /swap replaces the unfinished one and says so', async () => {
    const u = new ChatUser(h, { userId: 's9' });
    const first = await u.says('/swap 5 usdc arbitrum base');
    card(await u.says('/swap 7 usdc base arbitrum'), {
      contains: ['Your unfinished swap was dropped', 'So far: 7 USDC on Base → USDC on Arbitrum One'],
    });
    card(await u.presses('Cancel', first), { title: 'Nothing to cancel' });
  });

  test('an unconfirmed create warns not to pay twice, and Confirm cannot send it again', async () => {
    const u = new ChatUser(h, { userId: 's10' });
    const confirm = await u.toConfirmation('/swap 30 usdc arbitrum base', EVM);
    h.sandbox.injectFault({ status: 500, count: 1, pathPrefix: '/api/v2/swaps' });
    card(await u.presses('Confirm', confirm), {
      title: 'Could not confirm the swap was created',
      contains: ['Check /history or /status in a minute.', 'Do not pay twice.'],
    });
    const after = h.sandbox.requestCount();
    const again = await u.presses('Confirm', confirm);
    expect(allText(again)).not.toContain('Deposit for swap');
    expect(h.sandbox.requestCount()).toBe(after);
  });
});

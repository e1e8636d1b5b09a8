import { beforeEach, describe, expect, test } from 'vitest';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import { allText, card, ChatUser, findButton, useHarness } from './support/conversation.js';
import { trimmedLikeLiveCapture } from './support/shape-proxy.js';

/**
 * Issue 10 and 11: a created swap is never lost to a cut-down answer, its creator always has a
 * way back to the deposit details, and nothing private reaches a group or another person.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const SWAP_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

const h = useHarness({ reshape: true });
beforeEach(() => {
  const proxy = h.proxy;
  if (!proxy) throw new Error('harness without the shape proxy');
  proxy.createShape = undefined;
  proxy.failNext.clear();
});

const swapIdOf = (replies: Reply[]): string => {
  const m = /Swap id: ([0-9a-f-]{36})/.exec(allText(replies));
  if (!m) throw new Error(`no swap id in:\n${allText(replies)}`);
  return m[1] as string;
};

/** From /swap to the confirmation card, for a user in a chat. */
const toConfirm = (u: ChatUser): Promise<Reply[]> => u.toConfirmation('/swap 100 USDC arbitrum base', EVM);

/** The deposit address the sandbox gave this swap (read straight from the service). */
async function depositAddressOf(swapId: string): Promise<string> {
  const actions = await h.api.getDepositActions(swapId);
  const address = actions[0]?.to_address;
  if (!address) throw new Error('the sandbox gave no deposit address');
  return address;
}

/** Every reply that would show in the chat itself (not privately to the user). */
const shownHere = (replies: Reply[]): Reply[] => replies.filter((r) => r.target === 'here');

describe('a created swap is never lost (issue 10)', () => {
  test('a create answer cut down like the live capture still shows the swap id, the deposit card, /history and follows it', async () => {
    h.proxy!.createShape = trimmedLikeLiveCapture;
    const u = new ChatUser(h, { userId: 'cut1' });
    const confirm = await toConfirm(u);
    const created = await u.presses('Confirm', confirm);
    expect(allText(created)).not.toMatch(/did not answer in time|Could not confirm/);
    const id = swapIdOf(created);
    const address = await depositAddressOf(id);
    card(created, {
      title: 'Deposit for swap',
      contains: ['Send exactly 100 USDC on Arbitrum One', address, `Swap id: ${id}`],
      buttons: ['Copy address'],
      target: 'dm',
    });
    card(await u.says('/history'), { title: 'Your swaps (1)', contains: [id] });
    expect(h.tracking.followersOf(id)).toEqual(['console:private:cut1']);
  });

  test('deposit actions missing from the create answer are loaded from GET /swaps/{id}/deposit_actions', async () => {
    h.proxy!.createShape = (data) => ({ ...data, deposit_actions: [] });
    const u = new ChatUser(h, { userId: 'cut2' });
    const created = await u.presses('Confirm', await toConfirm(u));
    const id = swapIdOf(created);
    expect(h.proxy!.requests).toContain(`GET /api/v2/swaps/${id}/deposit_actions`);
    const address = await depositAddressOf(id);
    card(created, { title: 'Deposit for swap', contains: ['Send exactly 100 USDC on Arbitrum One', address] });
    expect(allText(created)).not.toContain('not given yet');
  });

  test('when the deposit details cannot be loaded, the swap id is shown with a way back, and no address is guessed', async () => {
    h.proxy!.createShape = trimmedLikeLiveCapture;
    const u = new ChatUser(h, { userId: 'cut3' });
    const confirm = await toConfirm(u);
    h.proxy!.createShape = (data) => ({ swap: { id: (data.swap as { id: string }).id, status: 'user_transfer_pending' } });
    // Neither GET /swaps/{id} nor its deposit actions answer.
    h.proxy!.failNext.set('GET /api/v2/swaps/', 50);
    const created = await u.presses('Confirm', confirm);
    const id = (SWAP_ID.exec(allText(created)) ?? [])[0] as string;
    expect(id).toMatch(SWAP_ID);
    expect(allText(created)).not.toMatch(/Send exactly|Could not confirm/);
    const note = card(created, { contains: [id, 'Do not send anything'], buttons: ['Deposit details'], target: 'dm' });
    card(await u.says('/history'), { title: 'Your swaps (1)', contains: [id] });
    expect(h.tracking.followersOf(id)).toEqual(['console:private:cut3']);

    // Once the service answers again, the button brings the card.
    h.proxy!.failNext.clear();
    card(await u.presses('Deposit details', [note]), {
      title: 'Deposit for swap',
      contains: ['Send exactly 100 USDC on Arbitrum One', await depositAddressOf(id)],
      target: 'dm',
    });
  });
});

describe('/status and deposit details (issue 10)', () => {
  test('the creator in private sees the deposit details while the swap waits; not once the deposit is seen', async () => {
    const u = new ChatUser(h, { userId: 'st-own' });
    const id = swapIdOf(await u.presses('Confirm', await toConfirm(u)));
    const address = await depositAddressOf(id);
    const waiting = await u.says(`/status ${id}`);
    card(waiting, { title: 'Waiting for your deposit', contains: [`To address: ${EVM}`] });
    card(waiting, { title: 'Deposit for swap', contains: ['Send exactly 100 USDC on Arbitrum One', address], target: 'dm' });
    // The deep link of /start gives the same.
    const payload = `dep_${id.replace(/-/g, '')}`;
    card(await u.says(`/start ${payload}`), { title: 'Deposit for swap', contains: [address] });

    h.sandbox.deposit(id);
    const seen = await u.says(`/status ${id}`);
    card(seen, { title: /Deposit (seen|received)/ });
    expect(allText(seen)).not.toContain(address);
    expect(allText(seen)).not.toContain('Send exactly');
    const late = await u.says(`/start ${payload}`);
    expect(allText(late)).not.toContain(address);
    expect(allText(late)).not.toContain('Send exactly');
  });

  test('in a group, even the creator gets the masked card without deposit details', async () => {
    const u = new ChatUser(h, { userId: 'st-grp' });
    const id = swapIdOf(await u.presses('Confirm', await toConfirm(u)));
    const address = await depositAddressOf(id);
    const g = new ChatUser(h, { userId: 'st-grp', chatId: 'grp-status', chatKind: 'group' });
    const text = allText(await g.says(`/status ${id}`));
    expect(text).toContain('To address: 0xd8dA…6045');
    expect(text).not.toContain(EVM);
    expect(text).not.toContain(address);
    expect(text).not.toContain('Send exactly');
  });

  test('someone else with the full swap id gets a masked card in private too', async () => {
    const u = new ChatUser(h, { userId: 'st-owner2' });
    const id = swapIdOf(await u.presses('Confirm', await toConfirm(u)));
    const other = new ChatUser(h, { userId: 'st-stranger' });
    const replies = await other.says(`/status ${id}`);
    card(replies, { title: 'Waiting for your deposit', contains: ['To address: 0xd8dA…6045'] });
    expect(allText(replies)).not.toContain(EVM);
    expect(allText(replies)).not.toContain(await depositAddressOf(id));
    expect(replies).toHaveLength(1);
  });
});

describe('Confirm is idempotent and only for its creator (issue 11)', () => {
  test('a repeated Confirm creates nothing and sends no second deposit card: the creator is told where it is (issue 23)', async () => {
    const u = new ChatUser(h, { userId: 'rep1' });
    const confirm = await toConfirm(u);
    const id = swapIdOf(await u.presses('Confirm', confirm));
    const creates = h.sandbox.requestCount('createSwap');
    const again = await u.presses('Confirm', confirm);
    expect(again.filter((r) => r.title?.startsWith('Deposit'))).toEqual([]);
    card(again, { title: /already created/, contains: [`/status ${id}`], target: 'ephemeral' });
    expect(h.sandbox.requestCount('createSwap')).toBe(creates);
  });

  test('in a group, a repeated Confirm sends no second card: the presser alone gets the note, the group nothing', async () => {
    const g = new ChatUser(h, { userId: 'rep2', chatId: 'grp-rep', chatKind: 'group' });
    const confirm = await toConfirm(g);
    const first = await g.presses('Confirm', confirm);
    const id = swapIdOf(first);
    // The group is never told the full swap id, nor promised a delivery that may have failed.
    for (const r of shownHere(first)) {
      expect(replyText(r)).not.toContain(id);
      expect(replyText(r)).not.toContain('sent to you privately');
    }
    const deposit = card(first, { title: 'Deposit for swap', contains: [await depositAddressOf(id)], target: 'dm' });
    expect(replyButtons(deposit.dmFallback as Reply).map((b) => b.kind)).toEqual(['deeplink']);
    expect(replyText(deposit.dmFallback as Reply)).not.toContain(id);
    const again = await g.presses('Confirm', confirm);
    expect(again.filter((r) => r.title?.startsWith('Deposit'))).toEqual([]);
    expect(again.map((r) => r.target)).toEqual(['ephemeral']);
    expect(shownHere(again)).toEqual([]);
  });

  test("another member's press on a Confirm, live or stale, gets an alert only: no swap id, no edit", async () => {
    const g = new ChatUser(h, { userId: 'own3', chatId: 'grp-stale', chatKind: 'group' });
    const confirm = await toConfirm(g);
    const other = new ChatUser(h, { userId: 'other3', chatId: 'grp-stale', chatKind: 'group' });
    const creates = h.sandbox.requestCount('createSwap');
    for (const stage of ['live', 'stale']) {
      if (stage === 'stale') await g.presses('Confirm', confirm);
      const answer = await other.presses('Confirm', confirm);
      expect(answer, stage).toHaveLength(1);
      expect(answer[0]?.target, stage).toBe('ephemeral');
      expect(answer[0]?.mode, stage).not.toBe('edit');
      expect(allText(answer), stage).not.toMatch(SWAP_ID);
    }
    expect(h.sandbox.requestCount('createSwap')).toBe(creates + 1);
  });

  test("another member's Cancel press gets an alert only and leaves the creator's wizard alone", async () => {
    const g = new ChatUser(h, { userId: 'own4', chatId: 'grp-cancel', chatKind: 'group' });
    const ask = await g.says('/swap 100 USDC arbitrum base');
    const other = new ChatUser(h, { userId: 'other4', chatId: 'grp-cancel', chatKind: 'group' });
    const answer = await other.presses('Cancel', ask);
    expect(answer).toHaveLength(1);
    expect(answer[0]?.target).toBe('ephemeral');
    expect(answer[0]?.mode).not.toBe('edit');
    // The creator's draft is untouched: the address answer still lands.
    card(await g.says(EVM), { contains: ['refunds'] });
  });
});

describe('/history is private (issue 11)', () => {
  test('in a group it goes privately, and the fallback is a deep link, never the list', async () => {
    const u = new ChatUser(h, { userId: 'hist1' });
    const id = swapIdOf(await u.presses('Confirm', await toConfirm(u)));
    const g = new ChatUser(h, { userId: 'hist1', chatId: 'grp-hist', chatKind: 'group' });
    const replies = await g.says('/history');
    expect(replies.length).toBeGreaterThan(0);
    for (const r of replies) {
      expect(r.target).toBe('dm');
      expect(r.dmFallback).toBeDefined();
      expect(replyText(r.dmFallback as Reply)).not.toContain(id);
    }
    const link = findButton([replies[0]?.dmFallback as Reply], /history/i);
    expect(link.kind).toBe('deeplink');
    // The deep link opens the history in the private chat.
    card(await u.says(`/start ${link.kind === 'deeplink' ? link.payload : ''}`), { title: 'Your swaps (1)', contains: [id] });
  });
});

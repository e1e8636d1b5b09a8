import { describe, expect, test } from 'vitest';
import { replyButtons, type Reply } from '../../src/contracts/reply.js';
import { allText, card, ChatUser, startHarness, useHarness } from './support/conversation.js';

const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const h = useHarness();

/** Creates a swap through the conversation and returns its id. */
async function createSwap(userId: string, line = '/swap 100 USDC arbitrum base', refund?: string): Promise<string> {
  return (await new ChatUser(h, { userId }).createsSwap(line, EVM, refund)).id;
}

describe('/status through the lifecycle', () => {
  test('waiting, deposit confirming with a progress bar and explorer link, then completed', async () => {
    const id = await createSwap('st1');
    const u = new ChatUser(h, { userId: 'st1' });
    card(await u.says(`/status ${id}`), {
      title: `Swap ${id.slice(0, 8)}: Waiting for your deposit`,
      contains: [
        'Layerswap is waiting for the deposit',
        'Next: Send the exact amount',
        /Usually done about \d+ seconds after the deposit is confirmed/,
        'Send: 100 USDC on Arbitrum One',
        `To address: ${EVM}`,
      ],
      buttons: ['Refresh', 'Track'],
    });
    h.sandbox.deposit(id);
    // The deposit is listed and counting confirmations: seen, confirming k/n, never "send".
    const confirming = card(await u.says(`/status ${id}`), {
      title: /Deposit seen, confirming \d\/3$/,
      contains: [/Your deposit: 100 USDC · \w+ · \d\/3 [▓░]{3}/, /Expected by \d\d:\d\d UTC/, 'do not send it again'],
    });
    expect(allText([confirming])).not.toMatch(/Send the exact amount/);
    const link = confirming.lines.flat().find((s) => s.kind === 'link');
    expect(link?.kind === 'link' && link.url).toMatch(/^https:\/\/arbiscan\.io\/tx\/0x[0-9a-f]{64}$/);
    h.clock.advance(120_000);
    const done = await u.says(`/status ${id}`);
    card(done, {
      title: 'Completed',
      contains: [
        'The funds were delivered',
        'Your deposit: 100 USDC · completed · 3/3 ▓▓▓',
        /Payout: 9\d(\.\d+)? USDC · completed/,
        /Received: 9\d(\.\d+)? USDC on Base/,
      ],
      buttons: ['Refresh'],
    });
    expect(replyButtons(done[0] as Reply).map((b) => b.label)).not.toContain('Track');
  });

  test('Refresh replaces the card in place', async () => {
    const id = await createSwap('st2');
    const u = new ChatUser(h, { userId: 'st2' });
    await u.says(`/status ${id}`);
    const refreshed = await u.presses('Refresh');
    expect(refreshed[0]?.mode).toBe('edit');
    card(refreshed, { title: 'Waiting for your deposit' });
  });

  test('a failed execution with a refund address: refund on its way, then refunded', async () => {
    const id = await createSwap('st3', '/swap 100 USDC arbitrum base', '0x52908400098527886E0F7030069857D2E4169EE7');
    const u = new ChatUser(h, { userId: 'st3' });
    h.sandbox.deposit(id, { outcome: 'fail_execution' });
    const seen = new Set<string>();
    for (let step = 0; step < 120 && !seen.has('Refunded'); step++) {
      h.clock.advance(1_000);
      seen.add((await u.says(`/status ${id}`))[0]?.title?.split(': ')[1] ?? '');
    }
    expect([...seen]).toContain('Refund on its way');
    card(u.last, { title: 'Refunded', contains: ['Your deposit was returned to the refund address', /Refund: \d+(\.\d+)? USDC/] });
  });

  test('too little deposited: failed, with the reason explained', async () => {
    const id = await createSwap('st4');
    const u = new ChatUser(h, { userId: 'st4' });
    h.sandbox.deposit(id, { amount: 1 });
    h.clock.advance(120_000);
    card(await u.says(`/status ${id}`), {
      title: 'Failed',
      contains: ['Why: The deposit was less than the minimum for this route.', 'Next: Contact Layerswap support'],
    });
  });

  test('no deposit in time: expired, and what that means', async () => {
    const id = await createSwap('st5');
    h.clock.advance(7 * 3_600_000);
    card(await new ChatUser(h, { userId: 'st5' }).says(`/status ${id}`), {
      title: 'Expired',
      contains: ['No deposit arrived in time', 'Do not send anything to its deposit address'],
    });
  });

  test('in a group the card masks addresses and never shows deposit details', async () => {
    const id = await createSwap('st6');
    const g = new ChatUser(h, { userId: 'st6', chatId: 'grp-st', chatKind: 'group' });
    const text = allText(await g.says(`/status ${id}`));
    expect(text).toContain('To address: 0xd8dA…6045');
    expect(text).not.toContain(EVM);
    expect(text).not.toMatch(/deposit address:|Send exactly/i);
  });
});

describe('/track, /untrack, /tracking', () => {
  test('in private: follow, list, stop', async () => {
    const id = await createSwap('tr1');
    const other = new ChatUser(h, { userId: 'tr1-friend' });
    card(await other.says(`/track ${id}`), { title: 'Following this swap', contains: ['/untrack', 'live status card'] });
    // Only the confirmation: the tracking worker posts the one live card (no stale snapshot).
    expect(other.last).toHaveLength(1);
    card(await other.says(`/track ${id}`), { title: 'Already following' });
    card(await other.says('/tracking'), { title: 'Followed here (1)', contains: [id] });
    card(await other.says(`/untrack ${id}`), { title: 'Stopped following' });
    card(await other.says(`/untrack ${id}`), { title: 'Not following it' });
    card(await other.says('/tracking'), { title: 'Not following any swaps' });
  });

  test('the Track button on a card follows in that chat', async () => {
    const id = await createSwap('tr2');
    const u = new ChatUser(h, { userId: 'tr2-viewer' });
    await u.says(`/status ${id}`);
    card(await u.presses('Track'), { title: 'Following this swap' });
    expect(h.tracking.followersOf(id)).toContain('console:private:tr2-viewer');
  });

  test('in a group, a non-admin is refused and an admin may', async () => {
    const id = await createSwap('tr3');
    const member = new ChatUser(h, { userId: 'member', chatId: 'grp-tr', chatKind: 'group', admin: false });
    card(await member.says(`/track ${id}`), { title: 'Only admins can do that here' });
    expect(h.tracking.followersOf(id)).not.toContain('console:group:grp-tr');
    const admin = new ChatUser(h, { userId: 'admin', chatId: 'grp-tr', chatKind: 'group', admin: true });
    card(await admin.says(`/track ${id}`), { title: 'Following this swap' });
    expect(h.tracking.followersOf(id)).toContain('console:group:grp-tr');
    card(await member.says(`/untrack ${id}`), { title: 'Only admins can do that here' });
    card(await admin.says(`/untrack ${id}`), { title: 'Stopped following' });
  });

  test('the chat limit is explained', async () => {
    const h2 = await startHarness({ chatLimit: 1 });
    try {
      const u = new ChatUser(h2, { userId: 'lim' });
      const ids: string[] = [];
      for (const amount of ['10', '11']) {
        ids.push((await u.createsSwap(`/swap ${amount} USDC arbitrum base`, EVM)).id);
      }
      // The second swap could not be followed: the creator is told so.
      const viewer = new ChatUser(h2, { userId: 'lim' });
      card(await viewer.says(`/track ${ids[1]}`), {
        title: 'Cannot follow more swaps',
        contains: ['This chat follows 1 swap,', '/untrack'],
      });
    } finally {
      await h2.close();
    }
  });
});

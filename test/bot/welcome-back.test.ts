import { describe, expect, it } from 'vitest';
import { allText, ChatUser, useHarness } from './support/conversation.js';

/**
 * Welcome back after a block (issue 32): a swap that finished while the user was away is told with
 * its outcome now, not with the status tracking last saw ("not finished yet").
 */
const h = useHarness();

describe('welcome back', () => {
  it('reads each dropped swap as it stands now: completed meanwhile, said as completed', async () => {
    const u = new ChatUser({ core: h.core }, { userId: 'away-1' });
    const { id } = await u.createsSwap('/swap 100 USDC arbitrum base', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
    h.sandbox.deposit(id);
    h.clock.advance(10 * 60_000);
    expect((await h.api.getSwap(id)).swap.status).toBe('completed');
    // Tracking dropped it while the chat refused messages, last seen waiting for its deposit.
    let told = false;
    Object.assign(h.tracking, {
      droppedWhileAway: async () => (told ? [] : ((told = true), [{ swapId: id, since: 0, status: 'user_transfer_pending' }])),
    });
    const text = allText(await u.says('/help'));
    expect(text).toContain(`${id}: Completed`);
    expect(text).not.toContain('not finished yet');
  });
});

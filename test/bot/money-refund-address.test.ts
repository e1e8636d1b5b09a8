import { describe, expect, it } from 'vitest';
import { allText, card, ChatUser, useHarness } from './support/conversation.js';

/**
 * The refund address as the real service answers: its swap object has no `refund_address` (the
 * reference's swap fields, and no real answer in test/fixtures/layerswap has it, not even the
 * docs' refunded swap). A proxy strips it from the sandbox's answers, so what the bot says about
 * refunds comes from its own record of the creation: promised where one was given, "no refund
 * address" only where the creator skipped it, neither claimed to someone who cannot know.
 */
const h = useHarness({ reshape: true });
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const REFUND = '0x52908400098527886E0F7030069857D2E4169EE7';

function asTheRealService(): void {
  h.proxy!.answerShape = (label, data) => {
    const d = data as { swap?: Record<string, unknown> } | undefined;
    if (!label.startsWith('GET /api/v2/swaps/') || !d?.swap) return data;
    const { refund_address: _dropped, ...swap } = d.swap;
    return { ...d, swap };
  };
}

describe('the refund address, from our record', () => {
  it('given at creation: /status shows it and promises the refund; Swap again keeps it', async () => {
    asTheRealService();
    const u = new ChatUser(h, { userId: 'ra-given' });
    const { id } = await u.createsSwap('/swap 100 USDC arbitrum base', EVM, REFUND);
    // As the real service: the answer does not say.
    expect((await h.api.getSwap(id)).swap.refund_address).toBeUndefined();
    h.sandbox.deposit(id, { outcome: 'fail_execution' });
    h.clock.advance(40_000);
    const status = allText(await u.says(`/status ${id}`));
    expect(status).toContain(`Refund address: ${REFUND}`);
    expect(status).not.toMatch(/No refund address was given|Without a refund address/);
    const list = card(await u.says('/history'), { title: 'Your swaps' });
    card(await u.presses(`Again: ${id.slice(0, 8)}`, [list]), { title: 'Confirm your swap', contains: [REFUND] });
  });

  it('skipped at creation: the creator is told support returns the funds; anyone else is promised nothing either way', async () => {
    asTheRealService();
    const u = new ChatUser(h, { userId: 'ra-none' });
    const { id } = await u.createsSwap('/swap 100 USDC arbitrum base', EVM);
    h.sandbox.deposit(id, { outcome: 'fail_execution' });
    h.clock.advance(3_600_000);
    const mine = allText(await u.says(`/status ${id}`));
    expect(mine).toContain('No refund address was given, so Layerswap cannot refund by itself');
    const other = allText(await new ChatUser(h, { userId: 'ra-other' }).says(`/status ${id}`));
    expect(other).not.toMatch(/No refund address was given|paid out soon or refunded|refund goes to your refund address/);
    expect(other).toContain('Without a refund address given when the swap was made');
  });
});

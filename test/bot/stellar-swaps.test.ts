import { describe, expect, test } from 'vitest';
import { allText, card, ChatUser, useHarness } from './support/conversation.js';

/**
 * Stellar through the real core against the sandbox (which models Layerswap's Stellar: one shared
 * deposit account, the memo telling swaps apart; USDC a trustline asset): the address check before
 * any API call, the trustline note on the confirm card, and the memo as a required part of the
 * deposit card.
 */
const h = useHarness();
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const MINE = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ';

describe('Stellar swaps', () => {
  test('a Stellar deposit card shows the shared address and the memo, and says the deposit is lost without it', async () => {
    const u = new ChatUser(h, { userId: 'xlm1' });
    const { id, deposit } = await u.createsSwap('/swap 25 USDC stellar base', EVM);
    const actions = await h.api.getDepositActions(id);
    const memo = actions[0]?.call_data ?? '';
    expect(memo).toMatch(/^\d+$/);
    card(deposit, {
      title: 'Deposit for swap',
      contains: [
        'Send exactly 25 USDC on Stellar',
        actions[0]?.to_address ?? '?',
        memo,
        'Without it the deposit cannot be matched and is lost',
      ],
      buttons: ['Copy address'],
      target: 'dm',
    });
    // A second swap: the same account, its own memo.
    const other = await new ChatUser(h, { userId: 'xlm2' }).createsSwap('/swap 30 USDC stellar base', EVM);
    const second = await h.api.getDepositActions(other.id);
    expect(second[0]?.to_address).toBe(actions[0]?.to_address);
    expect(second[0]?.call_data).not.toBe(memo);
    expect(allText(other.deposit)).toContain(second[0]?.call_data ?? '?');
  });

  test('to Stellar: a wrong address is refused before any API call; the confirm card says where to check the trustline', async () => {
    const u = new ChatUser(h, { userId: 'xlm3' });
    await u.says('/swap 40 USDC base stellar');
    card(await u.says('GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGA'), { contains: ['checksum of that Stellar address'] });
    card(await u.says('SAB5556L5AN5KSR5WF7UOEFDCIODEWEO7H2UR4S5R62DFTQOGLKOVZDY'), { contains: ['That is a Stellar secret key'] });
    const confirm = await u.toConfirmation('/swap 40 USDC base stellar', MINE);
    card(confirm, {
      title: 'Confirm your swap',
      contains: ['needs a trustline for USDC', MINE, 'explorer page'],
    });
    expect(JSON.stringify(confirm)).toContain(`https://stellar.expert/explorer/public/account/${MINE}`);
  });
});

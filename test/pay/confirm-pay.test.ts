import { createPublicClient, erc20Abi, http, parseUnits, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { PAY_ORIGIN, usePayStack } from './stack.js';
import { newGroup, newUser } from '../e2e/telegram/harness.js';
import { TgUser } from '../e2e/telegram/world.js';
import type { StoredMessage } from '../e2e/telegram/fake-rules.js';
import { waitFor } from '../support/wait.js';
import { fundedTestWallet, localChain } from './browser.js';
import { payCard, textOf } from './support.js';

/**
 * "Pay from wallet" at the confirm step (issue 35), in a real browser against the runtime as
 * `swapbot start` composes it, the sandbox on its local EVM chain and the fake Telegram Bot API:
 * one tap at the confirmation creates the swap in the wallet flow (no deposit address), the private
 * card's web_app button opens the page, the injected wallet connects and pays the swap's own
 * `transfer` action, and the chat says "Deposit seen". Nothing is copied on the way.
 */
const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

const stack = usePayStack('confirmpay');

const chain = () => localChain(stack.evmRpc);
const pub = () => createPublicClient({ chain: chain(), transport: http(stack.evmRpc) });
const usdcOf = (who: Hex) => pub().readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

/** A fresh account with USDC and a little ETH for gas (a person's wallet on Arbitrum). */
const fundedWallet = (usdc = '500') => fundedTestWallet(stack.evmRpc, stack.rt.sandbox!.chain!.fundedKey, { usdc });

const buttonsOf = (m: StoredMessage) => ((m.markup?.inline_keyboard ?? []) as Array<Array<Record<string, unknown>>>).flat();

/** From the chat's first message to the confirmation, then "Pay from wallet" there: the deposit card and its web_app URL. */
async function payFromConfirmation(u: TgUser, amount: number): Promise<{ swapId: string; payUrl: string; card: StoredMessage }> {
  u.says(`/swap ${amount} USDC arbitrum base`);
  const { confirm } = await u.toConfirmation(DEST);
  // At the confirmation it is a button the core answers (it creates the swap), not a link.
  const offer = buttonsOf(confirm).find((b) => b.text === 'Pay from wallet');
  expect(offer?.callback_data).toBeTruthy();
  const before = u.messages().length;
  await u.presses('Pay from wallet');
  return payCard(u, before);
}

describe('"Pay from wallet" at the confirm step', () => {
  it('from the first message to "Deposit seen" without copying anything; a second tap creates nothing more', async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const creates = stack.rt.sandbox!.requestCount('createSwap');
    const { swapId, payUrl, card } = await payFromConfirmation(a, 100);
    expect(stack.rt.sandbox!.requestCount('createSwap')).toBe(creates + 1);
    // Created in the wallet flow: no deposit address, so the card offers nothing to copy or send by hand.
    expect((await stack.rt.api.getSwap(swapId, { exclude_deposit_actions: true })).swap.use_deposit_address).toBe(false);
    expect(textOf(card)).toContain('Pay from your wallet');
    expect(textOf(card)).not.toMatch(/Send exactly|0x[0-9a-fA-F]{40}/);
    expect(buttonsOf(card).map((b) => b.text)).not.toContain('Copy address');
    expect(payUrl).toBe(`${PAY_ORIGIN}/pay/?swap=${swapId}`);

    const wallet = await fundedWallet();
    const { context, page } = await stack.open({ wallet, initData: stack.initDataFor(alice.id) });
    await page.goto(payUrl);
    // The page draws its figures once it has read the swap: the same money as the card.
    await page
      .locator('#fields')
      .getByText(/100 USDC/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByRole('button', { name: 'Pay 100 USDC' }).click();
    await page.getByText(/Sent: transaction 0x[0-9a-f]{64}/).waitFor();
    // The wallet sent the swap's own transfer action: 100 USDC left it, in one transaction.
    expect(wallet.sent).toHaveLength(1);
    expect(await usdcOf(wallet.address)).toBe(parseUnits('400', 6));
    await waitFor(() => a.messages().find((m) => /Deposit seen/.test(textOf(m)) && textOf(m).includes(swapId.slice(0, 8))), 'Deposit seen');
    await context.close();

    // The confirmation's button again (a second tap, a redelivered update): no second swap, no second card.
    const cards = a.messages().filter((m) => /Swap id/.test(textOf(m)) && /Pay from your wallet/.test(textOf(m))).length;
    await a.presses('Pay from wallet');
    expect(stack.rt.sandbox!.requestCount('createSwap')).toBe(creates + 1);
    expect(a.messages().filter((m) => /Swap id/.test(textOf(m)) && /Pay from your wallet/.test(textOf(m)))).toHaveLength(cards);
  });

  it("refuses another user's initData for that swap, showing nothing of it", async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const { payUrl } = await payFromConfirmation(a, 30);
    const bob = newUser('Bob');
    const wallet = await fundedWallet();
    const { context, page } = await stack.open({ wallet, initData: stack.initDataFor(bob.id) });
    await page.goto(payUrl);
    await page.getByText(/opens only for the person who created the swap/).waitFor();
    await expect(page.locator('#fields').innerText()).resolves.not.toMatch(/USDC/);
    await expect(page.locator('#pay').isVisible()).resolves.toBe(false);
    expect(wallet.calls).toEqual([]);
    await context.close();
  });

  it('is not offered in a group: the confirmation there keeps the plain Confirm', async () => {
    const carol = newUser('Carol');
    const g = new TgUser(stack.fake, carol, newGroup('Swap club'));
    g.says(`/swap@${stack.fake.bot.username} 15 usdc arbitrum base`);
    const { confirm } = await g.toConfirmation(DEST);
    const labels = buttonsOf(confirm).map((b) => b.text);
    expect(labels).toContain('Confirm');
    expect(labels).not.toContain('Pay from wallet');
  });
});

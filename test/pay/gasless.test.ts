import { createPublicClient, erc20Abi, http, parseUnits, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { usePayStack } from './stack.js';
import { newUser } from '../e2e/telegram/harness.js';
import { TgUser } from '../e2e/telegram/world.js';
import type { StoredMessage } from '../e2e/telegram/fake-rules.js';
import { waitFor } from '../support/wait.js';
import { fundedTestWallet, localChain } from './browser.js';
import { payCard, textOf } from './support.js';

/**
 * "Pay without gas" end to end in a real browser: chosen at the confirm step (quoted and created
 * with use_gasless), the pay page has the injected wallet sign the swap's EIP-712 authorization,
 * the web process hands it to the sandbox's POST /swaps/{id}/authorize, which checks it and makes
 * the EIP-3009 transfer on the local chain with its relayer paying the gas; the sandbox's chain
 * watch sees the USDC arrive and the chat says "Deposit seen". The wallet holds no ETH at all.
 */
const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

const stack = usePayStack('gasless');

const chain = () => localChain(stack.evmRpc);
const usdcOf = (who: Hex) =>
  createPublicClient({ chain: chain(), transport: http(stack.evmRpc) }).readContract({
    address: USDC,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [who],
  });

/** A fresh account holding USDC and no ETH at all: only a gasless payment can move its money. */
const usdcOnlyWallet = (usdc = '500') => fundedTestWallet(stack.evmRpc, stack.rt.sandbox!.chain!.fundedKey, { usdc, eth: '0' });

/** /swap in the private chat, "Pay without gas" at the confirm step, Confirm: the gasless confirm card and the deposit card. */
async function gaslessSwap(
  u: TgUser,
  amount: number,
): Promise<{ swapId: string; payUrl: string; confirm: StoredMessage; card: StoredMessage }> {
  const before = u.messages().length;
  u.says(`/swap ${amount} USDC arbitrum base`);
  await u.toConfirmation(DEST);
  await u.presses('Pay without gas');
  const confirm = await u.sees(/Paying without gas/);
  await u.presses('Confirm');
  return { ...(await payCard(u, before, (m) => /Pay without gas/.test(textOf(m)))), confirm };
}

describe('paying without gas from the wallet page, in a browser', () => {
  it('chosen at the confirm step: the wallet signs, the signature goes to authorize, the USDC moves on the chain, the chat says "Deposit seen"', async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const { swapId, payUrl, confirm, card } = await gaslessSwap(a, 100);
    // A gasless swap has no address to send to: the card shows none and offers no Copy address.
    const swap = await stack.rt.api.getSwap(swapId, { exclude_deposit_actions: true });
    expect(swap.swap.use_deposit_address).toBe(false);
    expect(textOf(card)).not.toMatch(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])[\s\S]*Copy address/);
    const wallet = await usdcOnlyWallet();
    const { context, page } = await stack.open({ wallet, initData: stack.initDataFor(alice.id) });
    await page.goto(payUrl);
    // The same money as the confirm card that was quoted gasless: each deduction line of the page is on it.
    // The page draws its figures after it has read the swap: wait for them before reading.
    await page.locator('#breakdown li').first().waitFor();
    const breakdown = await page.locator('#breakdown li').allInnerTexts();
    expect(breakdown.length).toBeGreaterThan(0);
    for (const b of breakdown) expect(textOf(confirm)).toContain(b);
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByRole('button', { name: 'Pay 100 USDC without gas' }).click();
    await page.getByText(/Signed: Layerswap's paymaster makes the deposit/).waitFor();
    expect(wallet.signed).toHaveLength(1);
    expect(wallet.sent).toEqual([]);
    expect(stack.rt.sandbox!.requestCount('authorizeSwap')).toBeGreaterThan(0);
    // Real money on the chain: the wallet's 100 USDC went to the swap's address.
    expect(await usdcOf(wallet.address)).toBe(parseUnits('400', 6));
    await waitFor(() => a.messages().find((m) => /Deposit seen/.test(textOf(m)) && textOf(m).includes(swapId.slice(0, 8))), 'Deposit seen');
    await context.close();
  });

  it('an expired authorization is signed once more; a signature by another account is refused plainly and moves nothing', async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const initData = stack.initDataFor(alice.id);

    const late = await gaslessSwap(a, 20);
    const wallet = await usdcOnlyWallet();
    let signs = 0;
    // The first signature is handed over after its window closed at the service.
    wallet.beforeSign = () => {
      if (++signs === 1) stack.rt.sandbox!.expireAuthorization(late.swapId);
    };
    const one = await stack.open({ wallet, initData });
    await one.page.goto(late.payUrl);
    await one.page.getByRole('button', { name: 'Connect wallet' }).click();
    await one.page.getByRole('button', { name: 'Pay 20 USDC without gas' }).click();
    await one.page.getByText(/Signed: Layerswap's paymaster makes the deposit/).waitFor();
    expect(wallet.signed).toHaveLength(2);
    expect(await usdcOf(wallet.address)).toBe(parseUnits('480', 6));
    await waitFor(
      () => a.messages().find((m) => /Deposit seen/.test(textOf(m)) && textOf(m).includes(late.swapId.slice(0, 8))),
      'Deposit seen',
    );
    await one.context.close();

    const other = await gaslessSwap(a, 30);
    const mallory = await usdcOnlyWallet();
    mallory.signWith = generatePrivateKey();
    const two = await stack.open({ wallet: mallory, initData });
    await two.page.goto(other.payUrl);
    await two.page.getByRole('button', { name: 'Connect wallet' }).click();
    await two.page.getByRole('button', { name: 'Pay 30 USDC without gas' }).click();
    await two.page.getByText(/Your wallet signed with another account .* Nothing was sent/).waitFor();
    expect(await usdcOf(mallory.address)).toBe(parseUnits('500', 6));
    expect((await stack.rt.api.getSwap(other.swapId, { exclude_deposit_actions: true })).swap.status).toBe('user_transfer_pending');
    await two.context.close();
  });
});

import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http, parseEther } from 'viem';
import { describe, expect, it } from 'vitest';
import { signLink } from '../../src/pay/access.js';
import { newUser } from '../e2e/telegram/harness.js';
import { TgUser } from '../e2e/telegram/world.js';
import type { StoredMessage } from '../e2e/telegram/fake-rules.js';
import { waitFor } from '../support/wait.js';
import { fundedTestWallet, LOCAL_CHAIN_ID, testWallet } from './browser.js';
import { PAY_ORIGIN, usePayStack } from './stack.js';

/**
 * The pay page in a real browser (Debian's headless Chromium through playwright-core) against the
 * real web process (`swapbot start` as the CLI composes it: runtime, web with its /pay route,
 * tracking workers), the sandbox on its local EVM chain, and the fake Telegram Bot API. The person
 * talks to the bot, taps "Pay from wallet" (a web_app button), connects the injected test wallet
 * and pays; the chat then says "Deposit seen" from the chain watcher and the tracker, as for any
 * deposit.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ORIGIN = PAY_ORIGIN;
const SECRET = 'pay-link-secret-for-tests-0123456789abcdef';
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const SHOTS = process.env.PAY_SCREENSHOTS === '1';

const stack = usePayStack('pay');

/** A fresh account with USDC and ETH from the chain's funded account (a person's wallet). */
const fundedWallet = (usdc = '500') => fundedTestWallet(stack.evmRpc, stack.rt.sandbox!.chain!.fundedKey, { usdc });

/** From the chat's first message to the deposit card; its "Pay from wallet" button's URL. */
async function swapThroughChat(u: TgUser, amount = 100, token = 'USDC'): Promise<{ swapId: string; payUrl: string; card: StoredMessage }> {
  const before = u.messages().length;
  u.says(`/swap ${amount} ${token} arbitrum base`);
  await u.toConfirmation(DEST);
  await u.presses('Confirm');
  const card = await waitFor(
    () =>
      u
        .messages()
        .slice(before)
        .find((m) => m.photoSize && /Swap id/.test(m.caption ?? '')),
    'the deposit card',
  );
  const swapId = /Swap id: ([0-9a-f-]{36})/.exec(card.caption ?? '')![1]!;
  const pay = u.button('Pay from wallet').button as { web_app?: { url: string }; url?: string };
  return { swapId, payUrl: pay.web_app!.url, card };
}

/** Taps Pay with the wallet moving to Ethereum (chain 1) between the page's check and the send. */
async function wrongChainAtSend(page: import('playwright-core').Page, wallet: ReturnType<typeof testWallet>): Promise<{ tap: string }> {
  const handle = wallet.handle;
  let checks = 0;
  wallet.handle = async (method, params) => {
    // The page's own check passes; the wallet is elsewhere when viem asks again before sending.
    if (method === 'eth_chainId' && ++checks === 2) wallet.chainId = 1;
    return handle(method, params);
  };
  await page.getByRole('button', { name: 'Pay 20 USDC' }).click();
  const tap = await page
    .locator('#message')
    .getByText(/Nothing was sent/)
    .innerText();
  wallet.handle = handle;
  wallet.chainId = LOCAL_CHAIN_ID;
  return { tap };
}

describe('paying from the wallet page, in a browser', () => {
  it('a Telegram user pays an ERC-20 deposit in two taps; the chat says "Deposit seen", then the swap completes', async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const { swapId, payUrl, card } = await swapThroughChat(a);
    expect(payUrl).toBe(`${ORIGIN}/pay/?swap=${swapId}`);
    const wallet = await fundedWallet();
    const { context, page } = await stack.open({ wallet, initData: stack.initDataFor(alice.id) });
    await page.goto(payUrl);
    await page.getByText('Pay from your wallet').waitFor();
    await expect(page.locator('#fields').innerText()).resolves.toMatch(/100 USDC/);
    await expect(page.locator('#countdown').innerText()).resolves.toMatch(/Time left to pay: \d+:\d\d:\d\d/);
    // No WALLETCONNECT_PROJECT_ID: no WalletConnect button, the note says why, and the page may reach
    // only itself and TON Connect's default bridge (Wallet in Telegram's, for a TON swap).
    await expect(page.locator('#note').innerText()).resolves.toContain('WalletConnect is not set up');
    await expect(page.getByRole('button', { name: 'Connect with WalletConnect' }).count()).resolves.toBe(0);
    expect((await fetch(`${stack.local}/pay/`)).headers.get('content-security-policy')).toContain(
      "connect-src 'self' https://walletbot.me;",
    );
    // Nothing to press but Connect until a wallet is connected (no empty Switch or Pay buttons).
    await expect(page.locator('#switch').isVisible()).resolves.toBe(false);
    await expect(page.locator('#pay').isVisible()).resolves.toBe(false);
    if (SHOTS) await page.screenshot({ path: join(ROOT, 'docs/pay-light.png') });
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByRole('button', { name: 'Pay 100 USDC' }).click();
    await page.getByText(/Sent: transaction 0x[0-9a-f]{64}/).waitFor();
    expect(wallet.sent).toHaveLength(1);
    // The service was told where the deposit is (deposit_speedup), as Layerswap's app does.
    await waitFor(() => (stack.rt.sandbox!.requestCount('speedUpDeposit') > 0 ? true : undefined), 'POST deposit_speedup');
    await a.sees(/Deposit seen/);
    // The deposit card, edited in place, no longer offers to pay (nor anything else that sends money).
    const edited = await waitFor(() => {
      const m = a.messages().find((x) => x.message_id === card.message_id);
      return /Deposit seen/.test(m?.caption ?? '') ? m : undefined;
    }, 'the deposit card edited to "Deposit seen"');
    const labels = ((edited.markup?.inline_keyboard ?? []) as Array<Array<{ text: string }>>).flat().map((b) => b.text);
    expect(labels).not.toContain('Pay from wallet');
    await waitFor(async () => ((await stack.rt.api.getSwap(swapId)).swap.status === 'completed' ? true : undefined), 'the swap completed');
    await a.sees(/Received [\d.]+ USDC on Base/);
    await context.close();
  });

  it('refuses another user, tampered and stale initData, a guessed swap id, and a replayed or expired link, showing nothing of the swap', async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const { swapId, payUrl } = await swapThroughChat(a, 50);
    // The page itself: no inline script, nothing from another origin.
    const html = await fetch(`${stack.local}/pay/`);
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await html.text()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const bob = newUser('Bob');
    const cases: Array<{ initData?: string; url: string; says: RegExp }> = [
      { initData: stack.initDataFor(bob.id), url: payUrl, says: /opens only for the person who created the swap/ },
      { initData: stack.initDataFor(alice.id).replace(`%22id%22%3A${alice.id}`, `%22id%22%3A${bob.id}`), url: payUrl, says: /not valid/ },
      { initData: stack.initDataFor(alice.id, 601), url: payUrl, says: /expired/ },
      {
        initData: stack.initDataFor(alice.id),
        url: `${ORIGIN}/pay/?swap=${randomUUID()}`,
        says: /opens only for the person who created the swap/,
      },
      { url: `${ORIGIN}/pay/`, says: /without a valid pass/ },
    ];
    const link = signLink({ platform: 'telegram', userId: String(alice.id), swapId, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET);
    const expired = signLink({ platform: 'telegram', userId: String(alice.id), swapId, exp: Math.floor(Date.now() / 1000) - 1 }, SECRET);
    // The first use of a link opens the page; the same link again is refused.
    const first = await stack.open();
    await first.page.goto(`${ORIGIN}/pay/#t=${link}`);
    await first.page
      .locator('#fields')
      .getByText(/50 USDC/)
      .waitFor();
    await first.context.close();
    cases.push({ url: `${ORIGIN}/pay/#t=${link}`, says: /already used/ }, { url: `${ORIGIN}/pay/#t=${expired}`, says: /expired/ });
    for (const c of cases) {
      const { context, page } = await stack.open({ ...(c.initData ? { initData: c.initData } : {}) });
      await page.goto(c.url);
      await page.locator('#refusal').getByText(c.says).waitFor();
      const body = await page.locator('body').innerText();
      expect(body).not.toContain('USDC');
      expect(body).not.toContain(swapId);
      await context.close();
    }
  });

  it('a wallet on another chain is asked to switch; a declined payment sends nothing; a second tab cannot pay twice', async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const { payUrl } = await swapThroughChat(a, 20);
    const wallet = await fundedWallet();
    wallet.chainId = 1;
    const initData = stack.initDataFor(alice.id);
    const one = await stack.open({ wallet, initData, colorScheme: 'dark' });
    await one.page.goto(payUrl);
    await one.page.getByRole('button', { name: 'Connect wallet' }).click();
    await one.page.getByText('Your wallet is on another network. Switch it to Arbitrum One to pay.').waitFor();
    await one.page.getByRole('button', { name: 'Switch to Arbitrum One' }).click();
    const pay = one.page.getByRole('button', { name: 'Pay 20 USDC' });
    await pay.waitFor();
    expect(wallet.chainId).toBe(LOCAL_CHAIN_ID);
    await expect(one.page.locator('#switch').isVisible()).resolves.toBe(false);
    if (SHOTS) await one.page.screenshot({ path: join(ROOT, 'docs/pay-dark.png') });

    // Moved to another network in the wallet after the check: nothing is sent on the wrong chain.
    const { tap } = await wrongChainAtSend(one.page, wallet);
    expect(tap).toMatch(/Nothing was sent/);
    expect(wallet.sent).toEqual([]);

    wallet.rejectNext = true;
    await pay.click();
    await one.page.getByText('You declined in your wallet. Nothing was sent').waitFor();
    expect(wallet.sent).toEqual([]);

    // Both tabs ready; the first one's wallet is left open (held) while the second taps Pay.
    let release!: () => void;
    wallet.hold = new Promise<void>((r) => (release = r));
    const two = await stack.open({ wallet, initData });
    await two.page.goto(payUrl);
    await two.page.getByRole('button', { name: 'Connect wallet' }).click();
    await one.page.getByRole('button', { name: 'Pay 20 USDC' }).click();
    await one.page.getByText('Confirm the payment in your wallet').waitFor();
    await two.page.getByRole('button', { name: 'Pay 20 USDC' }).click();
    await two.page.getByText('already being paid from another tab or device').waitFor();
    release();
    await one.page.getByText(/Sent: transaction/).waitFor();
    expect(wallet.sent).toHaveLength(1);
    await a.sees(/Deposit seen/);
    await one.context.close();
    await two.context.close();
  });

  it('pays a native ETH deposit; says so when the balance is too low; refuses an expired swap with its status', async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const initData = stack.initDataFor(alice.id);

    const poor = await fundedWallet('1');
    const usdc = await swapThroughChat(a, 20);
    const low = await stack.open({ wallet: poor, initData });
    await low.page.goto(usdc.payUrl);
    await low.page.getByRole('button', { name: 'Connect wallet' }).click();
    await low.page.getByRole('button', { name: 'Pay 20 USDC' }).click();
    await low.page.getByText('Your wallet holds 1 USDC ($1.00), and this payment needs 20 USDC ($20.00). Nothing was sent.').waitFor();
    expect(poor.calls).not.toContain('eth_sendTransaction');
    await low.context.close();

    stack.rt.sandbox!.setStatus(usdc.swapId, 'expired');
    const late = await stack.open({ wallet: poor, initData });
    await late.page.goto(usdc.payUrl);
    await late.page.locator('#refusal').getByText('This swap no longer takes a deposit (status: expired)').waitFor();
    await expect(late.page.getByRole('button', { name: /Pay/ }).count()).resolves.toBe(0);
    await late.context.close();

    const eth = await swapThroughChat(a, 0.01, 'ETH');
    const wallet = await fundedWallet();
    const { context, page } = await stack.open({ wallet, initData });
    await page.goto(eth.payUrl);
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByRole('button', { name: 'Pay 0.01 ETH' }).click();
    await page.getByText(/Sent: transaction 0x[0-9a-f]{64}/).waitFor();
    const receipt = await createPublicClient({ transport: http(stack.evmRpc) }).getTransaction({ hash: wallet.sent[0]! });
    expect(receipt.value).toBe(parseEther('0.01'));
    await waitFor(
      () =>
        a
          .messages()
          .find((m) => /Deposit seen/.test(m.text ?? m.caption ?? '') && (m.text ?? m.caption ?? '').includes(eth.swapId.slice(0, 8))),
      'Deposit seen for the ETH swap',
    );
    await context.close();
  });
});

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, erc20Abi, http, parseUnits, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredMessage } from '../e2e/telegram/fake-rules.js';
import type { TgUser } from '../e2e/telegram/world.js';
import { newUser } from '../e2e/telegram/harness.js';
import { evmTransaction } from '../../src/pay/transaction.js';
import { waitFor } from '../support/wait.js';
import { startFakeRelay, type FakeRelay } from '../support/walletconnect-relay.js';
import { fundedTestWallet, localChain, seenOnPage } from './browser.js';
import { usePayStack } from './stack.js';
import { payCard, textOf } from './support.js';
import { wcWallet, type WcWallet } from './walletconnect-wallet.js';

/**
 * WalletConnect on the pay page (issue 35): a phone in Telegram has no wallet in its browser, so
 * the page pairs with the person's wallet app through WalletConnect's relay. Here the relay is a
 * local fake (test/support/walletconnect-relay.ts: it proves only what its reading of the library
 * says; the real relay is never reached), the browser has NO injected wallet, and the wallet is
 * @walletconnect/sign-client in this process, paying on the sandbox's local EVM node with a funded
 * account. The wallet scans the QR the page draws (its URI), approves the swap's chain, and answers
 * the one eth_sendTransaction, which must be the swap's own deposit action; the chat then says
 * "Deposit seen", as for any payment from the page.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = process.env.PAY_SCREENSHOTS === '1';
const PROJECT_ID = '0123456789abcdef0123456789abcdef';
/** The relay's address as the page knows it; the browser's sockets to it are carried to the fake relay. */
const RELAY = 'wss://relay.test';
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';

const stack = usePayStack('wcpay', { WALLETCONNECT_PROJECT_ID: PROJECT_ID, WALLETCONNECT_RELAY_URL: RELAY });
let relay: FakeRelay;
const wallets: WcWallet[] = [];

beforeAll(async () => {
  relay = await startFakeRelay();
});

afterAll(async () => {
  for (const w of wallets) await w.close();
  await relay?.close();
});

const buttonsOf = (m: StoredMessage) => ((m.markup?.inline_keyboard ?? []) as Array<Array<Record<string, unknown>>>).flat();
const usdcOf = (who: Hex) =>
  createPublicClient({ chain: localChain(stack.evmRpc), transport: http(stack.evmRpc) }).readContract({
    address: USDC,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [who],
  });

/** "Pay from wallet" at the confirmation: a swap in the wallet flow, its deposit card and the page's URL. */
async function swapToPay(u: TgUser, amount: number): Promise<{ swapId: string; payUrl: string }> {
  u.says(`/swap ${amount} USDC arbitrum base`);
  const { confirm } = await u.toConfirmation(DEST);
  expect(buttonsOf(confirm).map((b) => b.text)).toContain('Pay from wallet');
  const before = u.messages().length;
  await u.presses('Pay from wallet');
  return payCard(u, before);
}

/**
 * The pay page at `payUrl` opened as this Telegram user in a browser with no wallet, and a funded
 * WalletConnect wallet (500 USDC) paired with it through the QR's URI; `first`: what the person
 * sees before pairing is checked (and, with PAY_SCREENSHOTS=1, shot).
 */
async function paired(userId: number, payUrl: string, first = false) {
  const funded = await fundedTestWallet(stack.evmRpc, stack.rt.sandbox!.chain!.fundedKey);
  const { context, page } = await stack.open({
    initData: stack.initDataFor(userId),
    injected: false,
    relay: { from: RELAY, to: relay.url },
  });
  await page.goto(payUrl);
  await page.getByRole('heading', { name: 'Pay from your wallet' }).waitFor();
  if (first) {
    // No wallet in this browser: WalletConnect is the one way offered, and the note says so.
    await expect(page.locator('#note').innerText()).resolves.toContain('tap Connect with WalletConnect');
    await expect(page.getByRole('button', { name: 'Connect wallet' }).count()).resolves.toBe(0);
  }
  await page.getByRole('button', { name: 'Connect with WalletConnect' }).click();
  // The pairing as the person sees it: a QR to scan and a button for a wallet app on this phone.
  const qr = page.locator('#wc-qr');
  await qr.waitFor();
  if (first) {
    await expect(qr.getAttribute('src')).resolves.toMatch(/^data:image\/svg\+xml/);
    await page.getByRole('button', { name: 'Open in wallet app' }).waitFor();
    if (SHOTS) await page.screenshot({ path: join(ROOT, 'docs/pay-walletconnect.png') });
  }
  const uri = (await qr.getAttribute('data-uri')) ?? '';
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/);
  const wc = await wcWallet({ relayUrl: relay.url, projectId: PROJECT_ID, wallet: funded });
  wallets.push(wc);
  const session = await wc.pair(uri);
  await page.getByText(`Wallet: ${funded.address}`).waitFor();
  await expect(qr.isVisible()).resolves.toBe(false);
  return { context, page, funded, wc, session };
}

describe('paying from a WalletConnect wallet (a phone in Telegram, no wallet in the browser)', () => {
  it('the wallet scans the page’s QR, approves, declines once (nothing sent, Pay again), then pays the swap’s own transaction; the chat says "Deposit seen"', async () => {
    // The page's CSP lets it reach the relay, and nothing else but itself and TON Connect's default bridge.
    const { rt } = stack;
    const csp = (await fetch(`${stack.local}/pay/`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`connect-src 'self' ${RELAY} https://walletbot.me;`);

    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const { swapId, payUrl } = await swapToPay(a, 100);
    const { context, page, funded, wc, session } = await paired(alice.id, payUrl, true);
    expect(relay.projectIds).toContain(PROJECT_ID);
    // The page asked for the swap's chain only, and only what paying needs.
    expect(session.namespaces.eip155?.accounts).toEqual([`eip155:${rt.sandbox!.chain!.chainId}:${funded.address}`]);

    // Declined in the wallet: nothing sent, the swap's payment slot freed, Pay offered again.
    wc.rejectNext = true;
    await page.getByRole('button', { name: 'Pay 100 USDC' }).click();
    await page.getByText(/You declined in your wallet\. Nothing was sent/).waitFor();
    expect(funded.sent).toEqual([]);
    expect(await usdcOf(funded.address)).toBe(parseUnits('500', 6));

    // Paid: while the request waits in the wallet, the page offers to bring the wallet forward (through Telegram).
    let release = () => {};
    funded.hold = new Promise<void>((r) => (release = r));
    await page.getByRole('button', { name: 'Pay 100 USDC' }).click();
    await page.getByRole('button', { name: 'Open Test WC Wallet' }).click();
    await expect(page.evaluate(() => (globalThis as { __openedLinks?: string[] }).__openedLinks)).resolves.toEqual([
      'https://wallet.test/wc',
    ]);
    release();
    await seenOnPage(page, /Sent: transaction 0x[0-9a-f]{64}/, () => ({
      walletSent: funded.sent,
      walletAsked: wc.requests.map((r) => r.method),
      relayCalls: relay.calls.slice(-30),
      relayTraffic: relay.traffic.slice(-30),
      walletClient: wc.inside(),
    }));
    expect(funded.sent).toHaveLength(1);
    expect(await usdcOf(funded.address)).toBe(parseUnits('400', 6));

    // What the wallet was asked to send is the swap's deposit action, as the injected path sends it.
    const sends = wc.requests.filter((r) => r.method === 'eth_sendTransaction');
    expect(sends).toHaveLength(2);
    const expected = evmTransaction(
      await rt.api.getDepositActions(swapId, { source_address: funded.address }),
      String(rt.sandbox!.chain!.chainId),
    )!;
    for (const { params, chainId } of sends) {
      const tx = params[0] as { from: string; to: string; value?: string; data?: string; gas?: string };
      expect(chainId).toBe(`eip155:${expected.chainId}`);
      expect(tx.from.toLowerCase()).toBe(funded.address.toLowerCase());
      expect(tx.to.toLowerCase()).toBe(expected.to.toLowerCase());
      expect(BigInt(tx.value ?? '0x0')).toBe(BigInt(expected.value));
      expect(tx.data).toBe(expected.data);
      if (expected.gas) expect(BigInt(tx.gas ?? '0x0')).toBe(BigInt(expected.gas));
    }
    // Reads are not the wallet's to answer over WalletConnect: only what it must sign was asked.
    expect(new Set(wc.requests.map((r) => r.method))).toEqual(new Set(['eth_sendTransaction']));

    // The same path as every payment from the page: deposit_speedup, then the chain watcher's "Deposit seen".
    await waitFor(() => (rt.sandbox!.requestCount('speedUpDeposit') > 0 ? true : undefined), 'POST deposit_speedup');
    await waitFor(() => a.messages().find((m) => /Deposit seen/.test(textOf(m)) && textOf(m).includes(swapId.slice(0, 8))), 'Deposit seen');
    await context.close();
  });

  it('too little USDC is said before the wallet is asked, read from the network (a WalletConnect wallet answers only what it signs)', async () => {
    const bob = newUser('Bob');
    const { payUrl } = await swapToPay(stack.privately(bob), 600);
    const { context, page, funded, wc } = await paired(bob.id, payUrl);
    await page.getByRole('button', { name: 'Pay 600 USDC' }).click();
    await seenOnPage(page, /Your wallet holds 500 USDC .*, and this payment needs 600 USDC .*\. Nothing was sent\./, () => ({
      walletAsked: wc.requests.map((r) => r.method),
      relayTraffic: relay.traffic.slice(-10),
    }));
    expect(wc.requests).toEqual([]);
    expect(funded.sent).toEqual([]);
    await context.close();
  });
});

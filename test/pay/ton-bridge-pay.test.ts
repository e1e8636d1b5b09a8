import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser } from '../e2e/telegram/harness.js';
import type { TgUser } from '../e2e/telegram/world.js';
import { startFakeBridge, type FakeBridge } from '../support/tonconnect-bridge.js';
import { waitFor } from '../support/wait.js';
import { PAY_ORIGIN, usePayStack } from './stack.js';
import { seenOnPage } from './browser.js';
import { payCard, textOf, withPayButton } from './support.js';
import { bridgeWallet, linkParams, type BridgeWallet } from './tonconnect-bridge-wallet.js';
import { tonTestWallet, type TonTestWallet } from './ton-wallet.js';

/**
 * TON Connect's HTTP bridge on the pay page (issue 35): in Telegram on a phone there is no TON
 * wallet in the page's browser, so the page connects Wallet in Telegram (or a wallet on another
 * device) through the wallet's bridge. Here the bridge is a local fake
 * (test/support/tonconnect-bridge.ts: it proves only what its reading of the SDK says; the real
 * bridge is never reached), the browser has NO injected TON wallet, and the wallet is this process
 * (test/pay/tonconnect-bridge-wallet.ts), which reads the universal link the page shows (a t.me
 * link, as Wallet in Telegram's is), connects its V4R2 test contract on the sandbox's TON emulator,
 * declines once (nothing sent, Pay again), then signs and sends the message the server built: the
 * jettons move and the chat says "Deposit seen".
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = process.env.PAY_SCREENSHOTS === '1';
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const USDT = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';
/** The bridge as the page knows it; the browser's requests to it are carried to the fake bridge. */
const BRIDGE = 'https://bridge.test';

const stack = usePayStack('tonbridge', { TONCONNECT_BRIDGE_URL: `${BRIDGE}/bridge` }, { localNetwork: true });
let bridge: FakeBridge;
const wallets: BridgeWallet[] = [];

beforeAll(async () => {
  bridge = await startFakeBridge();
});

afterAll(async () => {
  for (const w of wallets) w.close();
  await bridge?.close();
});

async function fundedWallet(tonAmount: string, usdt: bigint): Promise<TonTestWallet> {
  const wallet = tonTestWallet(stack.ton.url);
  await stack.ton.send(wallet.address, { contract: null }, toNano(tonAmount));
  await stack.ton.send(wallet.address, { contract: USDT }, usdt);
  return wallet;
}

/** /swap from TON in the private chat through to the deposit card: the swap id and the page's URL. */
async function tonSwap(u: TgUser, what: string, refund: string): Promise<{ swapId: string; payUrl: string }> {
  const before = u.messages().length;
  u.says(`/swap ${what}`);
  await u.toConfirmation(DEST, refund);
  await u.sees(/Paying from your wallet/);
  await u.presses('Confirm');
  return payCard(u, before, withPayButton, 'the deposit card with Pay from wallet');
}

describe('paying a TON swap from Wallet in Telegram through TON Connect’s HTTP bridge (no wallet in the browser)', () => {
  it('the page shows the wallet’s t.me link as a QR and a button; the wallet connects, declines once (nothing sent, Pay again), then pays 25 USDT: "Deposit seen"', async () => {
    const csp = (await fetch(`${stack.local}/pay/`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`connect-src 'self' ${BRIDGE};`);

    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const ton = await fundedWallet('2', 100_000_000n);
    const { swapId, payUrl } = await tonSwap(a, '25 USDT ton optimism', ton.address);
    const { context, page } = await stack.open({
      initData: stack.initDataFor(alice.id),
      injected: false,
      bridge: { from: BRIDGE, to: bridge.httpsUrl.replace(/\/bridge$/, '') },
    });
    await page.goto(payUrl);
    await page.getByRole('heading', { name: 'Pay from your wallet' }).waitFor();
    // No TON wallet in this browser: the bridge's wallet is the one way offered, and the note says so.
    const connect = page.getByRole('button', { name: 'Connect with Wallet in Telegram' });
    await connect.waitFor();
    await expect(page.locator('#note').innerText()).resolves.toContain('Tap Connect with Wallet in Telegram');
    await expect(page.getByRole('button', { name: 'Connect wallet' }).count()).resolves.toBe(0);
    await connect.click();

    // The connection as the person sees it: a QR to scan and a button that opens Wallet in Telegram.
    const qr = page.locator('#wc-qr');
    await qr.waitFor();
    await expect(qr.getAttribute('src')).resolves.toMatch(/^data:image\/svg\+xml/);
    const link = (await qr.getAttribute('data-uri')) ?? '';
    expect(link).toMatch(/^https:\/\/t\.me\/wallet\/start\?startapp=tonconnect-/);
    if (SHOTS) await page.screenshot({ path: join(ROOT, 'docs/pay-ton-bridge.png') });
    await page.getByRole('button', { name: 'Open Wallet in Telegram' }).click();
    await expect(page.evaluate(() => (globalThis as { __openedTelegramLinks?: string[] }).__openedTelegramLinks)).resolves.toEqual([link]);
    // The page listens on the bridge for its own session id, the one its link names.
    const dappId = linkParams(link).get('id') ?? '';
    await waitFor(() => (bridge.listeners.includes(dappId) ? true : undefined), 'the page listening on the bridge');

    const wallet = await bridgeWallet(bridge.url, link, ton);
    wallets.push(wallet);
    expect(wallet.request).toEqual({ manifestUrl: `${PAY_ORIGIN}/pay/tonconnect-manifest.json`, items: [{ name: 'ton_addr' }] });
    await page.getByText(`Wallet: ${ton.raw}`).waitFor();
    await expect(qr.isVisible()).resolves.toBe(false);

    // Declined in the wallet: nothing sent, the swap's payment slot freed, Pay offered again.
    ton.rejectNext = true;
    await page.getByRole('button', { name: 'Pay 25 USDT' }).click();
    const tonState = () => ({ asked: ton.asked.length, sent: ton.sent, walletMethods: wallet.methods, posted: bridge.posted.slice(-10) });
    await seenOnPage(page, 'You declined in your wallet. Nothing was sent; you can pay again when ready.', tonState);
    expect(ton.asked).toHaveLength(1);
    expect(ton.sent).toEqual([]);

    // Paid: the message the server built, from this wallet, one jetton transfer with 0.045 TON.
    await page.getByRole('button', { name: 'Pay 25 USDT' }).click();
    await seenOnPage(page, /Sent: transaction [0-9a-f]{64}\. The chat will say "Deposit seen"/, tonState);
    expect(ton.asked).toHaveLength(2);
    expect(ton.sent).toHaveLength(1);
    const asked = ton.asked[1]!;
    expect(asked.network).toBe('-239');
    expect(Address.parse(asked.from!).equals(Address.parse(ton.raw))).toBe(true);
    expect(asked.messages).toHaveLength(1);
    expect(asked.messages[0]!.amount).toBe(toNano('0.045').toString());
    // Both requests crossed the bridge, encrypted, from the page's session to the wallet's.
    expect(wallet.methods).toEqual(['sendTransaction', 'sendTransaction']);
    expect(bridge.posted.filter((m) => m.from === dappId).map((m) => m.topic)).toEqual(['sendTransaction', 'sendTransaction']);

    await waitFor(() => (stack.rt.sandbox!.requestCount('speedUpDeposit') > 0 ? true : undefined), 'POST deposit_speedup');
    await waitFor(() => a.messages().find((m) => /Deposit seen/.test(textOf(m)) && textOf(m).includes(swapId.slice(0, 8))), 'Deposit seen');
    await context.close();
  });
});

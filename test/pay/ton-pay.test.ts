import { Address, Cell, toNano } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { usePayStack } from './stack.js';
import { newUser } from '../e2e/telegram/harness.js';
import { TgUser } from '../e2e/telegram/world.js';
import type { StoredMessage } from '../e2e/telegram/fake-rules.js';
import { waitFor } from '../support/wait.js';
import { injectTonWallet, tonTestWallet, type TonTestWallet } from './ton-wallet.js';
import { payCard, withPayButton, textOf } from './support.js';

/**
 * Paying a TON swap from a TON wallet, in a real browser: TON is wallet-only on Layerswap, so the
 * confirm step creates the swap without a deposit address (no toggle back); the deposit card has
 * Pay from wallet and no address; on the pay page a TON Connect wallet injected as its JS bridge
 * (test/pay/ton-wallet.ts, a V4R2 contract on the sandbox's TON emulator) connects and is asked to
 * send the message the server built from the swap's action: a jetton transfer of USDT with the
 * swap's comment. The jettons move on the chain, the sandbox and the bot's TON watcher see them,
 * and the chat says "Deposit seen", then what arrived.
 */
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const USDT = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';

const stack = usePayStack('payton');

/** A wallet on the sandbox's TON chain holding `tonAmount` TON and `usdt` USDT (base units), from its funded wallet. */
async function fundedWallet(tonAmount: string, usdt: bigint): Promise<TonTestWallet> {
  const wallet = tonTestWallet(stack.ton.url);
  await stack.ton.send(wallet.address, { contract: null }, toNano(tonAmount));
  if (usdt > 0n) await stack.ton.send(wallet.address, { contract: USDT }, usdt);
  return wallet;
}

/** /swap from TON in the private chat through to the deposit card: the swap id, the card and its web_app URL. */
async function tonSwap(u: TgUser, what: string, refund: string): Promise<{ swapId: string; payUrl: string; card: StoredMessage }> {
  const before = u.messages().length;
  u.says(`/swap ${what}`);
  await u.toConfirmation(DEST, refund);
  // Wallet-only: the confirmation is the wallet one from the start, with no deposit-address way back.
  const confirm = await u.sees(/Paying from your wallet/);
  expect(JSON.stringify(confirm.markup ?? {})).not.toContain('deposit address');
  await u.presses('Confirm');
  return payCard(u, before, withPayButton, 'the deposit card with Pay from wallet');
}

/** The chat's "Deposit seen" for this swap (its short id on the same message). */
const seesDepositSeen = (u: TgUser, swapId: string) =>
  u.sees(new RegExp(`Deposit seen[\\s\\S]*${swapId.slice(0, 8)}|${swapId.slice(0, 8)}[\\s\\S]*Deposit seen`));

/** The pay page opened as this user with the wallet injected, Connect wallet pressed. */
const paying = (wallet: TonTestWallet, userId: number, url: string) =>
  stack.connected(userId, url, (context) => injectTonWallet(context, wallet));

/** A jetton transfer body (TEP-74): its amount, destination, excess address and forwarded comment. */
function readJettonTransfer(payload: string) {
  const s = Cell.fromBase64(payload).beginParse();
  const op = s.loadUint(32);
  s.loadUintBig(64);
  const amount = s.loadCoins();
  const to = s.loadAddress();
  const excess = s.loadAddress();
  s.loadBit();
  const forward = s.loadCoins();
  const comment = s.loadBit() ? s.loadRef().beginParse() : s;
  comment.loadUint(32);
  return { op, amount, to, excess, forward, comment: comment.loadStringTail() };
}

describe('paying a TON swap from a TON wallet (TON Connect), in a browser', () => {
  it('/swap from TON → wallet confirmation → Pay card → connect → Pay 25 USDT: the jettons move with the comment, "Deposit seen", then completion', async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const wallet = await fundedWallet('2', 100_000_000n);
    const { swapId, payUrl, card } = await tonSwap(a, '25 USDT ton optimism', wallet.address);
    const swap = await stack.rt.api.getSwap(swapId, { exclude_deposit_actions: true });
    expect(swap.swap.use_deposit_address).toBe(false);
    const [action] = await stack.rt.api.getDepositActions(swapId);
    const callData = JSON.parse(action!.call_data!) as { amount: string; comment: string };
    // Nothing to copy: the card names no address and no comment, only the button.
    expect(textOf(card)).not.toContain(action!.to_address!);
    expect(textOf(card)).toContain('Pay from your wallet');

    const { context, page } = await paying(wallet, alice.id, payUrl);
    expect(await page.locator('#fields').innerText()).toMatch(/25 USDT/);
    await page.getByRole('button', { name: 'Pay 25 USDT' }).click();
    await page.getByText(/Sent: transaction [0-9a-f]{64}\. The chat will say "Deposit seen"/).waitFor();

    // Asked once: from this wallet, on mainnet, one message to its own USDT jetton wallet with 0.045 TON.
    expect(wallet.asked).toHaveLength(1);
    const [asked] = wallet.asked;
    expect(asked!.network).toBe('-239');
    expect(Address.parse(asked!.from!).equals(Address.parse(wallet.raw))).toBe(true);
    expect(asked!.validUntil).toBeGreaterThan(Math.floor(Date.now() / 1000) + 300);
    expect(asked!.messages).toHaveLength(1);
    const [msg] = asked!.messages;
    expect(msg!.amount).toBe(toNano('0.045').toString());
    const body = readJettonTransfer(msg!.payload!);
    expect(body).toMatchObject({ op: 0x0f8a7ea5, amount: 25_000_000n, forward: toNano('0.00002'), comment: callData.comment });
    expect(body.to.equals(Address.parse(action!.to_address!))).toBe(true);
    expect(body.excess.equals(Address.parse(wallet.raw))).toBe(true);
    expect(wallet.sent).toHaveLength(1);

    await seesDepositSeen(a, swapId);
    // The service was told where the deposit is (deposit_speedup), as Layerswap's app does.
    await waitFor(() => (stack.rt.sandbox!.requestCount('speedUpDeposit') > 0 ? true : undefined), 'POST deposit_speedup');
    await waitFor(async () => ((await stack.rt.api.getSwap(swapId)).swap.status === 'completed' ? true : undefined), 'the swap completed');
    await a.sees(/Received [\d.]+ USDT on Optimism/);
    await context.close();
  });

  it('TON itself: the amount to the swap\'s address with the comment as its text payload; the chat says "Deposit seen"', async () => {
    const carol = newUser('Carol');
    const c = stack.privately(carol);
    const wallet = await fundedWallet('10', 0n);
    const { swapId, payUrl } = await tonSwap(c, '3 TON ton base ETH', wallet.address);
    const [action] = await stack.rt.api.getDepositActions(swapId);
    const callData = JSON.parse(action!.call_data!) as { comment: string };
    const { context, page } = await paying(wallet, carol.id, payUrl);
    await page.getByRole('button', { name: 'Pay 3 TON' }).click();
    await page.getByText(/Sent: transaction [0-9a-f]{64}/).waitFor();
    const [msg] = wallet.asked[0]!.messages;
    expect(msg).toMatchObject({ address: action!.to_address, amount: toNano('3').toString() });
    const text = Cell.fromBase64(msg!.payload!).beginParse();
    expect(text.loadUint(32)).toBe(0);
    expect(text.loadStringTail()).toBe(callData.comment);
    await seesDepositSeen(c, swapId);
    await context.close();
  });

  it('Starknet, wallet-only too, is still refused with the page set up: the page cannot pay it', async () => {
    const dave = newUser('Dave');
    const d = stack.privately(dave);
    d.says('/swap 10 USDC starknet base');
    await d.sees(/Not available by deposit address[\s\S]*send from a connected wallet/);
  });

  it('too little USDT is said before the wallet is asked; a testnet wallet gets no Pay; a decline sends nothing and Pay works again; a second Pay pays once', async () => {
    const bob = newUser('Bob');
    const b = stack.privately(bob);
    const wallet = await fundedWallet('2', 50_000_000n);
    const { payUrl } = await tonSwap(b, '20 USDT ton optimism', wallet.address);

    // Too little USDT: said in USDT and USD, and the wallet is asked nothing.
    const poor = await fundedWallet('1', 5_000_000n);
    const low = await paying(poor, bob.id, payUrl);
    await low.page.getByRole('button', { name: 'Pay 20 USDT' }).click();
    await low.page
      .getByText(/^Your wallet holds 5 USDT \(\$[\d.]+\), and this payment needs 20 USDT \(\$[\d.]+\)\. Nothing was sent\.$/)
      .waitFor();
    expect(poor.asked).toEqual([]);
    await low.context.close();

    // A wallet on testnet: said, and no Pay.
    wallet.chain = '-3';
    const testnet = await paying(wallet, bob.id, payUrl);
    await testnet.page
      .getByText('Your wallet is not on Ton. Switch it to Ton in the wallet, then connect again. Nothing was sent.')
      .waitFor();
    expect(await testnet.page.getByRole('button', { name: 'Pay 20 USDT' }).isVisible()).toBe(false);
    await testnet.context.close();
    wallet.chain = '-239';

    // Declined in the wallet: nothing sent, the payment slot free again.
    wallet.rejectNext = true;
    const first = await paying(wallet, bob.id, payUrl);
    await first.page.getByRole('button', { name: 'Pay 20 USDT' }).click();
    await first.page.getByText('You declined in your wallet. Nothing was sent; you can pay again when ready.').waitFor();
    expect(wallet.asked).toHaveLength(1);
    expect(wallet.sent).toEqual([]);

    // A second tab, connected too; paid from the first, the second's Pay sends nothing and the wallet is not asked again.
    const second = await paying(wallet, bob.id, payUrl);
    await second.page.getByRole('button', { name: 'Pay 20 USDT' }).waitFor();
    await first.page.getByRole('button', { name: 'Pay 20 USDT' }).click();
    await first.page.getByText(/Sent: transaction/).waitFor();
    expect(wallet.sent).toHaveLength(1);
    await second.page.getByRole('button', { name: 'Pay 20 USDT' }).click();
    await second.page.getByText(/already being paid|no longer takes a deposit/).waitFor();
    expect(wallet.asked).toHaveLength(2);
    expect(wallet.sent).toHaveLength(1);
    await first.context.close();
    await second.context.close();
  });
});

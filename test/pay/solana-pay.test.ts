import { getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { usePayStack } from './stack.js';
import { newUser } from '../e2e/telegram/harness.js';
import { TgUser } from '../e2e/telegram/world.js';
import type { StoredMessage } from '../e2e/telegram/fake-rules.js';
import { waitFor } from '../support/wait.js';
import { fundSol, injectSolanaWallet, solanaTestWallet, solBalance, type SolanaTestWallet } from './solana-wallet.js';
import { payCard, withPayButton, textOf } from './support.js';

/**
 * Paying a Solana swap from a Solana wallet, in a real browser: "Pay from my wallet" at the confirm
 * step creates the swap without a deposit address; on the pay page a Wallet Standard wallet
 * (test/pay/solana-wallet.ts) connects and is asked to sign and send the swap's `transfer` action's
 * own transaction (the sandbox builds it for that wallet on its LiteSVM chain: SOL to the swap's
 * address plus a Memo); the SOL moves on the chain, the sandbox's chain watch sees it, and the chat
 * says "Deposit seen".
 */
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

const stack = usePayStack('paysol');

/** /swap of SOL in the private chat, "Pay from my wallet" at the confirm step, Confirm: the deposit card's web_app URL. */
async function walletSwap(u: TgUser, sol: string, refund: string): Promise<{ swapId: string; payUrl: string; confirm: StoredMessage }> {
  const before = u.messages().length;
  u.says(`/swap ${sol} SOL solana base ETH`);
  await u.toConfirmation(DEST, refund);
  await u.presses('Pay from my wallet');
  const confirm = await u.sees(/Paying from your wallet/);
  await u.presses('Confirm');
  const { swapId, payUrl } = await payCard(u, before, withPayButton, 'the deposit card with Pay from wallet');
  return { swapId, payUrl, confirm };
}

/** The pay page opened as this user with the wallet injected, Connect wallet pressed. */
const paying = (wallet: SolanaTestWallet, userId: number, url: string) =>
  stack.connected(userId, url, (context) => injectSolanaWallet(context, wallet));

/** The transfer a wire transaction makes: its fee payer, the programs it calls, the memo text. */
function readTransaction(base64: string) {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  const m = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  if (m.version === 1) throw new Error('v1');
  const programs = m.instructions.map((i) => m.staticAccounts[i.programAddressIndex]);
  const memo = m.instructions.find((i) => m.staticAccounts[i.programAddressIndex]?.startsWith('Memo'));
  return {
    payer: m.staticAccounts[0],
    accounts: m.staticAccounts,
    programs,
    memo: new TextDecoder().decode(new Uint8Array(memo?.data ?? [])),
  };
}

describe('paying a Solana swap from a Solana wallet (Wallet Standard), in a browser', () => {
  it('Pay from my wallet → connect → Pay: the wallet signs the action\'s own transaction, the SOL moves, the chat says "Deposit seen"', async () => {
    const alice = newUser('Alice');
    const a = stack.privately(alice);
    const wallet = await solanaTestWallet(stack.solanaRpc);
    await fundSol(stack.solanaRpc, wallet.address, 5_000_000_000n);
    const { swapId, payUrl } = await walletSwap(a, '1.5', wallet.address);
    const swap = await stack.rt.api.getSwap(swapId, { exclude_deposit_actions: true });
    expect(swap.swap.use_deposit_address).toBe(false);

    const { context, page } = await paying(wallet, alice.id, payUrl);
    // The same money model as the cards: what is sent, each deduction.
    expect(await page.locator('#fields').innerText()).toMatch(/1\.5 SOL/);
    const prepared = page.waitForResponse((r) => r.url().endsWith('/pay/api/prepare'));
    await page.getByRole('button', { name: 'Pay 1.5 SOL' }).click();
    const handed = ((await (await prepared).json()) as { solana: { transaction: string } }).solana.transaction;
    await page.getByText(/Sent: transaction .* The chat will say "Deposit seen"/).waitFor();

    // Asked once, for the action's transaction: fee paid by the wallet, SOL to the swap's address, its Memo.
    expect(wallet.asked).toEqual([handed]);
    expect(wallet.sent).toHaveLength(1);
    const tx = readTransaction(wallet.asked[0]!);
    const [action] = await stack.rt.api.getDepositActions(swapId);
    expect(tx.payer).toBe(wallet.address);
    expect(tx.accounts).toContain(action!.to_address);
    expect(tx.programs).toEqual(['11111111111111111111111111111111', 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr']);
    expect(tx.memo).toBe(String(swap.swap.metadata?.sequence_number));
    // Real money on the chain: 1.5 SOL left the wallet (plus its fee) and sits at the swap's address.
    expect(await solBalance(stack.solanaRpc, action!.to_address as Parameters<typeof solBalance>[1])).toBe(1_500_000_000n);
    expect(await solBalance(stack.solanaRpc, wallet.address)).toBeLessThan(3_500_000_000n);
    await waitFor(() => a.messages().find((m) => /Deposit seen/.test(textOf(m)) && textOf(m).includes(swapId.slice(0, 8))), 'Deposit seen');
    // The service was told where the deposit is (deposit_speedup), as Layerswap's app does.
    await waitFor(() => (stack.rt.sandbox!.requestCount('speedUpDeposit') > 0 ? true : undefined), 'POST deposit_speedup');
    await context.close();
  });

  it('too little SOL is said before signing; a wallet on another network gets no Pay; a decline in the wallet sends nothing and may pay again', async () => {
    const bob = newUser('Bob');
    const b = stack.privately(bob);
    const wallet = await solanaTestWallet(stack.solanaRpc, ['solana:devnet']);
    await fundSol(stack.solanaRpc, wallet.address, 3_000_000_000n);
    const { payUrl } = await walletSwap(b, '1', wallet.address);

    // Too little SOL: said in SOL and USD before the wallet is asked anything.
    const poor = await solanaTestWallet(stack.solanaRpc);
    await fundSol(stack.solanaRpc, poor.address, 500_000_000n);
    const low = await paying(poor, bob.id, payUrl);
    await low.page.getByRole('button', { name: 'Pay 1 SOL' }).click();
    await low.page
      .getByText(/^Your wallet holds 0\.5 SOL \(\$[\d.]+\), and this payment needs 1 SOL \(\$[\d.]+\)\. Nothing was sent\.$/)
      .waitFor();
    expect(poor.asked).toEqual([]);
    await low.context.close();

    const devnet = await paying(wallet, bob.id, payUrl);
    await devnet.page
      .getByText('Your wallet is not on Solana. Switch it to Solana in the wallet, then connect again. Nothing was sent.')
      .waitFor();
    expect(await devnet.page.getByRole('button', { name: 'Pay 1 SOL' }).isVisible()).toBe(false);
    expect(wallet.asked).toEqual([]);
    await devnet.context.close();

    wallet.chains = ['solana:mainnet'];
    wallet.rejectNext = true;
    const { context, page } = await paying(wallet, bob.id, payUrl);
    await page.getByRole('button', { name: 'Pay 1 SOL' }).click();
    await page.getByText('You declined in your wallet. Nothing was sent; you can pay again when ready.').waitFor();
    expect(wallet.sent).toEqual([]);
    expect(await solBalance(stack.solanaRpc, wallet.address)).toBe(3_000_000_000n);
    // The payment slot is free again: a second try goes through.
    await page.getByRole('button', { name: 'Pay 1 SOL' }).click();
    await page.getByText(/Sent: transaction/).waitFor();
    expect(wallet.sent).toHaveLength(1);
    await context.close();
  });
});

import { base58, base64 } from '@scure/base';
import { SolanaSignAndSendTransaction, type SolanaSignAndSendTransactionFeature } from '@solana/wallet-standard-features';
import { getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import { StandardConnect, type StandardConnectFeature } from '@wallet-standard/features';

/**
 * Paying a Solana swap: wallets found through the Wallet Standard (each wallet registers itself
 * with the page through the standard's window events; @wallet-standard/app listens), connected
 * with `standard:connect`, and asked to sign and send the swap's own transaction as it is
 * (`solana:signAndSendTransaction`): the bytes of the deposit action's call_data that the server
 * read and handed over (src/pay/solana.ts). The page builds no transaction and changes none.
 */

export interface SolanaPage {
  /** The swap's network in the Wallet Standard's words (solana:mainnet), and its display name. */
  chain: string;
  network: string;
  words: Record<string, string>;
  say(template: string | undefined, vars?: Record<string, string>): string;
  message(text: string, bad?: boolean): void;
  call(action: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  /** The Pay button's text. */
  payLabel: string;
}

type Payer = Wallet & { features: StandardConnectFeature & SolanaSignAndSendTransactionFeature };

const $ = (id: string) => document.getElementById(id) as HTMLElement;

const canPay = (w: Wallet): w is Payer => StandardConnect in w.features && SolanaSignAndSendTransaction in w.features;

/** Declined in the wallet: EIP-1193's 4001, which Solana wallets use too, or their "User rejected" errors. */
const declined = (err: unknown): boolean => {
  const e = err as { code?: number; name?: string; message?: string } | null;
  return e?.code === 4001 || /reject|declin|cancel/i.test(`${e?.name ?? ''} ${e?.message ?? ''}`);
};

const reasonOf = (err: unknown): string => String((err as { message?: string } | null)?.message ?? err).slice(0, 160);

export function startSolana(p: SolanaPage): void {
  let connected: { wallet: Payer; account: WalletAccount } | undefined;
  let paying = false;
  const w = p.words;
  const { get, on } = getWallets();

  const show = () => {
    const list = get().filter(canPay);
    const box = $('wallets');
    box.replaceChildren();
    for (const wallet of list) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'connect';
      b.textContent = list.length > 1 ? `${w.connect ?? ''} · ${wallet.name}` : (w.connect ?? '');
      b.addEventListener('click', () => void connect(wallet));
      box.append(b);
    }
    $('note').textContent = list.length === 0 ? (w.noSolanaWallet ?? '') : '';
  };

  async function connect(wallet: Payer): Promise<void> {
    try {
      const { accounts } = await wallet.features[StandardConnect].connect();
      const account = accounts.find((a) => a.features.includes(SolanaSignAndSendTransaction)) ?? accounts[0];
      if (!account) return;
      connected = { wallet, account };
      $('account').textContent = p.say(w.connected, { address: account.address });
      $('wallets').hidden = true;
      onNetwork();
    } catch (err) {
      p.message(declined(err) ? (w.rejected ?? '') : p.say(w.failed, { reason: reasonOf(err) }), true);
    }
  }

  /** The connected account works on the swap's network; else it says so and offers no Pay. */
  function onNetwork(): boolean {
    if (!connected) return false;
    const right = connected.account.chains.includes(p.chain as `${string}:${string}`);
    const pay = $('pay');
    pay.hidden = !right;
    pay.textContent = p.payLabel;
    p.message(right ? '' : p.say(w.wrongSolanaNetwork, { network: p.network }), !right);
    return right;
  }

  async function pay(): Promise<void> {
    if (paying || !connected) return;
    paying = true;
    const button = $('pay') as HTMLButtonElement;
    button.disabled = true;
    let prepared = false;
    try {
      if (!onNetwork()) return;
      const { wallet, account } = connected;
      const got = await p.call('prepare', { source_address: account.address });
      if (got.status !== 200) return p.message(String(got.json.message ?? got.json.error ?? got.status), true);
      prepared = true;
      const tx = got.json.solana as { transaction: string; chain: `${string}:${string}` };
      p.message(w.confirmInWallet ?? '');
      // The action's bytes, as they came: the wallet shows the person what they do, signs and sends.
      const [result] = await wallet.features[SolanaSignAndSendTransaction].signAndSendTransaction({
        account,
        chain: tx.chain,
        transaction: base64.decode(tx.transaction),
      });
      if (!result) throw new Error('the wallet returned no signature');
      prepared = false;
      const hash = base58.encode(result.signature);
      // Sent is sent: the chat follows the chain whatever happens to this notice.
      button.hidden = true;
      p.message(p.say(w.sent, { hash }));
      await p.call('sent', { hash }).catch(() => undefined);
    } catch (err) {
      p.message(declined(err) ? (w.rejected ?? '') : p.say(w.failed, { reason: reasonOf(err) }), true);
    } finally {
      // Nothing was sent: the swap's payment slot is free again.
      if (prepared) await p.call('release').catch(() => undefined);
      paying = false;
      button.disabled = false;
    }
  }

  $('pay').addEventListener('click', () => void pay());
  on('register', show);
  on('unregister', show);
  show();
}

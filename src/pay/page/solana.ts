import { base58, base64 } from '@scure/base';
import { SolanaSignAndSendTransaction, type SolanaSignAndSendTransactionFeature } from '@solana/wallet-standard-features';
import { getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import { StandardConnect, type StandardConnectFeature } from '@wallet-standard/features';
import { $, payButton, reasonOf, type FamilyPage } from './family.js';

/**
 * Paying a Solana swap: wallets found through the Wallet Standard (each wallet registers itself
 * with the page through the standard's window events; @wallet-standard/app listens), connected
 * with `standard:connect`, and asked to sign and send the swap's own transaction as it is
 * (`solana:signAndSendTransaction`): the bytes of the deposit action's call_data that the server
 * read and handed over (src/pay/solana.ts). The page builds no transaction and changes none.
 */

type Payer = Wallet & { features: StandardConnectFeature & SolanaSignAndSendTransactionFeature };

const canPay = (w: Wallet): w is Payer => StandardConnect in w.features && SolanaSignAndSendTransaction in w.features;

/** Declined in the wallet: EIP-1193's 4001, which Solana wallets use too, or their "User rejected" errors. */
const declined = (err: unknown): boolean => {
  const e = err as { code?: number; name?: string; message?: string } | null;
  return e?.code === 4001 || /reject|declin|cancel/i.test(`${e?.name ?? ''} ${e?.message ?? ''}`);
};

export function startSolana(p: FamilyPage): void {
  let connected: { wallet: Payer; account: WalletAccount } | undefined;
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

  const pay = payButton(p, {
    source: () => (connected && onNetwork() ? connected.account.address : undefined),
    declined,
    async send(prepared) {
      if (!connected) throw new Error('no wallet');
      const tx = prepared.solana as { transaction: string; chain: `${string}:${string}` };
      // The action's bytes, as they came: the wallet shows the person what they do, signs and sends.
      const [result] = await connected.wallet.features[SolanaSignAndSendTransaction].signAndSendTransaction({
        account: connected.account,
        chain: tx.chain,
        transaction: base64.decode(tx.transaction),
      });
      if (!result) throw new Error('the wallet returned no signature');
      const hash = base58.encode(result.signature);
      return { hash, report: { hash } };
    },
  });

  $('pay').addEventListener('click', () => void pay());
  on('register', show);
  on('unregister', show);
  show();
}

import { isWalletInfoCurrentlyInjected, TonConnect, UserRejectsError, type Wallet } from '@tonconnect/sdk';
import { $, payButton, reasonOf, type FamilyPage } from './family.js';

/**
 * Paying a TON swap: TON Connect (@tonconnect/sdk) with the wallets injected into this page (a
 * wallet's own browser, or Telegram's when a wallet is built in: TON Connect's JS bridge,
 * `window.<key>.tonconnect`), asked to send the one message the server built from the swap's
 * deposit action and checked (src/pay/ton.ts). The page builds nothing; the chat tells the outcome.
 * A wallet on another device (TON Connect's HTTP bridge) is not offered: the page's
 * Content-Security-Policy allows no other origin.
 */

interface Injected {
  key: string;
  name: string;
}

/** Wallets injected into this window: the SDK's known ones and any that describes itself (walletInfo), as the protocol lets it. */
async function injectedWallets(connector: TonConnect): Promise<Injected[]> {
  const known = await connector.getWallets().catch(() => []);
  const found = new Map<string, Injected>();
  for (const w of known) if (isWalletInfoCurrentlyInjected(w)) found.set(w.jsBridgeKey, { key: w.jsBridgeKey, name: w.name });
  for (const [key, value] of Object.entries(window as unknown as Record<string, unknown>)) {
    const bridge = (value as { tonconnect?: { walletInfo?: { name?: unknown } } } | null)?.tonconnect;
    if (bridge?.walletInfo && typeof bridge.walletInfo.name === 'string' && !found.has(key))
      found.set(key, { key, name: bridge.walletInfo.name });
  }
  return [...found.values()];
}

export function startTon(p: FamilyPage): void {
  const w = p.words;
  const connector = new TonConnect({ manifestUrl: `${location.origin}/pay/tonconnect-manifest.json`, analytics: { mode: 'off' } });
  let wallet: Wallet | null = null;
  let connecting: { resolve(): void; reject(err: unknown): void } | undefined;

  connector.onStatusChange(
    (next) => {
      wallet = next;
      connecting?.resolve();
      connecting = undefined;
    },
    (err) => {
      connecting?.reject(err);
      connecting = undefined;
    },
  );

  async function connect(choice: Injected): Promise<void> {
    try {
      if (connector.connected) await connector.disconnect();
      await new Promise<void>((resolve, reject) => {
        connecting = { resolve, reject };
        connector.connect({ jsBridgeKey: choice.key });
      });
      if (!wallet) return;
      $('account').textContent = p.say(w.connected, { address: wallet.account.address });
      $('wallets').hidden = true;
      onNetwork();
    } catch (err) {
      p.message(err instanceof UserRejectsError ? (w.rejected ?? '') : p.say(w.failed, { reason: reasonOf(err) }), true);
    }
  }

  /** The connected account is on the swap's network; else it says so and offers no Pay. */
  function onNetwork(): boolean {
    if (!wallet) return false;
    const right = wallet.account.chain === p.chain;
    const pay = $('pay');
    pay.hidden = !right;
    pay.textContent = p.payLabel;
    p.message(right ? '' : p.say(w.wrongTonNetwork, { network: p.network }), !right);
    return right;
  }

  const pay = payButton(p, {
    source: () => (wallet && onNetwork() ? wallet.account.address : undefined),
    declined: (err) => err instanceof UserRejectsError,
    async send(prepared) {
      // The message as the server built and checked it; the wallet shows it, signs and sends it.
      const { boc } = await connector.sendTransaction(prepared.ton as Parameters<TonConnect['sendTransaction']>[0]);
      return { report: { boc } };
    },
  });

  $('pay').addEventListener('click', () => void pay());
  void injectedWallets(connector).then((list) => {
    const box = $('wallets');
    box.replaceChildren();
    for (const choice of list) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'connect';
      b.textContent = list.length > 1 ? `${w.connect ?? ''} · ${choice.name}` : (w.connect ?? '');
      b.addEventListener('click', () => void connect(choice));
      box.append(b);
    }
    $('note').textContent = list.length === 0 ? (w.noTonWallet ?? '') : '';
  });
}

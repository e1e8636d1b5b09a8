import { isWalletInfoCurrentlyInjected, TonConnect, UserRejectsError, type Wallet } from '@tonconnect/sdk';
import { $, payButton, reasonOf, type FamilyPage } from './family.js';
import { qrDataUrl } from './qr.js';
import { openWalletLink } from './telegram.js';
import { showOpenButton } from './wc-pairing.js';

/**
 * Paying a TON swap: TON Connect (@tonconnect/sdk) with the wallets injected into this page (a
 * wallet's own browser, or Telegram's when a wallet is built in: TON Connect's JS bridge,
 * `window.<key>.tonconnect`), or with one wallet app through TON Connect's HTTP bridge (by default
 * Wallet in Telegram: TONCONNECT_*; the bridge's origin is the one the page's CSP adds for it): the
 * SDK's universal link is shown as a QR code and an Open button, the same as WalletConnect's
 * pairing (wc-pairing.ts' elements). Either is asked to send the one message the server built from
 * the swap's deposit action and checked (src/pay/ton.ts). The page builds nothing; the chat tells
 * the outcome.
 */

/** The wallet app reached through the bridge, as the server hands it (no wallets list is fetched). */
export interface TonBridge {
  bridgeUrl: string;
  universalLink: string;
  name: string;
}

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

export function startTon(p: FamilyPage, bridge?: TonBridge): void {
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

  /** Through the bridge: while the request waits in the wallet app, a button that brings it forward. */
  let viaBridge = false;

  /** Connects as `start` asks the SDK to; `shown`: what the SDK's answer (the bridge's universal link) is to show. */
  async function connect(start: () => string | void, shown?: (link: string) => Promise<void>): Promise<void> {
    try {
      if (connector.connected) await connector.disconnect();
      const done = new Promise<void>((resolve, reject) => (connecting = { resolve, reject }));
      const link = start();
      if (shown && link) await shown(link);
      await done;
      if (!wallet) return;
      viaBridge = !!shown;
      $('account').textContent = p.say(w.connected, { address: wallet.account.address });
      $('wallets').hidden = true;
      onNetwork();
    } catch (err) {
      $('wallets').hidden = false;
      p.message(err instanceof UserRejectsError ? (w.rejected ?? '') : p.say(w.failed, { reason: reasonOf(err) }), true);
    } finally {
      $('wc').hidden = true;
      $('wc-open').hidden = true;
      $('note').hidden = false;
    }
  }

  /** The bridge's universal link as a QR code (a wallet on another device) and a button (a wallet app on this phone). */
  async function showLink(link: string): Promise<void> {
    if (!bridge) return;
    const qr = $('wc-qr') as HTMLImageElement;
    qr.src = await qrDataUrl(link);
    qr.alt = 'TON Connect QR code';
    qr.dataset.uri = link;
    $('wc-hint').textContent = p.say(w.tonBridgeScan, { wallet: bridge.name });
    $('wc').hidden = false;
    // One connection at a time: the wallet choices and their note give way to it.
    $('wallets').hidden = true;
    $('note').hidden = true;
    showOpenButton(p.say(w.walletConnectOpenWallet, { wallet: bridge.name }), link);
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
      if (viaBridge && bridge) showOpenButton(p.say(w.walletConnectOpenWallet, { wallet: bridge.name }), bridge.universalLink);
      try {
        const { boc } = await connector.sendTransaction(prepared.ton as Parameters<TonConnect['sendTransaction']>[0]);
        return { report: { boc } };
      } finally {
        $('wc-open').hidden = true;
      }
    },
  });

  $('pay').addEventListener('click', () => void pay());
  $('wc-open').addEventListener('click', () => openWalletLink($('wc-open').dataset.link ?? ''));
  void injectedWallets(connector).then((list) => {
    const box = $('wallets');
    box.replaceChildren();
    const button = (text: string, onClick: () => void) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'connect';
      b.textContent = text;
      b.addEventListener('click', onClick);
      box.append(b);
    };
    for (const choice of list)
      button(list.length > 1 ? `${w.connect ?? ''} · ${choice.name}` : (w.connect ?? ''), () => {
        void connect(() => connector.connect({ jsBridgeKey: choice.key }));
      });
    // The wallet app named by the configuration, as the SDK takes a wallet it was given (no wallets list).
    if (bridge)
      button(p.say(w.tonBridgeConnect, { wallet: bridge.name }), () => {
        void connect(() => connector.connect({ bridgeUrl: bridge.bridgeUrl, universalLink: bridge.universalLink }), showLink);
      });
    $('note').textContent = list.length > 0 ? '' : ((bridge ? p.say(w.noTonWalletBridge, { wallet: bridge.name }) : w.noTonWallet) ?? '');
  });
}

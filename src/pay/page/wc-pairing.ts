import { isRejection } from './wallet.js';
import type { WalletConnectSetup, WalletConnectWallet } from './walletconnect.js';

/**
 * The page's side of a WalletConnect pairing (in page.js; the library is walletconnect.js, loaded
 * on the tap): the pairing as a QR for a wallet on another device and as a button that opens it in
 * a wallet app on this phone; once the wallet approves, `approved` connects it like any other.
 */

const $ = (id: string) => document.getElementById(id) as HTMLElement;

export async function pairWallet(
  p: {
    setup: WalletConnectSetup;
    words: Record<string, string>;
    say(template: string | undefined, vars?: Record<string, string>): string;
    message(text: string, bad?: boolean): void;
    reasonOf(err: unknown): string;
  },
  approved: (wallet: WalletConnectWallet) => Promise<void>,
): Promise<void> {
  const w = p.words;
  p.message('');
  let pairing: import('./walletconnect.js').Pairing;
  try {
    const { pairWalletConnect } = await import('./walletconnect.js');
    pairing = await pairWalletConnect(p.setup);
  } catch (err) {
    // The relay did not answer (or the chunk did not load): nothing was asked of any wallet.
    return p.message(p.say(w.walletConnectUnreachable, { reason: p.reasonOf(err) }), true);
  }
  $('wc-hint').textContent = w.walletConnectScan ?? '';
  const qr = $('wc-qr') as HTMLImageElement;
  qr.src = pairing.qr;
  qr.dataset.uri = pairing.uri;
  $('wc').hidden = false;
  // One pairing at a time: the wallet choices and their note give way to it.
  $('wallets').hidden = true;
  $('note').hidden = true;
  showOpenButton(w.walletConnectOpen ?? '', pairing.uri);
  try {
    const got = await pairing.approved;
    $('wc').hidden = true;
    $('wc-open').hidden = true;
    await approved(got);
  } catch (err) {
    $('wc').hidden = true;
    $('wc-open').hidden = true;
    $('wallets').hidden = false;
    $('note').hidden = false;
    p.message(isRejection(err) ? (w.rejected ?? '') : p.say(w.failed, { reason: p.reasonOf(err) }), true);
  }
}

/** The button that opens a link in the wallet app (telegram.ts' openWalletLink, on its click). */
export function showOpenButton(label: string, link: string): void {
  const open = $('wc-open');
  open.textContent = label;
  open.dataset.link = link;
  open.hidden = false;
}

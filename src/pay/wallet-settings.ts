import { z } from 'zod';

/**
 * The settings of the pay page's wallets on another device (part of src/config.ts' schema): the
 * services the page may reach besides its own origin, each of which joins its CSP's connect-src.
 */
export const payWalletSettings = {
  WALLETCONNECT_PROJECT_ID: z
    .string()
    .regex(/^[0-9a-f]{32}$/, 'must be the 32 hex characters of a Reown (WalletConnect) project id')
    .optional(),
  // The WalletConnect relay the pay page talks to (wss://: the page is https; a browser refuses it a plain ws:// socket).
  WALLETCONNECT_RELAY_URL: z
    .string()
    .refine(urlOf('wss:'), 'must be a wss:// URL without user, query or fragment, such as wss://relay.walletconnect.org')
    .transform((v) => v.replace(/\/+$/, ''))
    .default('wss://relay.walletconnect.org'),
  // TON Connect's HTTP bridge for a TON wallet app (not in the page's browser), and that wallet's own
  // link and name: by default "Wallet in Telegram" as TON Connect's wallets list names it (its
  // `telegram-wallet` entry, which @tonconnect/sdk 3.4.1 also carries as FALLBACK_WALLETS_LIST). The
  // page is handed them as they are and fetches no wallets list.
  TONCONNECT_BRIDGE_URL: z
    .string()
    .refine(
      (v) => v === 'off' || urlOf('https:')(v),
      'must be an https:// URL without user, query or fragment, such as https://walletbot.me/tonconnect-bridge/bridge, or off',
    )
    .transform((v) => v.replace(/\/+$/, ''))
    .default('https://walletbot.me/tonconnect-bridge/bridge'),
  TONCONNECT_WALLET_LINK: z
    .string()
    .refine(urlOf('https:', true), "must be the wallet's https:// universal link, such as https://t.me/wallet?attach=wallet")
    .default('https://t.me/wallet?attach=wallet'),
  TONCONNECT_WALLET_NAME: z.string().trim().min(1).max(40).default('Wallet in Telegram'),
};

/** An address of this protocol without user or fragment (and without query unless `query`). */
function urlOf(protocol: string, query = false): (v: string) => boolean {
  return (v) => {
    try {
      const u = new URL(v);
      return u.protocol === protocol && !u.username && !u.password && (query || !u.search) && !u.hash;
    } catch {
      return false;
    }
  };
}

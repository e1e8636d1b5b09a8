import type { Line } from '../contracts/reply.js';
import type { Locale } from '../i18n/index.js';
import { t } from '../i18n/index.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { breakdownLines, moneyFields } from '../bot/money/words.js';
import { swapMoney } from '../bot/money/model.js';
import { networkName } from '../bot/kernel/format.js';
import { solanaChainOf } from './solana.js';
import { tonChainOf } from './ton.js';

/**
 * What the pay page shows of a swap: the same money model and the same words as every card (what
 * you send, what you receive, each deduction, the deadline), flattened to plain text, since the
 * page renders text only. Nothing else of the swap (no addresses but what the wallet must sign).
 */
export interface PayView {
  swapId: string;
  status: string;
  /** The swap still takes a deposit: the page may offer Pay. */
  waiting: boolean;
  fields: Array<{ name: string; value: string }>;
  breakdown: string[];
  /** The deposit window closes (ms since epoch). */
  depositBy?: number;
  /** `native`: the symbol of the network's gas token (ETH, POL, BNB…), when the answer names it. */
  /** `walletChain`: a Solana network's chain in the Wallet Standard's words (solana:mainnet), a TON network's in TON Connect's (-239). */
  network: { name: string; display: string; type: string; chainId?: string; native?: string; walletChain?: string };
  /** `usd`: the token's price in USD, when known (for the balance check's words). */
  token: { symbol: string; decimals: number; contract?: string; usd?: number };
  /** Exactly what to send, in the token's units as text. */
  amount: string;
  /** The page's sentences in the reader's language. */
  words: Record<string, string>;
}

const plain = (l: Line): string => l.map((s) => s.text).join('');

export function payView(details: SwapDetails, now: number, locale: Locale): PayView {
  const m = swapMoney(details, now);
  const s = details.swap;
  const on = {
    ...(s.source_network ? { source: networkName(s.source_network) } : {}),
    ...(s.destination_network ? { destination: networkName(s.destination_network) } : {}),
  };
  return {
    swapId: s.id,
    status: s.status ?? 'unknown',
    waiting: m.next === 'send',
    fields: moneyFields(m, locale, on).map((f) => ({ name: f.name, value: plain(f.value) })),
    breakdown: breakdownLines(m, locale, false).map(plain),
    ...(m.deadlines.depositBy !== undefined ? { depositBy: m.deadlines.depositBy } : {}),
    network: {
      name: s.source_network?.name ?? '',
      display: s.source_network ? networkName(s.source_network) : '',
      type: s.source_network?.type ?? '',
      ...(s.source_network?.chain_id ? { chainId: String(s.source_network.chain_id) } : {}),
      ...(s.source_network?.token?.symbol ? { native: s.source_network.token.symbol } : {}),
      ...(s.source_network?.type === 'solana' ? { walletChain: solanaChainOf(s.source_network.name) } : {}),
      ...(s.source_network?.type === 'ton' ? { walletChain: tonChainOf(s.source_network.name) } : {}),
    },
    token: {
      symbol: s.source_token?.symbol ?? '?',
      decimals: s.source_token?.decimals ?? 18,
      ...(s.source_token?.contract ? { contract: s.source_token.contract } : {}),
      ...(m.source.usd !== undefined ? { usd: m.source.usd } : {}),
    },
    amount: String(s.requested_amount ?? ''),
    words: pageWords(locale),
  };
}

const PAGE_WORDS = [
  'title',
  'timeLeft',
  'connect',
  'noWallet',
  'walletConnectOff',
  'connected',
  'switch',
  'wrongChain',
  'pay',
  'low',
  'lowGas',
  'confirmInWallet',
  'rejected',
  'sent',
  'taken',
  'closed',
  'failed',
  'notEvm',
  'payGasless',
  'signInWallet',
  'authorized',
  'resign',
  'noSolanaWallet',
  'wrongSolanaNetwork',
  'noTonWallet',
  'wrongTonNetwork',
  'walletConnect',
  'noWalletWalletConnect',
  'walletConnectScan',
  'walletConnectOpen',
  'walletConnectOpenWallet',
  'walletConnectUnreachable',
  'tonBridgeConnect',
  'noTonWalletBridge',
  'tonBridgeScan',
] as const;

/** The page's own sentences, from the catalogs (placeholders such as {network} are filled in by the page). */
function pageWords(locale: Locale): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of PAGE_WORDS) out[k] = t(locale, `pay.page.${k}`, PLACEHOLDERS);
  return out;
}

/** Kept as placeholders for the page to fill: i18next would otherwise blank them. */
const PLACEHOLDERS = {
  time: '{time}',
  address: '{address}',
  network: '{network}',
  amount: '{amount}',
  have: '{have}',
  need: '{need}',
  symbol: '{symbol}',
  hash: '{hash}',
  status: '{status}',
  reason: '{reason}',
  signer: '{signer}',
  wallet: '{wallet}',
};

import { isNative } from '../catalog/index.js';
import { toBaseUnits } from '../money/base-units.js';

/**
 * What a deposit QR code encodes: a payment request in the family's own standard, so a wallet
 * fills in the token and amount, or else the bare address. Standards: EIP-681 (EVM native and
 * ERC-20), BIP-21 (Bitcoin), Solana Pay (SOL and SPL tokens), TON transfer links (native TON).
 * Any missing fact (decimals, chain id, contract, a well-formed address) gives the plain address:
 * a wrong request would be worse than none.
 */
export interface PaymentRequest {
  /** The network's type: evm, bitcoin, solana, ton, ... */
  family: string;
  chainId?: string | null | undefined;
  address: string;
  /** Exact decimal text in token units ("0.5"). */
  amount?: string | undefined;
  /** `contract: null` means native; an absent contract means unknown (no payment request). */
  token: { symbol: string; decimals?: number | null | undefined; contract?: string | null | undefined };
  /** The symbol of the network's own coin, when known (network.token). */
  nativeSymbol?: string | null | undefined;
  /** A memo the transfer must carry; only families whose standard can hold it get a URI then. */
  memo?: { kind: 'op_return' | 'memo' | 'comment'; value: string } | undefined;
}

/** Families with a single coin of their own, for tokens sent without a contract field. */
const FAMILY_COINS: Readonly<Record<string, string>> = { bitcoin: 'BTC', solana: 'SOL', ton: 'TON' };

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const TON_ADDRESS = /^(?:[A-Za-z0-9_-]{48}|-?\d:[0-9a-fA-F]{64})$/;
const BTC_ADDRESS = /^(?:bc1|tb1|bcrt1)[02-9ac-hj-np-z]{8,87}$|^[123mn][1-9A-HJ-NP-Za-km-z]{25,39}$/i;

export function paymentUri(r: PaymentRequest): string {
  return standardUri(r) ?? r.address;
}

function standardUri(r: PaymentRequest): string | undefined {
  const { address, amount, token, memo } = r;
  if (!amount || !/[1-9]/.test(amount)) return undefined;
  // Native only on evidence: an explicit null contract, a native placeholder, or the network's own
  // coin. A cut-down token without its contract (the live ERC-20 capture) is not a native request.
  const family = r.family.toLowerCase();
  const nativeSymbol = r.nativeSymbol ?? FAMILY_COINS[family];
  const native = token.contract !== undefined ? isNative(token) : token.symbol === nativeSymbol;
  const base = toBaseUnits(amount, token.decimals);
  switch (family) {
    case 'evm': {
      const chain = r.chainId ?? '';
      if (memo || !base || !/^[1-9]\d*$/.test(chain) || !EVM_ADDRESS.test(address)) return undefined;
      if (native) return `ethereum:${address}@${chain}?value=${base}`;
      if (!token.contract || !EVM_ADDRESS.test(token.contract)) return undefined;
      return `ethereum:${token.contract}@${chain}/transfer?address=${address}&uint256=${base}`;
    }
    case 'bitcoin':
      // BIP-21 has no OP_RETURN field: a request without the memo would invite a lost deposit.
      if (memo || !native || token.decimals !== 8 || !base || !BTC_ADDRESS.test(address)) return undefined;
      return `bitcoin:${address}?amount=${amount}`;
    case 'solana': {
      if (!base || !SOLANA_ADDRESS.test(address) || (memo && memo.kind !== 'memo')) return undefined;
      const params = [`amount=${amount}`];
      if (!native) {
        if (!token.contract || !SOLANA_ADDRESS.test(token.contract)) return undefined;
        params.push(`spl-token=${token.contract}`);
      }
      if (memo) params.push(`memo=${encodeURIComponent(memo.value)}`);
      return `solana:${address}?${params.join('&')}`;
    }
    case 'ton':
      // Jettons move through the sender's jetton wallet: no link standard every wallet reads.
      if (!native || token.decimals !== 9 || !base || !TON_ADDRESS.test(address) || (memo && memo.kind !== 'comment')) return undefined;
      return `ton://transfer/${address}?amount=${base}${memo ? `&text=${encodeURIComponent(memo.value)}` : ''}`;
    default:
      return undefined;
  }
}

import type { DepositAction, NetworkRef, SwapDetails, Token } from '../../layerswap/schemas.js';
import { decimalText, fromBaseUnits, isPositive } from '../money/base-units.js';
import { sendableFromText } from '../money/units.js';

/**
 * Which deposit the bot may tell a person to make by hand, and with what. Following the official
 * app's manual deposit screen: an address and the amount, never call data. Only a deposit any
 * wallet can make qualifies: a `manual_transfer`, or a `transfer` without call data or in the
 * deposit-address flow. A `sign` action (gasless), or a wallet-flow `transfer` whose call data is
 * the deposit itself (EVM swap id or ERC-20 transfer(), a serialized Solana transaction, a
 * depository contract call), can only be made from the Layerswap app with a connected wallet.
 * A memo is shown only in the forms the reference documents as required (section 10).
 */

export interface DepositMemo {
  /** Also names it on the card (deposit.memo.<kind> in the catalogs). */
  kind: 'op_return' | 'memo' | 'comment';
  value: string;
}

export type DepositPlan =
  | {
      kind: 'manual';
      action: DepositAction;
      address: string;
      /** Exact decimal text in token units. */
      amount: string;
      token: Pick<Token, 'symbol' | 'decimals' | 'contract'>;
      network: Pick<NetworkRef, 'name' | 'display_name' | 'type' | 'chain_id' | 'token'> | undefined;
      memo?: DepositMemo;
    }
  /** The service gave actions, but none a person can carry out from any wallet. */
  | { kind: 'app_only' }
  /** No usable deposit details (none yet, or cut down): show no address. */
  | { kind: 'unknown' };

/** The memo a deposit must carry, in the form its network needs, when the call data is one. */
export function depositMemo(callData: string | null | undefined, family: string | null | undefined): DepositMemo | undefined {
  const raw = callData?.trim();
  if (!raw) return undefined;
  switch ((family ?? '').toLowerCase()) {
    case 'bitcoin':
      // The OP_RETURN output carries the text of the number in hex: "11177265" -> "aa8d31".
      return /^\d{1,30}$/.test(raw) ? { kind: 'op_return', value: BigInt(raw).toString(16) } : undefined;
    case 'solana':
      // The memo the app's transaction carries (the sequence number); a whole transaction is not one.
      return /^\d{1,30}$/.test(raw) ? { kind: 'memo', value: raw } : undefined;
    case 'stellar':
      // A Stellar memo: an id (an unsigned 64-bit number) or text of at most 28 bytes.
      return stellarMemo(raw);
    case 'ton':
      try {
        const parsed: unknown = JSON.parse(raw);
        if (
          parsed &&
          typeof parsed === 'object' &&
          'comment' in parsed &&
          typeof parsed.comment === 'string' &&
          parsed.comment.trim() !== ''
        ) {
          return { kind: 'comment', value: parsed.comment };
        }
      } catch {
        // Not the documented {comment, amount} JSON: no memo this bot can vouch for.
      }
      return undefined;
    default:
      return undefined;
  }
}

/** Stellar: the call data as a memo (MEMO_ID or MEMO_TEXT), or undefined when it cannot be one. */
function stellarMemo(raw: string): DepositMemo | undefined {
  if (/^\d{1,20}$/.test(raw)) return BigInt(raw) < 2n ** 64n ? { kind: 'memo', value: raw } : undefined;
  // Printable text only: a wallet's memo field takes what the card shows.
  const printable = [...raw].every((c) => c.charCodeAt(0) >= 0x20);
  return new TextEncoder().encode(raw).length <= 28 && printable ? { kind: 'memo', value: raw } : undefined;
}

/** Families whose deposits carry a memo to be matched: an action with call data the bot cannot read as one is not shown. */
const MEMO_FAMILIES = new Set(['stellar']);

/** The action's network and token, completed from the swap's own when the action's are cut down. */
function sourceOf(details: SwapDetails, action: DepositAction) {
  const swapNet = details.swap.source_network ?? undefined;
  const net = action.network ?? swapNet;
  const sameNet = !!net && !!swapNet && net.name === swapNet.name;
  const network = net
    ? {
        ...net,
        type: net.type ?? (sameNet ? swapNet.type : undefined),
        chain_id: net.chain_id ?? (sameNet ? swapNet.chain_id : undefined),
        token: net.token ?? (sameNet ? swapNet.token : undefined),
      }
    : undefined;
  const swapToken = details.swap.source_token ?? undefined;
  const tok = action.token ?? swapToken;
  const sameToken = !!tok && !!swapToken && tok.symbol === swapToken.symbol;
  const token = tok
    ? {
        symbol: tok.symbol,
        decimals: tok.decimals ?? (sameToken ? swapToken.decimals : undefined),
        contract: tok.contract !== undefined ? tok.contract : sameToken ? swapToken.contract : undefined,
      }
    : undefined;
  return { network, token };
}

/** What to send: the action's exact base units, else its amount, else the swap's requested amount (an ERC-20 action says 0). */
function amountOf(details: SwapDetails, action: DepositAction, decimals: number | null | undefined): string | undefined {
  const base = action.amount_in_base_units;
  if (base && isPositive(base) && typeof decimals === 'number') {
    const exact = fromBaseUnits(base, decimals);
    if (exact) return exact;
  }
  // Never more decimals than the token has: rounded up, so at least what was asked arrives.
  const own = decimalText(action.amount);
  if (own && isPositive(own)) return sendableFromText(own, decimals);
  const requested = decimalText(details.swap.requested_amount);
  return requested && isPositive(requested) ? sendableFromText(requested, decimals) : undefined;
}

export function depositPlan(
  details: SwapDetails,
  actions: readonly DepositAction[] | null | undefined = details.deposit_actions,
): DepositPlan {
  const sorted = (actions ?? []).slice().sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  if (sorted.length === 0) return { kind: 'unknown' };
  const depositAddressFlow = details.swap.use_deposit_address === true;
  for (const action of sorted) {
    if (action.type !== 'manual_transfer' && action.type !== 'transfer') continue;
    const address = action.to_address?.trim();
    if (!address) continue;
    const { network, token } = sourceOf(details, action);
    if (!token) continue;
    // Funds sent to a token's own contract are lost: such an action is a contract call.
    if (token.contract && token.contract.toLowerCase() === address.toLowerCase()) continue;
    const memo = depositMemo(action.call_data, network?.type);
    const hasCallData = !!action.call_data?.trim();
    if (action.type === 'transfer' && hasCallData && !memo && !depositAddressFlow) continue;
    // Never the address without the memo it needs: sent without it, the deposit is lost.
    if (hasCallData && !memo && MEMO_FAMILIES.has((network?.type ?? '').toLowerCase())) continue;
    const amount = amountOf(details, action, token.decimals);
    if (!amount) return { kind: 'unknown' };
    return { kind: 'manual', action, address, amount, token, network, ...(memo ? { memo } : {}) };
  }
  return { kind: 'app_only' };
}

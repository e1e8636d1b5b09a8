import { fakeAddress, fakeTxHash } from './addresses.js';
import type { Amount } from './fields.js';
import type { CatalogNetwork, CatalogToken } from './model.js';
import { isoWithOffset } from './numbers.js';
import { computeQuote } from './quote.js';
import type { RouteRequest } from './route-request.js';
import { priceOf } from './routes.js';
import { networkRefView, tokenView, type Json } from './views.js';
import type { DepositOutcome, SandboxTimings } from './types.js';

/**
 * A swap's life, computed from the clock rather than driven by timers: given when it was created
 * and when (and how much) was deposited, its status and transactions at any instant follow. Tests
 * move a ManualClock; the CLI runs a sped-up SystemClock; nothing needs cancelling on close.
 *
 *   user_transfer_pending --deposit--> ls_transfer_pending (input confirmations climb 0..max)
 *     --payoutDelay--> completed (output tx, refuel tx)
 *   deposit outside the limits -> failed (received_less/more_than_valid_range)
 *   outcome fail_execution -> pending_refund -> refunded (with a refund address), else stays ls_transfer_pending
 *   no deposit within expiryMs -> expired
 */

export interface DepositEvent {
  at: number;
  amount: Amount;
  outcome: DepositOutcome;
}

export interface SwapRecord {
  readonly id: string;
  readonly createdAt: number;
  readonly sequenceNumber: number;
  readonly request: RouteRequest;
  readonly destinationAddress: string;
  readonly sourceAddress: string | null;
  readonly refundAddress: string | null;
  readonly referenceId: string | null;
  readonly appName: string | null;
  /** Where the user sends funds (Layerswap's address on the source network). */
  readonly depositAddress: string;
  /** A deposit made by hand (POST /sandbox/swaps/{id}/deposit or deposit()). */
  deposit: DepositEvent | null;
}

export interface SwapState {
  status: string;
  failReason: string | null;
  transactions: Json[];
}

/** The deposit in force: the one made by hand, else the automatic one (unless off, or after expiry). */
export function effectiveDeposit(rec: SwapRecord, t: SandboxTimings): DepositEvent | null {
  if (rec.deposit) return rec.deposit;
  if (t.depositDelayMs === 'off' || t.depositDelayMs >= t.expiryMs) return null;
  return { at: rec.createdAt + t.depositDelayMs, amount: rec.request.amount, outcome: 'complete' };
}

export function swapStateAt(rec: SwapRecord, now: number, t: SandboxTimings): SwapState {
  const d = effectiveDeposit(rec, t);
  if (!d || d.at > now) {
    return { status: now >= rec.createdAt + t.expiryMs ? 'expired' : 'user_transfer_pending', failReason: null, transactions: [] };
  }
  const { route, limits } = rec.request;
  const src = route.from.network;
  const max = src.max_confirmations;
  const climbed = t.confirmationIntervalMs > 0 ? Math.floor((now - d.at) / t.confirmationIntervalMs) : max;
  const confirmations = Math.min(max, climbed);
  const confirmedAt = d.at + max * t.confirmationIntervalMs;
  const input = tx({
    type: 'input', status: confirmations >= max ? 'completed' : 'pending', seed: `${rec.id}:input`, at: d.at,
    network: src, token: route.from.token, amount: d.amount.value, from: rec.sourceAddress ?? fakeAddress(src.type, `user:${rec.id}`),
    to: rec.depositAddress, confirmations, maxConfirmations: max,
  });

  if (d.amount.value < limits.min) return { status: 'failed', failReason: 'received_less_than_valid_range', transactions: [input] };
  if (d.amount.value > limits.max) return { status: 'failed', failReason: 'received_more_than_valid_range', transactions: [input] };

  const payoutAt = confirmedAt + t.payoutDelayMs;
  if (now < payoutAt) return { status: 'ls_transfer_pending', failReason: null, transactions: [input] };

  if (d.outcome === 'fail_execution') {
    // Without a refund address Layerswap keeps retrying: the swap stays in ls_transfer_pending.
    if (!rec.refundAddress) return { status: 'ls_transfer_pending', failReason: null, transactions: [input] };
    const refundAt = payoutAt + t.refundDelayMs;
    if (now < refundAt) return { status: 'pending_refund', failReason: null, transactions: [input] };
    const refund = tx({
      type: 'refund', status: 'completed', seed: `${rec.id}:refund`, at: refundAt, network: src, token: route.from.token,
      amount: d.amount.value, from: fakeAddress(src.type, `hot:${src.name}`), to: rec.refundAddress,
      confirmations: max, maxConfirmations: max,
    });
    return { status: 'refunded', failReason: null, transactions: [input, refund] };
  }

  const dst = route.to.network;
  const figures = computeQuote(route, d.amount.value, { refuel: rec.request.refuel, slippage: rec.request.slippage });
  const payout = { network: dst, from: fakeAddress(dst.type, `hot:${dst.name}`), to: rec.destinationAddress, at: payoutAt,
    confirmations: dst.max_confirmations, maxConfirmations: dst.max_confirmations, status: 'completed' };
  const transactions = [input, tx({ ...payout, type: 'output', seed: `${rec.id}:output`, token: route.to.token, amount: figures.receive_amount })];
  if (figures.refuel) {
    transactions.push(tx({ ...payout, type: 'refuel', seed: `${rec.id}:refuel`, token: dst.native, amount: figures.refuel.amount }));
  }
  return { status: 'completed', failReason: null, transactions };
}

interface TxInit {
  type: string;
  status: string;
  seed: string;
  at: number;
  network: CatalogNetwork;
  token: CatalogToken;
  amount: number;
  from: string;
  to: string;
  confirmations: number;
  maxConfirmations: number;
}

function tx(i: TxInit): Json {
  const price = priceOf(i.token);
  const date = isoWithOffset(i.at);
  return {
    type: i.type,
    status: i.status,
    from: i.from,
    to: i.to,
    transaction_hash: fakeTxHash(i.network.type, i.seed),
    amount: i.amount,
    confirmations: i.confirmations,
    max_confirmations: i.maxConfirmations,
    usd_value: Math.round(i.amount * price * 1e6) / 1e6,
    usd_price: price,
    created_date: date,
    timestamp: date,
    network: networkRefView(i.network),
    token: tokenView(i.token),
    fee_amount: null,
    fee_token: null,
  };
}

import { fakeAddress, fakeTxHash } from './addresses.js';
import type { Amount } from './fields.js';
import type { CatalogExchange, CatalogNetwork, CatalogToken } from './model.js';
import { isoWithOffset } from './numbers.js';
import { computeQuote } from './quote.js';
import type { RouteRequest } from './route-request.js';
import { priceOf } from './routes.js';
import { slimTokenView, swapNetworkView, type Json } from './views.js';
import type { DepositOutcome, SandboxTimings } from './types.js';

/**
 * A swap's life, computed from the clock rather than driven by timers: given when it was created
 * and when (and how much) was deposited, its status and transactions at any instant follow. Tests
 * move a ManualClock; the CLI runs a sped-up SystemClock; nothing needs cancelling on close.
 * It follows what the real service shows, oddities included:
 *
 *   user_transfer_pending, also while the input tx climbs 0..max confirmations (status 'pending')
 *     --confirmed--> ls_transfer_pending --payoutDelay--> output (and refuel) tx 'completed'
 *     while the status is still ls_transfer_pending --completionLag--> completed
 *   deposit outside the limits, once confirmed -> failed (received_less/more_than_valid_range)
 *   outcome 'fail' -> failed at the payout time, with the given fail_reason (or none)
 *   outcome 'input_failed' -> the input tx 'failed' at once; failed one interval later
 *   outcome 'fail_execution' -> pending_refund -> refunded (with a refund address), else ls_transfer_pending
 *   no deposit within expiryMs -> expired (a deposit sent after that is listed; the swap stays expired)
 *   a status pinned by hand (created, user_transfer_delayed, cancelled, failed...) wins from its time
 */

export interface DepositEvent {
  at: number;
  amount: Amount;
  outcome: DepositOutcome;
  /** fail_reason for outcome 'fail' (null: failed without a reason). */
  failReason?: string | null;
  /** Hash and sender of the input transaction when given (a swap "from another app"). */
  txHash?: string;
  from?: string;
  /** A real transfer on the sandbox's chain (--chain): confirmations come from the chain head. */
  chain?: { block: number; head: () => number; confirmedAt?: number };
}

export interface PinnedStatus {
  at: number;
  status: string;
  failReason: string | null;
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
  readonly sourceExchange: CatalogExchange | null;
  readonly destinationExchange: CatalogExchange | null;
  /** Where the user sends funds (Layerswap's address on the source network). */
  readonly depositAddress: string;
  /** A deposit made by hand (POST /sandbox/swaps/{id}/deposit or deposit()). */
  deposit: DepositEvent | null;
  pinned: PinnedStatus | null;
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
  if (rec.pinned && now >= rec.pinned.at) {
    const frozen = naturalStateAt(rec, rec.pinned.at, t);
    return { status: rec.pinned.status, failReason: rec.pinned.failReason, transactions: frozen.transactions };
  }
  return naturalStateAt(rec, now, t);
}

/** The input transaction's hash for this swap (known before it is visible, for lookups). */
function inputTxHash(rec: SwapRecord, d: DepositEvent): string {
  return d.txHash ?? fakeTxHash(rec.request.route.from.network.type, `${rec.id}:input`);
}

function naturalStateAt(rec: SwapRecord, now: number, t: SandboxTimings): SwapState {
  const d = effectiveDeposit(rec, t);
  if (!d || d.at > now) {
    return { status: now >= rec.createdAt + t.expiryMs ? 'expired' : 'user_transfer_pending', failReason: null, transactions: [] };
  }
  const { route, limits } = rec.request;
  const src = route.from.network;
  const max = src.max_confirmations;
  const interval = t.confirmationIntervalMs;
  const climbed = d.chain ? d.chain.head() - d.chain.block + 1 : interval > 0 ? Math.floor((now - d.at) / interval) : max;
  const inputFailed = d.outcome === 'input_failed';
  const expiresAt = rec.createdAt + t.expiryMs;
  const confirmations = inputFailed ? 0 : Math.min(max, climbed);
  const input = tx({
    type: 'input',
    status: inputFailed ? 'failed' : confirmations >= max ? 'completed' : 'pending',
    hash: inputTxHash(rec, d),
    at: d.at,
    network: src,
    token: route.from.token,
    amount: d.amount.value,
    from: d.from ?? rec.sourceAddress ?? fakeAddress(src.type, `user:${rec.id}`),
    to: rec.depositAddress,
    confirmations,
    maxConfirmations: max,
  });

  // A deposit after the swap expired is listed, and the swap stays expired (support returns it).
  if (d.at >= expiresAt) return { status: 'expired', failReason: null, transactions: [input] };
  if (inputFailed) {
    return { status: now >= d.at + interval ? 'failed' : 'user_transfer_pending', failReason: null, transactions: [input] };
  }
  // The real service keeps user_transfer_pending until the deposit is confirmed.
  if (confirmations < max) return { status: 'user_transfer_pending', failReason: null, transactions: [input] };

  if (d.amount.value < limits.min) return { status: 'failed', failReason: 'received_less_than_valid_range', transactions: [input] };
  if (d.amount.value > limits.max) return { status: 'failed', failReason: 'received_more_than_valid_range', transactions: [input] };

  if (d.chain && d.chain.confirmedAt === undefined) d.chain.confirmedAt = now;
  const confirmedAt = d.chain?.confirmedAt ?? d.at + max * interval;
  const payoutAt = confirmedAt + t.payoutDelayMs;
  if (now < payoutAt) return { status: 'ls_transfer_pending', failReason: null, transactions: [input] };

  if (d.outcome === 'fail') return { status: 'failed', failReason: d.failReason ?? null, transactions: [input] };

  if (d.outcome === 'fail_execution') {
    // Without a refund address Layerswap keeps retrying: the swap stays in ls_transfer_pending.
    if (!rec.refundAddress) return { status: 'ls_transfer_pending', failReason: null, transactions: [input] };
    const refundAt = payoutAt + t.refundDelayMs;
    if (now < refundAt) return { status: 'pending_refund', failReason: null, transactions: [input] };
    const refund = tx({
      type: 'refund',
      status: 'completed',
      hash: fakeTxHash(src.type, `${rec.id}:refund`),
      at: refundAt,
      network: src,
      token: route.from.token,
      amount: d.amount.value,
      from: fakeAddress(src.type, `hot:${src.name}`),
      to: rec.refundAddress,
      confirmations: max,
      maxConfirmations: max,
    });
    return { status: 'refunded', failReason: null, transactions: [input, refund] };
  }

  const dst = route.to.network;
  const figures = computeQuote(route, d.amount.value, {
    refuel: rec.request.refuel,
    slippage: rec.request.slippage,
    destinationAddress: rec.destinationAddress,
    gasless: rec.request.useGasless,
  });
  const payout = {
    network: dst,
    from: fakeAddress(dst.type, `hot:${dst.name}`),
    to: rec.destinationAddress,
    at: payoutAt,
    confirmations: dst.max_confirmations,
    maxConfirmations: dst.max_confirmations,
    status: 'completed',
  };
  const transactions = [
    input,
    tx({
      ...payout,
      type: 'output',
      hash: fakeTxHash(dst.type, `${rec.id}:output`),
      token: route.to.token,
      amount: figures.receive_amount,
    }),
  ];
  if (figures.refuel) {
    transactions.push(
      tx({ ...payout, type: 'refuel', hash: fakeTxHash(dst.type, `${rec.id}:refuel`), token: dst.native, amount: figures.refuel.amount }),
    );
  }
  // The output is on chain (and completed) a moment before the status says so (WDK notes).
  const status = now < payoutAt + t.completionLagMs ? 'ls_transfer_pending' : 'completed';
  return { status, failReason: null, transactions };
}

interface TxInit {
  type: string;
  status: string;
  hash: string;
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
    from: i.from,
    to: i.to,
    timestamp: date,
    transaction_hash: i.hash,
    confirmations: i.confirmations,
    max_confirmations: i.maxConfirmations,
    amount: i.amount,
    type: i.type,
    status: i.status,
    created_date: date,
    usd_price: price,
    usd_value: Math.round(i.amount * price * 1e6) / 1e6,
    network: swapNetworkView(i.network),
    token: slimTokenView(i.token),
  };
}

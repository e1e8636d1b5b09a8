import { sightingOf } from '../../contracts/chain.js';
import { phaseOfSwap, type SwapPhase } from '../../layerswap/phase.js';
import type { SwapDetails, Token, Transaction } from '../../layerswap/schemas.js';
import { parseTimeSpan } from '../../layerswap/timespan.js';
import type { DepositClaim } from '../../contracts/tracking.js';
import { decimalsOf, rescale, toUnits, unitsText, unitsValue } from './units.js';

/**
 * One model of the user's money in a swap, derived from the service's answer alone (pure), which
 * every message renders: deposit card, status card, key moments, /status, /history, the CSV and
 * the receipt. Amounts are in smallest units (units.ts), so what is shown adds up to the token's
 * precision. Where the answer is silent this follows the official app: the deposit that arrived
 * (input transaction) is what the swap runs on, not the amount asked.
 */

export interface MoneyToken {
  symbol: string;
  decimals: number;
  /** USD per token, when known (transaction usd_price, else the token's price_in_usd). */
  usd?: number;
}

/** An amount in one token. */
export interface Money {
  units: bigint;
  token: MoneyToken;
}

export type DeductionKind = 'service_fee' | 'network_fee' | 'refuel' | 'price_difference';

export interface Deduction {
  kind: DeductionKind;
  /** In the source token (may be negative for a price difference in the user's favour). */
  amount: Money;
  /** What a refuel delivers on the destination network (its native token). */
  delivers?: { amount: number; symbol: string; usd?: number };
}

/** The next thing for the user, one per phase (deposit seen → never 'send'). */
export type NextStep =
  | 'send'
  | 'wait_confirmations'
  | 'wait_match'
  | 'wait_payout'
  | 'wait_refund'
  | 'wait_review'
  | 'contact_support'
  | 'new_swap'
  | 'nothing'
  | 'check_later';

/** How the amount to receive now is known. */
export type ExpectedBasis = 'quote' | 'updated_quote' | 'estimate';

export interface SwapMoney {
  swapId: string;
  phase: SwapPhase;
  next: NextStep;
  source: MoneyToken;
  destination: MoneyToken;
  sameAsset: boolean;
  /** The amount the swap was created for. */
  asked?: Money;
  /**
   * The deposit that arrived (the newest input transaction that did not fail), else the swap's
   * token as the chain watcher saw it arrive at the deposit address (then `onChain` says where).
   */
  deposited?: Money & { tx?: string; at?: number };
  /**
   * The swap's own token seen arriving after the swap closed (the chain watcher's late sighting):
   * money the swap cannot take, which support returns. Never part of the deposit.
   */
  lateTransfer?: Money & { tx: string };
  /** The deposit was seen on chain before the service showed it (contracts/chain.ts). */
  onChain?: { network: string; block: number; confirmations: number; required: number };
  /** deposited − asked, when they differ by at least one smallest unit. */
  difference?: { kind: 'under' | 'over'; amount: Money };
  /** What the user receives, now: the payout once made, else the quote (re-derived for the deposit). */
  expected?: Money & { basis: ExpectedBasis };
  /** The minimum the quote guarantees for the amount asked (only while nothing differs). */
  minimum?: Money;
  received?: Money & { tx?: string };
  /** What the refuel transaction delivered (destination native token), once there is one. */
  refuelled?: Money;
  /** Each deduction between the amount sent and the amount received, in the source token. */
  deductions: Deduction[];
  /** Whether `deductions` reconcile sent − received exactly (a rate was known for different assets). */
  reconciled: boolean;
  refund?: { amount?: Money; address?: string; tx?: string };
  /** The refund address given at creation (a refund is only promised where there is one). */
  refundAddress?: string;
  /**
   * Whether a refund address was given: the service's swap object does not carry it (reference
   * section 3, and no real answer has it), so it is 'given' only from our record, a refund
   * transaction's recipient or an answer that does name it; 'none' only from our record.
   */
  refundKnown: 'given' | 'none' | 'unknown';
  /** The swap went through exchanges: withdrawal from / payout to. */
  sourceExchange?: string;
  destinationExchange?: string;
  deadlines: {
    /** The deposit window closes (created + 6 h), while waiting. */
    depositBy?: number;
    /** When the payout is usually done, once the deposit is in. */
    expectedBy?: number;
  };
  /** expectedBy has passed and the swap is not done: "later than usual". */
  late: boolean;
  /** The creator said "I've sent it" (with the hash when given), before the service showed a deposit. */
  claimed?: DepositClaim;
  /**
   * Any evidence of a deposit: the service's, the chain's, tracking's earlier sighting, or the
   * user's own "I've sent it". Once true, nothing asks for the money again.
   */
  evidence: boolean;
}

/** How long the service waits for a deposit before the swap expires (reference section 4). */
export const DEPOSIT_WINDOW_MS = 6 * 3_600_000;

const tokenOf = (
  t: Pick<Token, 'symbol' | 'decimals' | 'price_in_usd'> | null | undefined,
  fallback: string,
  usd?: number | null,
): MoneyToken => {
  const price =
    typeof usd === 'number' && usd > 0 ? usd : typeof t?.price_in_usd === 'number' && t.price_in_usd > 0 ? t.price_in_usd : undefined;
  return { symbol: t?.symbol ?? fallback, decimals: decimalsOf(t?.decimals), ...(price !== undefined ? { usd: price } : {}) };
};

const money = (n: number | null | undefined, token: MoneyToken, mode: 'round' | 'ceil' = 'round'): Money | undefined => {
  const units = toUnits(n, token.decimals, mode);
  return units === undefined ? undefined : { units, token };
};

function lastOf(txs: readonly Transaction[], type: string, live = false): Transaction | undefined {
  for (let i = txs.length - 1; i >= 0; i--) {
    const t = txs[i];
    if (t?.type === type && (!live || t.status !== 'failed')) return t;
  }
  return undefined;
}

const exchangeName = (e: { name: string; display_name?: string | null } | null | undefined) => (e ? e.display_name || e.name : undefined);

const timeOf = (tx: Transaction | undefined) => {
  const ms = Date.parse(tx?.timestamp ?? tx?.created_date ?? '');
  return Number.isNaN(ms) ? undefined : ms;
};

/** Same asset on both sides (USDC → USDC): no rate to speak of, amounts compare directly. */
function sameAssetOf(details: SwapDetails): boolean {
  const a = details.swap.source_token?.symbol;
  const b = details.swap.destination_token?.symbol;
  if (!a || !b) return false;
  const norm = (s: string) => s.toUpperCase().replace(/\.E$/, '');
  return norm(a) === norm(b);
}

/**
 * `depositSeen`: tracking saw this swap's deposit before (the service's answer may have moved back
 * since): the next step is never 'send' again. `typicalMs`: how long this route's recent swaps took
 * (observed by tracking), used instead of the service's average for when to expect the payout.
 * `refundAddress`: our record of the creation (the address, or null when none was given).
 */
export function swapMoney(
  details: SwapDetails,
  now: number,
  opts: { depositSeen?: boolean; typicalMs?: number; refundAddress?: string | null; claimed?: DepositClaim } = {},
): SwapMoney {
  const s = details.swap;
  const q = details.quote ?? undefined;
  const phase = phaseOfSwap(details);
  const input = lastOf(s.transactions, 'input', true);
  const output = lastOf(s.transactions, 'output');
  const refundTx = lastOf(s.transactions, 'refund');
  const refuelTx = lastOf(s.transactions, 'refuel');
  const refuelToken = refuelTokenOf(details, refuelTx);
  const refuelled =
    refuelTx && refuelToken && typeof refuelTx.amount === 'number'
      ? money(refuelTx.amount, tokenOf(refuelToken, '?', refuelTx.usd_price))
      : undefined;
  const source = tokenOf(s.source_token, '?', input?.usd_price);
  const destination = tokenOf(s.destination_token, '?', output?.usd_price);
  const sameAsset = sameAssetOf(details);

  const askedN = s.requested_amount ?? q?.requested_amount;
  const asked = money(askedN, source);
  const depositedM = input && typeof input.amount === 'number' ? money(input.amount, source) : undefined;
  const chain = depositedM ? undefined : chainDeposit(details, source);
  const deposited = depositedM
    ? {
        ...depositedM,
        ...(input?.transaction_hash ? { tx: input.transaction_hash } : {}),
        ...(timeOf(input) !== undefined ? { at: timeOf(input)! } : {}),
      }
    : chain?.deposited;
  const difference =
    asked && deposited && asked.units !== deposited.units
      ? {
          kind: deposited.units < asked.units ? ('under' as const) : ('over' as const),
          amount: { units: deposited.units > asked.units ? deposited.units - asked.units : asked.units - deposited.units, token: source },
        }
      : undefined;

  // Fees as quoted, in source units (reference section 5: total = blockchain + service).
  const serviceFee = money(q?.service_fee, source);
  const networkFee = money(q?.blockchain_fee, source) ?? (serviceFee === undefined ? money(q?.total_fee, source) : undefined);
  const refuelIn = money(q?.refuel_in_source, source);
  const feesUnits = (serviceFee?.units ?? 0n) + (networkFee?.units ?? 0n) + (refuelIn?.units ?? 0n);
  // Destination per source, from the quote's own figures when it gives no rate.
  const quoteNet = q && typeof q.requested_amount === 'number' ? q.requested_amount - unitsValue(feesUnits, source.decimals) : undefined;
  const rate =
    typeof q?.rate === 'number' && q.rate > 0
      ? q.rate
      : sameAsset
        ? 1
        : q && quoteNet && quoteNet > 0
          ? q.receive_amount / quoteNet
          : undefined;

  // What to receive now.
  const received =
    output && typeof output.amount === 'number' && output.status !== 'failed'
      ? { ...money(output.amount, destination)!, ...(output.transaction_hash ? { tx: output.transaction_hash } : {}) }
      : undefined;
  let expected: SwapMoney['expected'];
  const quoted = q ? money(q.receive_amount, destination) : undefined;
  if (received) expected = { ...received, basis: 'quote' };
  else if (deposited && difference) {
    const quoteFor = q && typeof q.requested_amount === 'number' ? toUnits(q.requested_amount, source.decimals) : undefined;
    if (quoted && quoteFor === deposited.units) expected = { ...quoted, basis: 'updated_quote' };
    else if (rate !== undefined) {
      const net = deposited.units - feesUnits;
      const value = net > 0n ? unitsValue(net, source.decimals) * rate : 0;
      const est = money(value, destination);
      if (est) expected = { ...est, basis: 'estimate' };
    }
  } else if (quoted) expected = { ...quoted, basis: 'quote' };
  const minimum = !difference && !received && q ? money(q.min_receive_amount, destination) : undefined;

  // Deductions: sent − received, each by kind; the price difference is what the fees leave unexplained.
  const sent = deposited ?? asked;
  const deductions: Deduction[] = [];
  if (serviceFee && serviceFee.units !== 0n) deductions.push({ kind: 'service_fee', amount: serviceFee });
  if (networkFee && networkFee.units !== 0n) deductions.push({ kind: 'network_fee', amount: networkFee });
  if (refuelIn && refuelIn.units !== 0n) {
    const r = details.refuel;
    const delivers =
      r && typeof r.amount === 'number' && r.amount > 0
        ? { amount: r.amount, symbol: r.token?.symbol ?? '', ...(typeof r.amount_in_usd === 'number' ? { usd: r.amount_in_usd } : {}) }
        : undefined;
    deductions.push({ kind: 'refuel', amount: refuelIn, ...(delivers ? { delivers } : {}) });
  }
  let reconciled = false;
  const outcome = received ?? expected;
  if (sent && outcome && rate !== undefined) {
    // The payout in source units: same asset rescaled exactly, else through the rate.
    const inSource =
      sameAsset && rate === 1
        ? rescale(outcome.units, destination.decimals, source.decimals)
        : toUnits(unitsValue(outcome.units, destination.decimals) / rate, source.decimals);
    if (inSource !== undefined) {
      const diff = sent.units - feesUnits - inSource;
      if (diff !== 0n) deductions.push({ kind: 'price_difference', amount: { units: diff, token: source } });
      reconciled = true;
    }
  }

  const refundAddress = s.refund_address ?? opts.refundAddress ?? (refundTx?.to || undefined);
  const refundKnown = refundAddress ? ('given' as const) : opts.refundAddress === null ? ('none' as const) : ('unknown' as const);
  const refund =
    phase.kind === 'refunding' || phase.kind === 'refunded' || refundTx
      ? {
          ...(refundTx && typeof refundTx.amount === 'number'
            ? { amount: money(refundTx.amount, tokenOf(refundTx.token ?? s.source_token, source.symbol, refundTx.usd_price))! }
            : {}),
          ...(refundAddress ? { address: refundAddress } : {}),
          ...(refundTx?.transaction_hash ? { tx: refundTx.transaction_hash } : {}),
        }
      : undefined;

  const created = Date.parse(s.created_date ?? '');
  const avg = opts.typicalMs ?? parseTimeSpan(q?.avg_completion_time);
  const started = timeOf(input);
  const deadlines: SwapMoney['deadlines'] = {};
  if (phase.kind === 'waiting' && !Number.isNaN(created)) deadlines.depositBy = created + DEPOSIT_WINDOW_MS;
  if ((phase.kind === 'confirming' || phase.kind === 'processing') && avg !== undefined && started !== undefined)
    deadlines.expectedBy = started + avg;
  const late = deadlines.expectedBy !== undefined && now > deadlines.expectedBy;

  const claimed = opts.claimed && !deposited ? opts.claimed : undefined;
  const lateTransfer = chainMoney(details, source, LATE);
  return {
    swapId: s.id,
    phase,
    next: nextStep(phase.kind, { deposited: !!deposited || opts.depositSeen === true, claimed: claimed !== undefined }),
    source,
    destination,
    sameAsset,
    ...(asked ? { asked } : {}),
    ...(deposited ? { deposited } : {}),
    ...(chain ? { onChain: chain.onChain } : {}),
    ...(lateTransfer ? { lateTransfer } : {}),
    ...(difference ? { difference } : {}),
    ...(expected ? { expected } : {}),
    ...(minimum ? { minimum } : {}),
    ...(received ? { received } : {}),
    ...(refuelled ? { refuelled } : {}),
    deductions,
    reconciled,
    ...(refund ? { refund } : {}),
    ...(refundAddress ? { refundAddress } : {}),
    refundKnown,
    ...(exchangeName(s.source_exchange) ? { sourceExchange: exchangeName(s.source_exchange)! } : {}),
    ...(exchangeName(s.destination_exchange) ? { destinationExchange: exchangeName(s.destination_exchange)! } : {}),
    deadlines,
    late,
    ...(claimed ? { claimed } : {}),
    evidence: !!deposited || opts.depositSeen === true || claimed !== undefined,
  };
}

/**
 * The swap's own token seen arriving on chain while the service has yet to show it: the same
 * deposited amount (so an under- or over-payment reads as the service-seen one). Another token,
 * or a transfer after expiry, is not the swap's deposit (the chain lines tell those).
 */
function chainDeposit(
  details: SwapDetails,
  source: MoneyToken,
): { deposited: Money & { tx: string }; onChain: NonNullable<SwapMoney['onChain']> } | undefined {
  const deposited = chainMoney(details, source, DEPOSIT);
  const c = sightingOf(details);
  if (!deposited || !c) return undefined;
  return { deposited, onChain: { network: c.network, block: c.block, confirmations: c.confirmations, required: c.required } };
}

const DEPOSIT = new Set(['ok', 'less', 'more']);
const LATE = new Set(['late']);

/** The swap's own token in a chain sighting with one of these verdicts, as money. */
function chainMoney(details: SwapDetails, source: MoneyToken, verdicts: ReadonlySet<string>): (Money & { tx: string }) | undefined {
  const c = sightingOf(details);
  if (!c || !verdicts.has(c.verdict)) return undefined;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(c.amount);
  if (!m || (m[2]?.length ?? 0) > source.decimals) return undefined;
  return { units: BigInt((m[1] ?? '0') + (m[2] ?? '').padEnd(source.decimals, '0')), token: source, tx: c.txHash };
}

/**
 * The token a refuel delivers: the destination network's native token, never the swap's
 * destination token (a refuel transaction may come without its token).
 */
export const refuelTokenOf = (details: SwapDetails, tx?: Transaction): Token | undefined =>
  tx?.token ?? details.refuel?.token ?? details.swap.destination_network?.token ?? undefined;

/** The one next step of each phase. */
function nextStep(kind: SwapPhase['kind'], facts: { deposited: boolean; claimed: boolean }): NextStep {
  switch (kind) {
    case 'waiting':
      return facts.deposited ? 'wait_confirmations' : facts.claimed ? 'wait_match' : 'send';
    case 'confirming':
      return 'wait_confirmations';
    case 'processing':
      return 'wait_payout';
    case 'delivered':
      return 'nothing';
    // The service refunds by itself only to a refund address (reference section 4): pending_refund says there is one.
    case 'refunding':
      return 'wait_refund';
    case 'refunded':
      return 'nothing';
    case 'on_hold':
      return 'wait_review';
    case 'failed':
      return facts.deposited || facts.claimed ? 'contact_support' : 'new_swap';
    case 'expired':
      return facts.deposited || facts.claimed ? 'contact_support' : 'new_swap';
    case 'cancelled':
      return 'new_swap';
    case 'unknown':
      return 'check_later';
  }
}

/** Text of an amount with never more decimals than its token has ("79.157021 USDC"). */
export const moneyText = (m: Money): string => `${unitsText(m.units, m.token.decimals)} ${m.token.symbol}`;

/** Plain number text of an amount ("79.157021"). */
export const moneyNumber = (m: Money): string => unitsText(m.units, m.token.decimals);

/** The amount the user sent (the deposit once seen, else the amount asked). */
export const sentOf = (m: SwapMoney): Money | undefined => m.deposited ?? m.asked;

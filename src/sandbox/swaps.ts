import { randomUUID } from 'node:crypto';
import { depositActions, depositAddressFor } from './deposit-actions.js';
import { checkDecimals, Fields } from './fields.js';
import { SandboxHttpError, validation } from './http-error.js';
import { effectiveDeposit, swapStateAt, type SwapRecord } from './lifecycle.js';
import { clip } from './lookup.js';
import { isoWithOffset } from './numbers.js';
import { quoteParts } from './quote.js';
import { checkAddress, parseRouteRequest } from './route-request.js';
import type { DepositOutcome, SandboxClock, SandboxTimings } from './types.js';
import { networkRefView, tokenView, type Json } from './views.js';

/** Swaps in memory, oldest dropped past this many so a long-running sandbox stays bounded. */
const MAX_SWAPS = 50_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OUTCOMES: readonly DepositOutcome[] = ['complete', 'fail_execution'];

export class SwapStore {
  private readonly swaps = new Map<string, SwapRecord>();
  private nextSequence = 81_230;

  constructor(
    private readonly clock: SandboxClock,
    private readonly timings: SandboxTimings,
  ) {}

  /** POST /api/v2/swaps. */
  create(body: Record<string, unknown>): Json {
    const f = Fields.fromBody(body);
    const request = parseRouteRequest(f, { destinationRequired: true });
    const refundAddress = f.string('refund_address');
    if (refundAddress !== undefined) checkAddress('refund_address', request.route.from.network, refundAddress);
    const id = randomUUID();
    const rec: SwapRecord = {
      id,
      createdAt: this.clock.now(),
      sequenceNumber: this.nextSequence++,
      request,
      destinationAddress: request.destinationAddress ?? '',
      sourceAddress: request.sourceAddress ?? null,
      refundAddress: refundAddress ?? null,
      referenceId: f.string('reference_id') ?? null,
      appName: f.string('app_name') ?? null,
      depositAddress: depositAddressFor(request.route.from.network, id, request.useDepositAddress),
      deposit: null,
    };
    this.swaps.set(id, rec);
    if (this.swaps.size > MAX_SWAPS) {
      const oldest = this.swaps.keys().next().value;
      if (oldest !== undefined) this.swaps.delete(oldest);
    }
    return this.details(rec, true);
  }

  /** GET /api/v2/swaps/{id}: unknown ids are NOT_FOUND, malformed ones a VALIDATION_ERROR. */
  find(id: string): SwapRecord {
    if (!UUID.test(id)) throw validation(`swapId must be a UUID such as 3f2b0c1e-8a4d-4e1f-9c2a-7b5d6e8f9a0b (got '${clip(id, 40)}').`);
    const rec = this.swaps.get(id.toLowerCase());
    if (!rec) throw new SandboxHttpError('NOT_FOUND', `Swap ${id} was not found.`);
    return rec;
  }

  /** Simulates the user's deposit now. Defaults: the requested amount, outcome 'complete'. */
  deposit(id: string, options: { amount?: unknown; outcome?: unknown } = {}): SwapRecord {
    const rec = this.find(id);
    const now = this.clock.now();
    const status = swapStateAt(rec, now, this.timings).status;
    if (status === 'expired') throw new SandboxHttpError('CONFLICT', `Swap ${id} has expired; it no longer accepts a deposit.`);
    const existing = effectiveDeposit(rec, this.timings);
    if (existing && existing.at <= now) throw new SandboxHttpError('CONFLICT', `Swap ${id} has already received its deposit.`);
    let amount = rec.request.amount;
    if (options.amount !== undefined && options.amount !== null) {
      amount = Fields.fromBody({ amount: options.amount }).amount('amount');
      checkDecimals('amount', amount, rec.request.route.from.token);
    }
    const outcome = options.outcome ?? 'complete';
    if (!OUTCOMES.includes(outcome as DepositOutcome)) throw validation(`outcome must be one of ${OUTCOMES.join(', ')}.`);
    rec.deposit = { at: now, amount, outcome: outcome as DepositOutcome };
    return rec;
  }

  /** {quote, refuel, reward, swap, deposit_actions?}, as POST /swaps and GET /swaps/{id} return it. */
  details(rec: SwapRecord, includeDepositActions: boolean): Json {
    const out: Json = { ...quoteParts(rec.request.route, rec.request.figures), swap: this.swapView(rec) };
    if (includeDepositActions) out.deposit_actions = depositActions(rec);
    return out;
  }

  private swapView(rec: SwapRecord): Json {
    const state = swapStateAt(rec, this.clock.now(), this.timings);
    const { route, amount, useDepositAddress } = rec.request;
    return {
      id: rec.id,
      created_date: isoWithOffset(rec.createdAt),
      source_network: networkRefView(route.from.network),
      source_token: tokenView(route.from.token),
      source_exchange: null,
      destination_network: networkRefView(route.to.network),
      destination_token: tokenView(route.to.token),
      destination_exchange: null,
      requested_amount: amount.value,
      destination_address: rec.destinationAddress,
      source_address: rec.sourceAddress,
      refund_address: rec.refundAddress,
      status: state.status,
      fail_reason: state.failReason,
      use_deposit_address: useDepositAddress,
      metadata: { reference_id: rec.referenceId, app: rec.appName, exchange_account: null, sequence_number: rec.sequenceNumber },
      transactions: state.transactions,
    };
  }
}

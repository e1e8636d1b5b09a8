import { randomUUID } from 'node:crypto';
import { isSwapId } from '../contracts/swap-id.js';
import { depositActions, depositAddressFor } from './deposit-actions.js';
import { exchangeMoves, resolveExchange } from './exchanges.js';
import { checkDecimals, Fields } from './fields.js';
import { SandboxHttpError, validation } from './http-error.js';
import { effectiveDeposit, swapStateAt, type SwapRecord } from './lifecycle.js';
import { clip } from './lookup.js';
import type { CatalogExchange, CatalogNetwork, CatalogToken } from './model.js';
import { isoWithOffset } from './numbers.js';
import { quoteParts, swapQuoteView } from './quote.js';
import { checkAddress, parseRouteRequest, type RouteRequest } from './route-request.js';
import { SANDBOX_FAIL_REASONS, type DepositOutcome, type SandboxClock, type SandboxTimings } from './types.js';
import { exchangeView, slimTokenView, swapNetworkView, type Json } from './views.js';

/** Swaps in memory, oldest dropped past this many so a long-running sandbox stays bounded. */
const MAX_SWAPS = 50_000;
/** GET /swaps?address= page size. */
const SWAP_PAGE_SIZE = 20;
const OUTCOMES: readonly DepositOutcome[] = ['complete', 'fail_execution', 'fail', 'input_failed'];
/** Statuses a test may pin by hand (POST /sandbox/swaps/{id}/status). */
const PINNABLE = [
  'created',
  'user_transfer_pending',
  'user_transfer_delayed',
  'ls_transfer_pending',
  'completed',
  'failed',
  'expired',
  'cancelled',
  'pending_refund',
  'refunded',
] as const;
/** GET /swaps `statuses`: the list filter's PascalCase enum, and the sandbox's reading of it (Layerswap documents no mapping). */
export const LIST_STATUSES = [
  'PendingDeposit',
  'PendingWithdrawal',
  'PendingRefund',
  'Completed',
  'Failed',
  'Expired',
  'Refunded',
] as const;
const LIST_STATUS_OF: Readonly<Record<string, (typeof LIST_STATUSES)[number]>> = {
  created: 'PendingDeposit',
  user_transfer_pending: 'PendingDeposit',
  user_transfer_delayed: 'PendingDeposit',
  ls_transfer_pending: 'PendingWithdrawal',
  pending_refund: 'PendingRefund',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Failed',
  expired: 'Expired',
  refunded: 'Refunded',
};

/** GET /swaps filters: any of the addresses, and (when given) any of the statuses and networks. */
export interface ListFilter {
  addresses: string[];
  statuses: string[];
  networks: string[];
}

/** Sequence numbers are 8 digits in real answers (docs: 11177265). */
const FIRST_SEQUENCE = 11_204_617;

export class SwapStore {
  private readonly swaps = new Map<string, SwapRecord>();
  private nextSequence = FIRST_SEQUENCE;
  /** deposit_speedup calls received, by swap id (the sandbox detects deposits by itself anyway). */
  readonly speedups = new Map<string, string[]>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly timings: SandboxTimings,
    /** The sandbox's chain (--chain): real deposit addresses, and each new swap watched there. */
    private readonly hooks: {
      depositAddress?(network: CatalogNetwork, swapId: string, useDepositAddress: boolean): string | undefined;
      created?(rec: SwapRecord): void;
      /** A gasless swap's `sign` action, built for the wallet that asks (gasless.ts). */
      signAction?(rec: SwapRecord, sourceAddress: string | undefined): Json;
    } = {},
  ) {}

  /** POST /api/v2/swaps. */
  create(body: Record<string, unknown>): Json {
    const f = Fields.fromBody(body);
    let request = parseRouteRequest(f, { destinationRequired: true });
    const sourceExchange = exchangeParam(f, 'source_exchange', request.route.from);
    const destinationExchange = exchangeParam(f, 'destination_exchange', request.route.to);
    // An exchange cannot sign a wallet transaction: withdrawals from it go to a deposit address.
    if (sourceExchange && !request.useDepositAddress) request = { ...request, useDepositAddress: true, useGasless: false };
    const refundAddress = f.string('refund_address');
    if (refundAddress !== undefined) checkAddress('refund_address', request.route.from.network, refundAddress);
    // A route through a swap provider (one asset to another) needs somewhere to send a refund (docs refunds.mdx).
    if (refundAddress === undefined && request.route.crossAsset)
      throw validation('refund_address is required for this route: it goes through a swap provider.');
    const rec = this.add(request, {
      refundAddress: refundAddress ?? null,
      referenceId: f.string('reference_id') ?? null,
      appName: f.string('app_name') ?? null,
      sourceExchange,
      destinationExchange,
    });
    return this.details(rec, true);
  }

  /** A swap made by another app (POST /sandbox/swaps): optionally with its deposit already sent. */
  inject(body: Record<string, unknown>): SwapRecord {
    const f = Fields.fromBody(body);
    const request = parseRouteRequest(f, { destinationRequired: true });
    const txHash = f.string('deposit_tx_hash');
    if (txHash !== undefined && !/^[0-9A-Za-z:_-]{16,128}$/.test(txHash)) {
      throw validation('deposit_tx_hash must be a transaction hash (16 to 128 letters, digits, 0x...).');
    }
    const rec = this.add(request, {
      refundAddress: null,
      referenceId: null,
      appName: 'another-app',
      sourceExchange: null,
      destinationExchange: null,
    });
    if (txHash !== undefined) {
      this.deposit(rec.id, { outcome: body.outcome });
      if (rec.deposit) rec.deposit = { ...rec.deposit, txHash, from: request.sourceAddress };
    }
    return rec;
  }

  private add(
    request: RouteRequest,
    extra: Pick<SwapRecord, 'refundAddress' | 'referenceId' | 'appName' | 'sourceExchange' | 'destinationExchange'>,
  ): SwapRecord {
    const id = randomUUID();
    const rec: SwapRecord = {
      id,
      createdAt: this.clock.now(),
      sequenceNumber: this.nextSequence++,
      request,
      destinationAddress: request.destinationAddress ?? '',
      sourceAddress: request.sourceAddress ?? null,
      ...extra,
      depositAddress:
        this.hooks.depositAddress?.(request.route.from.network, id, request.useDepositAddress || request.useGasless) ??
        depositAddressFor(request.route.from.network, id, request.useDepositAddress || request.useGasless),
      deposit: null,
      pinned: null,
    };
    this.swaps.set(id, rec);
    this.hooks.created?.(rec);
    if (this.swaps.size > MAX_SWAPS) {
      const oldest = this.swaps.keys().next().value;
      if (oldest !== undefined) this.swaps.delete(oldest);
    }
    return rec;
  }

  /** GET /api/v2/swaps/{id}: unknown ids are NOT_FOUND, malformed ones a VALIDATION_ERROR. */
  find(id: string): SwapRecord {
    if (!isSwapId(id)) throw validation(`swapId must be a UUID such as 3f2b0c1e-8a4d-4e1f-9c2a-7b5d6e8f9a0b (got '${clip(id, 40)}').`);
    const rec = this.swaps.get(id.toLowerCase());
    if (!rec) throw new SandboxHttpError('NOT_FOUND', `Swap ${id} was not found.`);
    return rec;
  }

  /** The swap by id, or undefined (no HTTP error: for the sandbox's own chain). */
  get(id: string): SwapRecord | undefined {
    return this.swaps.get(id.toLowerCase());
  }

  all(): IterableIterator<SwapRecord> {
    return this.swaps.values();
  }

  /** Simulates the user's deposit now. Defaults: the requested amount, outcome 'complete'. */
  deposit(id: string, options: { amount?: unknown; outcome?: unknown; failReason?: unknown; late?: boolean } = {}): SwapRecord {
    const { rec, deposit } = this.checkDeposit(id, options);
    rec.deposit = deposit;
    return rec;
  }

  /** deposit()'s checks, and the deposit it would record (the chain sends it as a real transfer instead). */
  checkDeposit(
    id: string,
    options: { amount?: unknown; outcome?: unknown; failReason?: unknown; late?: boolean } = {},
  ): { rec: SwapRecord; deposit: NonNullable<SwapRecord['deposit']> } {
    const rec = this.find(id);
    const now = this.clock.now();
    const status = swapStateAt(rec, now, this.timings).status;
    // `late`: funds sent to an expired swap's address anyway; the swap stays expired and lists them.
    if (status === 'expired' && options.late !== true)
      throw new SandboxHttpError('CONFLICT', `Swap ${id} has expired; it no longer accepts a deposit.`);
    const existing = effectiveDeposit(rec, this.timings);
    if (existing && existing.at <= now) throw new SandboxHttpError('CONFLICT', `Swap ${id} has already received its deposit.`);
    let amount = rec.request.amount;
    if (options.amount !== undefined && options.amount !== null) {
      amount = Fields.fromBody({ amount: options.amount }).amount('amount');
      checkDecimals('amount', amount, rec.request.route.from.token);
    }
    const outcome = options.outcome ?? 'complete';
    if (!OUTCOMES.includes(outcome as DepositOutcome)) throw validation(`outcome must be one of ${OUTCOMES.join(', ')}.`);
    const failReason = options.failReason ?? null;
    if (failReason !== null && !(SANDBOX_FAIL_REASONS as readonly unknown[]).includes(failReason)) {
      throw validation(`failReason must be null or one of ${SANDBOX_FAIL_REASONS.join(', ')}.`);
    }
    return { rec, deposit: { at: now, amount, outcome: outcome as DepositOutcome, failReason: failReason as string | null } };
  }

  /** Pins a status from now on, e.g. user_transfer_delayed or cancelled (POST /sandbox/swaps/{id}/status). */
  pin(id: string, status: unknown, failReason: unknown = null): SwapRecord {
    const rec = this.find(id);
    if (typeof status !== 'string' || !(PINNABLE as readonly string[]).includes(status)) {
      throw validation(`status must be one of ${PINNABLE.join(', ')}.`);
    }
    if (failReason !== null && !(SANDBOX_FAIL_REASONS as readonly unknown[]).includes(failReason)) {
      throw validation(`fail_reason must be null or one of ${SANDBOX_FAIL_REASONS.join(', ')}.`);
    }
    rec.pinned = { at: this.clock.now(), status, failReason: failReason as string | null };
    return rec;
  }

  statusOf(rec: SwapRecord): string {
    return swapStateAt(rec, this.clock.now(), this.timings).status;
  }

  /** GET /api/v2/swaps?address=: swaps whose source or destination address (or deposit sender) matches, newest first. */
  listByAddress(filter: ListFilter, page: number, includeExpired: boolean): Json[] {
    const wanted = filter.addresses.map(sameAddress);
    const now = this.clock.now();
    const matches = [...this.swaps.values()]
      .filter((rec) => {
        const d = effectiveDeposit(rec, this.timings);
        const sender = d && d.at <= now ? d.from : undefined;
        return [rec.sourceAddress, rec.destinationAddress, sender].some((a) => typeof a === 'string' && wanted.some((w) => w(a)));
      })
      .filter((rec) => {
        const status = this.statusOf(rec);
        if (filter.statuses.length) return filter.statuses.includes(LIST_STATUS_OF[status] ?? '');
        return includeExpired || status !== 'expired';
      })
      .filter(
        (rec) =>
          !filter.networks.length ||
          [rec.request.route.from.network.name, rec.request.route.to.network.name].some((n) => filter.networks.includes(n)),
      )
      .reverse();
    return matches.slice((page - 1) * SWAP_PAGE_SIZE, page * SWAP_PAGE_SIZE).map((rec) => this.details(rec, false));
  }

  /** GET /api/v2/swaps/by_transaction_hash/{hash}: the swap one of whose visible transactions has this hash. */
  findByTxHash(hash: string): SwapRecord {
    const wanted = sameAddress(hash);
    for (const rec of this.swaps.values()) {
      const txs = swapStateAt(rec, this.clock.now(), this.timings).transactions;
      if (txs.some((t) => typeof t.transaction_hash === 'string' && wanted(t.transaction_hash))) return rec;
    }
    throw new SandboxHttpError('NOT_FOUND', `No swap has a transaction ${clip(hash, 70)}.`);
  }

  /** GET /api/v2/transaction_status: a transaction the sandbox knows, on that network. */
  transactionStatus(network: CatalogNetwork, txId: string): Json {
    const wanted = sameAddress(txId);
    for (const rec of this.swaps.values()) {
      for (const t of swapStateAt(rec, this.clock.now(), this.timings).transactions) {
        const onNetwork = (t.network as Json | undefined)?.name === network.name;
        if (onNetwork && typeof t.transaction_hash === 'string' && wanted(t.transaction_hash)) {
          return {
            network: network.name,
            transaction_id: txId,
            is_found: true,
            is_completed: t.status === 'completed',
            confirmations: t.confirmations,
            max_confirmations: t.max_confirmations,
          };
        }
      }
    }
    return { network: network.name, transaction_id: txId, is_found: false, is_completed: false };
  }

  /** POST /api/v2/swaps/{id}/deposit_speedup: accepted and remembered; detection does not depend on it. */
  speedup(id: string, body: Record<string, unknown>): null {
    const rec = this.find(id);
    const txId = Fields.fromBody(body).string('transaction_id', true);
    if (txId.length > 128) throw validation('transaction_id is too long to be a transaction hash.');
    const list = this.speedups.get(rec.id) ?? [];
    list.push(txId);
    this.speedups.set(rec.id, list.slice(-10));
    return null;
  }

  /** {quote, refuel, reward, swap, deposit_actions?}, as POST /swaps and GET /swaps/{id} return it. */
  details(rec: SwapRecord, includeDepositActions: boolean, sourceAddress?: string): Json {
    const { refuel, reward } = quoteParts(rec.request.route, rec.request.figures);
    const out: Json = { swap: this.swapView(rec), quote: swapQuoteView(rec.request.figures), refuel, reward };
    if (includeDepositActions) out.deposit_actions = this.depositActions(rec, sourceAddress);
    return out;
  }

  /** GET /swaps/{id}/deposit_actions: a gasless swap's one `sign` action, else what to send. */
  depositActions(rec: SwapRecord, sourceAddress?: string): Json[] {
    const sign = rec.request.useGasless ? this.hooks.signAction?.(rec, sourceAddress) : undefined;
    return sign ? [sign] : depositActions(rec);
  }

  swapView(rec: SwapRecord): Json {
    const state = swapStateAt(rec, this.clock.now(), this.timings);
    const { route, amount, useDepositAddress } = rec.request;
    return {
      id: rec.id,
      created_date: isoWithOffset(rec.createdAt),
      source_network: swapNetworkView(route.from.network),
      source_token: slimTokenView(route.from.token),
      ...(rec.sourceExchange ? { source_exchange: exchangeView(rec.sourceExchange) } : {}),
      destination_network: swapNetworkView(route.to.network),
      destination_token: slimTokenView(route.to.token),
      ...(rec.destinationExchange ? { destination_exchange: exchangeView(rec.destinationExchange) } : {}),
      requested_amount: amount.value,
      destination_address: rec.destinationAddress,
      ...(rec.sourceAddress ? { source_address: rec.sourceAddress } : {}),
      // No refund_address: the service's swap object has none (reference section 3; no real answer
      // carries it). The address the request gave decides the lifecycle and is the refund's `to`.
      status: state.status,
      fail_reason: state.failReason,
      use_deposit_address: useDepositAddress,
      metadata: { sequence_number: rec.sequenceNumber, reference_id: rec.referenceId, app: rec.appName },
      transactions: state.transactions,
    };
  }

  /** What a webhook carries: the whole swap on completed, a subset otherwise (docs: webhook.mdx). */
  /**
   * The body Layerswap's docs show: {swap, quote, deposit_actions}; only `completed` carries the
   * whole swap, other statuses a subset of it (api-reference/webhook.mdx).
   */
  webhookPayload(rec: SwapRecord): Json {
    const swap = this.swapView(rec);
    if (swap.status === 'completed') return { swap, quote: swapQuoteView(rec.request.figures), deposit_actions: this.depositActions(rec) };
    return { swap: { id: swap.id, created_date: swap.created_date, status: swap.status, fail_reason: swap.fail_reason } };
  }
}

/** source_exchange / destination_exchange: a known exchange that sends (or takes) this token on this network. */
function exchangeParam(f: Fields, param: string, end: { network: CatalogNetwork; token: CatalogToken }): CatalogExchange | null {
  const raw = f.string(param);
  if (raw === undefined) return null;
  const exchange = resolveExchange(param, raw);
  if (!exchangeMoves(exchange, end.network, end.token)) {
    throw new SandboxHttpError(
      'ROUTE_NOT_FOUND_ERROR',
      `${exchange.display_name} does not move ${end.token.symbol} over ${end.network.display_name}.`,
    );
  }
  return exchange;
}

/** Hex (EVM, Starknet) addresses and hashes compare without case; others exactly. */
function sameAddress(wanted: string): (a: string) => boolean {
  const w = wanted.trim();
  return /^0x/i.test(w) ? (a) => a.toLowerCase() === w.toLowerCase() : (a) => a === w;
}

import type { Redis } from 'ioredis';
import type { ChainSighting, SightingVerdict } from '../contracts/chain.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { sameContract, type SeenTransfer, type WatchEntry } from '../chain/watcher.js';

/**
 * What a transfer to a swap's deposit address means for the swap's money (chain-watch.ts).
 * Only the swap's own token counts as its deposit, and only from a dust floor up: a tenth of the
 * amount asked (DUST_FRACTION). Below it (a zero-value or tiny transfer: address poisoning, which
 * anyone can send to any address) it is noise, never "Deposit seen"; above it, a different amount
 * is a real under- or over-payment and is said as one. After the swap expired only a transfer of
 * real value is told (late). Other tokens are noise told once per swap (wrong_token).
 */

/** A transfer of the swap's token below this share of the amount asked is dust, not a deposit. */
const DUST_FRACTION_DENOMINATOR = 10n;

/** A catalogue's chain id (decimal, or 0x hex) as a number; undefined when it is none an EVM RPC could answer. */
export function catalogueChainId(text: string | null | undefined): number | undefined {
  if (!text || !/^(\d+|0x[0-9a-f]+)$/i.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The smallest transfer of the swap's token that is taken for its deposit (at least one base unit). */
export function dustFloor(expectedBase: bigint): bigint {
  const floor = expectedBase / DUST_FRACTION_DENOMINATOR;
  return floor > 0n ? floor : 1n;
}

export type TransferKind = 'deposit' | 'dust' | 'wrong_token' | 'no_memo';

export function kindOf(sameToken: boolean, value: bigint, floor: bigint): TransferKind {
  if (!sameToken) return 'wrong_token';
  return value >= floor ? 'deposit' : 'dust';
}

/** Noise told (another token on the card), dust logged, a late transfer told, one without the memo told: each once per swap. */
export interface Told {
  noise?: true | undefined;
  memo?: true | undefined;
  dust?: true | undefined;
  late?: true | undefined;
}

export function sameToken(entry: WatchEntry, t: SeenTransfer): boolean {
  return sameContract(t.contract, entry.token.contract);
}

/**
 * Whether a transfer is worth a receipt and a card: dust never is (noted in `told` to log it once);
 * another token only while none was told for this swap and no deposit is shown; after expiry only
 * a late transfer of real value, once; a deposit only while none is shown (a new transaction).
 */
export function worthTelling(
  w: { expired: boolean; told: Told },
  kind: TransferKind,
  shown: Pick<ChainSighting, 'verdict' | 'txHash'> | undefined,
  txHash: string,
): boolean {
  if (kind === 'dust') {
    w.told.dust = true;
    return false;
  }
  const deposit = shown !== undefined && (shown.verdict === 'ok' || shown.verdict === 'less' || shown.verdict === 'more');
  // Sent without the memo: told at once (even after expiry: support is the way to it), once, and not beside a deposit seen.
  if (kind === 'no_memo') return !w.told.memo && !deposit;
  if (w.expired) return kind === 'deposit' && !w.told.late;
  if (kind === 'wrong_token') return !w.told.noise && !deposit;
  return !shown || shown.txHash === txHash || shown.verdict !== 'ok';
}

/** A deposit of the swap's token: its verdict by amount (late after expiry). */
export function depositVerdict(value: bigint, expectedBase: bigint, expired: boolean): SightingVerdict {
  if (expired) return 'late';
  return value < expectedBase ? 'less' : value > expectedBase ? 'more' : 'ok';
}

/**
 * A deposit sighting on a swap the service closed (expired, cancelled) listing no deposit of its
 * own: late money, whatever the watcher judged when it saw it (it may have seen the transfer before
 * its own poll heard of the expiry). Never "Deposit seen" on a closed swap. A deposit the service
 * lists is its own story (the money model's "reached this swap after it closed").
 */
export function lateOnClose(s: ChainSighting, status: string, serviceListsInput: boolean): boolean {
  if (s.verdict !== 'ok' && s.verdict !== 'less' && s.verdict !== 'more') return false;
  return (status === 'expired' || status === 'cancelled') && !serviceListsInput;
}

/** A stored sighting of the swap's own token of real value, not taken back: its deposit, which the money model counts. */
export function isDeposit(c: string | undefined): boolean {
  if (!c) return false;
  const v = (JSON.parse(c) as ChainSighting).verdict;
  return v === 'ok' || v === 'less' || v === 'more';
}

/**
 * Whether a sighting going on the card is news the service should confirm now (the card's
 * redraw is then followed by an API request): another transfer or verdict than the card shows
 * (`before`, stored JSON), or the service's count of confirmations just reached.
 */
export function serviceShouldSee(before: string | undefined, now: ChainSighting): boolean {
  if (!before) return true;
  const b = JSON.parse(before) as ChainSighting;
  if (b.txHash !== now.txHash || b.verdict !== now.verdict || b.block !== now.block) return true;
  return now.required > 0 && now.confirmations >= now.required && b.confirmations < now.required;
}

/**
 * The swap's own deposit address and token, from a manual_transfer deposit action; on TON (wallet
 * flow only at Layerswap) the transfer action's shared address with the comment its call data
 * asks for ({amount, asset, comment}), and the swap's source address when the service names it.
 */
export function entryOf(details: SwapDetails): WatchEntry | undefined {
  const manual = details.deposit_actions?.find((a) => a.type === 'manual_transfer' && a.to_address);
  const ton = manual ? undefined : tonTransfer(details);
  const action = manual ?? ton?.action;
  const network = action?.network?.name ?? details.swap.source_network?.name;
  const token = action?.token ?? details.swap.source_token;
  if (!action?.to_address || !network || !token || typeof token.decimals !== 'number') return undefined;
  const from = details.swap.source_address;
  return {
    swapId: details.swap.id,
    network,
    address: action.to_address,
    token: { symbol: token.symbol, contract: token.contract ?? null, decimals: token.decimals },
    ...(ton ? { memo: ton.memo, ...(from ? { from } : {}) } : {}),
  };
}

function tonTransfer(details: SwapDetails) {
  for (const action of details.deposit_actions ?? []) {
    const type = action.network?.type ?? details.swap.source_network?.type;
    if (action.type !== 'transfer' || !action.to_address || type?.toLowerCase() !== 'ton' || !action.call_data) continue;
    try {
      const parsed = JSON.parse(action.call_data) as { comment?: unknown };
      if (typeof parsed.comment === 'string' && parsed.comment.trim() !== '') return { action, memo: parsed.comment };
    } catch {
      // Not the documented JSON: no comment to match deposits by, so not watched.
    }
  }
  return undefined;
}

/**
 * Whose a transfer to a shared deposit address (an entry with a memo) is: this swap's (its
 * memo); this swap's sent without it (no memo, or another, from the swap's own source address;
 * or, that address unknown, no memo at all and exactly the swap's token and amount); else
 * another's, never told. `taken`: the memo is another watched swap's (a second swap of one sender).
 */
export function memoOwner(entry: WatchEntry, t: SeenTransfer, expectedBase: bigint, taken: boolean): 'own' | 'no_memo' | 'other' {
  if (entry.memo === undefined || t.memo === entry.memo) return 'own';
  if (taken) return 'other';
  if (entry.from !== undefined && t.from !== undefined) return entry.from === t.from ? 'no_memo' : 'other';
  return !t.memo && sameToken(entry, t) && t.value === expectedBase ? 'no_memo' : 'other';
}

/** Confirmations up to the required count (when known). */
export function capped(required: number, confirmations: number): number {
  return required > 0 ? Math.min(required, confirmations) : confirmations;
}

export function decimalText(n: number): string {
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 18 });
}

export interface LateList {
  add(swapId: string, expiredAt: number): Promise<void>;
  /** Those expired at `from` or later, with when (older ones are forgotten). */
  since(from: number): Promise<Array<[string, number]>>;
  remove(swapId: string): Promise<void>;
}

/** The LateList in a Redis sorted set (score: when the swap expired). */
export function redisLateList(redis: Redis, key: string): LateList {
  return {
    add: async (swapId, at) => {
      await redis.zadd(key, at, swapId);
    },
    async since(from) {
      await redis.zremrangebyscore(key, '-inf', `(${from}`);
      const flat = await redis.zrangebyscore(key, from, '+inf', 'WITHSCORES');
      const out: Array<[string, number]> = [];
      for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i] as string, Number(flat[i + 1])]);
      return out;
    },
    remove: async (swapId) => {
      await redis.zrem(key, swapId);
    },
  };
}

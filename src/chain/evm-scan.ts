import { createPublicClient, http, parseAbiItem, type Address, type PublicClient } from 'viem';
import type { Logger } from '../log.js';
import { deepEnough, type Tracked } from './evidence.js';
import type { WatchEntry, WatcherEvents } from './watcher.js';

/** The EVM reader's reads (evm.ts): a network's client, and its reads of a block range. */

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** A network's JSON-RPC client. */
export function evmClient(url: string, timeoutMs = 10_000): PublicClient {
  // cacheTime 0: viem otherwise answers getBlockNumber from a 4 s cache, and every new
  // block (a deposit, a confirmation) would reach the card up to 4 s late.
  return createPublicClient({ cacheTime: 0, transport: http(url, { retryCount: 0, timeout: timeoutMs }) });
}

/** What a block range is read with: the network, its client, its transfers found, and the rate limit's gap. */
export interface RangeReader {
  name: string;
  client: PublicClient;
  /** Transfers found, by swap and transaction: unreported until a receipt backs them, then re-checked until final. */
  tracked: Map<string, Tracked>;
  /**
   * Blocks read with their transactions (the native coin's scan), by number: their hash and their
   * parent's, and `tip`, the last one read. A hash chain from a transfer's block up to the head says
   * that block is still the chain's without asking for its receipt.
   */
  blocks: { byNumber: Map<number, { hash: string; parent: string }>; tip: number };
  gap(): Promise<void>;
}

/** Blocks' hashes kept behind the newest read (a transfer deeper than this is checked by its receipt). */
const KEPT_BLOCKS = 1_000;

/**
 * Reads blocks `from`..`to` for transfers to the entries' addresses (one eth_getLogs; each block
 * only when some entry expects the native coin) and tracks each new one the events accept; `gap`
 * spends the RPC's rate limit before each request.
 */
export async function scanRange(
  l: RangeReader,
  from: number,
  to: number,
  entries: readonly WatchEntry[],
  events: Pick<WatcherEvents, 'accept'>,
): Promise<void> {
  if (from > to) return;
  const byAddress = new Map<string, WatchEntry[]>();
  for (const e of entries) {
    const k = e.address.toLowerCase();
    byAddress.set(k, [...(byAddress.get(k) ?? []), e]);
  }
  if (byAddress.size === 0) return;
  const times = new Map<number, number>();
  await l.gap();
  const logs = await l.client.getLogs({
    event: TRANSFER,
    args: { to: [...byAddress.keys()] as Address[] },
    fromBlock: BigInt(from),
    toBlock: BigInt(to),
  });
  const found: Array<[WatchEntry, Parameters<WatcherEvents['transfer']>[1]]> = [];
  for (const lg of logs) {
    const dest = lg.args.to?.toLowerCase();
    if (!dest || lg.blockNumber === null || lg.transactionHash === null) continue;
    for (const e of byAddress.get(dest) ?? []) {
      found.push([
        e,
        {
          network: l.name,
          to: dest,
          txHash: lg.transactionHash,
          block: Number(lg.blockNumber),
          contract: lg.address.toLowerCase(),
          value: lg.args.value ?? 0n,
          at: 0,
        },
      ]);
    }
  }
  // Native transfers leave no log: read the blocks, only when someone expects the native coin.
  if (entries.some((e) => e.token.contract === null)) {
    for (let b = from; b <= to; b++) {
      await l.gap();
      const block = await l.client.getBlock({ blockNumber: BigInt(b), includeTransactions: true });
      times.set(b, Number(block.timestamp) * 1000);
      l.blocks.byNumber.set(b, { hash: block.hash.toLowerCase(), parent: block.parentHash.toLowerCase() });
      l.blocks.byNumber.delete(b - KEPT_BLOCKS);
      l.blocks.tip = b;
      for (const tx of block.transactions) {
        const dest = tx.to?.toLowerCase();
        if (!dest || tx.value === 0n) continue;
        for (const e of byAddress.get(dest) ?? []) {
          found.push([e, { network: l.name, to: dest, txHash: tx.hash, block: b, contract: null, value: tx.value, at: 0 }]);
        }
      }
    }
  }
  for (const [e, t] of found) {
    const key = `${e.swapId}|${t.txHash}`;
    const seen = { ...t, at: times.get(t.block) ?? Date.now() };
    if (l.tracked.has(key) || !(events.accept?.(e, seen) ?? true)) continue;
    l.tracked.set(key, { entry: e, t: seen, reported: false, checkedAt: -1, misses: 0 });
  }
}

/**
 * The reported token transfers, short of final and at most `maxRange` blocks back, whose Transfer
 * log is still in the block their receipt put them in: one eth_getLogs over those blocks instead of
 * a receipt each at every new head (a hundred swaps confirming on one network took ten seconds of
 * the RPC's rate per block). A log gone, moved or `removed` is left out: its receipt is asked for.
 * Fewer than two: nothing to save, the receipt is asked for.
 */
export async function stillLogged(l: RangeReader, due: readonly Tracked[], head: number, maxRange: number): Promise<Set<Tracked>> {
  const held = due.filter((tr) => tr.reported && tr.t.contract !== null && !deepEnough(tr, head) && head - tr.t.block < maxRange);
  if (held.length < 2) return new Set();
  const key = (tx: string, block: number, contract: string, to: string, value: bigint) =>
    `${tx.toLowerCase()}|${block}|${contract.toLowerCase()}|${to.toLowerCase()}|${value}`;
  await l.gap();
  const logs = await l.client.getLogs({
    address: [...new Set(held.map((tr) => tr.t.contract as Address))],
    event: TRANSFER,
    args: { to: [...new Set(held.map((tr) => tr.t.to as Address))] },
    fromBlock: BigInt(Math.min(...held.map((tr) => tr.t.block))),
    toBlock: BigInt(head),
  });
  const logged = new Set(
    logs
      .filter((lg) => !lg.removed && lg.blockNumber !== null && lg.transactionHash !== null && lg.args.to !== undefined)
      .map((lg) => key(lg.transactionHash as string, Number(lg.blockNumber), lg.address, lg.args.to as string, lg.args.value ?? 0n)),
  );
  return new Set(held.filter((tr) => logged.has(key(tr.t.txHash, tr.t.block, tr.t.contract as string, tr.t.to, tr.t.value))));
}

/**
 * The reported native transfers, short of final, whose block is still the one their receipt named:
 * the head's block was the last read (this tick) and each block from theirs up to it names the one
 * before as its parent. A native transfer has no log to re-read; a reorganisation breaks the chain
 * at the first block read after it, and those transfers are asked for their receipts.
 */
export function stillChained(l: RangeReader, due: readonly Tracked[], head: number): Set<Tracked> {
  const { byNumber, tip } = l.blocks;
  const held = due.filter(
    (tr) =>
      tr.reported &&
      tr.t.contract === null &&
      !deepEnough(tr, head) &&
      tr.blockHash !== undefined &&
      byNumber.get(tr.t.block)?.hash === tr.blockHash,
  );
  if (tip !== head || held.length === 0) return new Set();
  // Down from the head to the deepest of them only (a block not kept ends the chain too).
  const deepest = Math.min(...held.map((tr) => tr.t.block));
  const linked = (b: number) => {
    const parent = byNumber.get(b)?.parent;
    return parent !== undefined && parent === byNumber.get(b - 1)?.hash;
  };
  let linkedFrom = head;
  while (linkedFrom > deepest && linked(linkedFrom)) linkedFrom--;
  return new Set(held.filter((tr) => tr.t.block >= linkedFrom));
}

/** Another chain's RPC (or none to check against): the one error line (the loop is disabled). */
export function logOtherChain(name: string, expected: number | undefined, got: number, log: Logger): void {
  const fields = { network: name, expected: expected ?? null, got };
  if (expected === undefined)
    log.error(fields, 'no chain id in the catalogue to check the chain RPC against: not watched; deposits are followed by polling the API');
  else log.error(fields, 'chain RPC is for another chain: not watched; deposits are followed by polling the API');
}

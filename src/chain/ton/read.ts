import { Address, type Transaction } from '@ton/core';
import { TonClient } from '@ton/ton';
import type { WatchEntry } from '../watcher.js';
import { JettonWallets } from './jettons.js';
import { incomingOf, rawOf, type Incoming } from './transfers.js';

/**
 * The TON reader's per-network state (watcher.ts) and its read of one address's new
 * transactions: toncenter's API v2 (`getTransactions`, newest first, paged back by lt and hash to
 * where the last read ended), through @ton/ton's TonClient.
 */

/** A network's reading state: its client, and per watched address what was read. */
export interface TonReads {
  name: string;
  client: TonClient;
  /** Per watched address: the newest lt read. */
  cursors: Map<string, bigint>;
  /** Per watched address: transfers read within the lookback (a swap watched later is matched against them, no request). */
  recent: Map<string, Seen[]>;
  jettons: JettonWallets;
  /** Fake jetton notifications already logged (once per wallet). */
  fakes: Set<string>;
}

/** A transfer read, with its jetton checked: `contract` is the master (null: native TON). */
export interface Seen extends Incoming {
  master: Address | null;
  /** The head when it was first read: the block its confirmations are counted from. */
  block: number;
}

export function newTonReads(name: string, url: string, timeoutMs: number): TonReads {
  const client = new TonClient({ endpoint: url, timeout: timeoutMs });
  return { name, client, cursors: new Map(), recent: new Map(), jettons: new JettonWallets((run) => run(client)), fakes: new Set() };
}

export interface ReadLimits {
  pageSize: number;
  maxPages: number;
  /** On an address's first read, transactions older than this (unix s) are not read. */
  horizon: number;
}

/**
 * The address's transactions newer than its cursor (on a first read: back to the horizon), oldest
 * first; `gap` is spent before each request. The cursor moves to the newest read.
 */
export async function readNew(l: TonReads, raw: string, lim: ReadLimits, gap: () => Promise<void>): Promise<Transaction[]> {
  const address = Address.parse(raw);
  const cursor = l.cursors.get(raw);
  const out: Transaction[] = [];
  let from: { lt: string; hash: string } | undefined;
  for (let page = 0; page < lim.maxPages; page++) {
    await gap();
    const txs = await l.client.getTransactions(address, {
      limit: lim.pageSize,
      ...(from ? { lt: from.lt, hash: from.hash } : {}),
      ...(cursor !== undefined ? { to_lt: cursor.toString() } : {}),
      archival: false,
    });
    let older = false;
    for (const tx of txs) {
      if ((cursor !== undefined && tx.lt <= cursor) || (cursor === undefined && tx.now < lim.horizon)) {
        older = true;
        break;
      }
      out.push(tx);
    }
    const last = txs[txs.length - 1];
    if (older || !last || txs.length < lim.pageSize) break;
    from = { lt: last.lt.toString(), hash: last.hash().toString('base64') };
  }
  const newest = out[0]?.lt;
  if (newest !== undefined && (cursor === undefined || newest > cursor)) l.cursors.set(raw, newest);
  else if (cursor === undefined) l.cursors.set(raw, 0n);
  return out.reverse();
}

/** The transfers among `txs` (oldest first), jettons checked against their masters; fakes are dropped (`onFake` once per wallet). */
export async function transfersOf(
  l: TonReads,
  raw: string,
  txs: readonly Transaction[],
  block: number,
  gap: () => Promise<void>,
  onFake: (wallet: string) => void,
): Promise<Seen[]> {
  const owner = Address.parse(raw);
  const out: Seen[] = [];
  for (const tx of txs) {
    const inc = incomingOf(tx);
    if (!inc || inc.value <= 0n) continue;
    if (!inc.jettonWallet) {
      out.push({ ...inc, master: null, block });
      continue;
    }
    await gap();
    const master = await l.jettons.masterOf(inc.jettonWallet, owner);
    if (!master) {
      const w = inc.jettonWallet.toRawString();
      if (!l.fakes.has(w)) {
        l.fakes.add(w);
        onFake(w);
      }
      continue;
    }
    out.push({ ...inc, master, block });
  }
  return out;
}

/** An entry's address in the form the loop keys by (undefined: not a TON address). */
export const rawAddress = (entry: WatchEntry): string | undefined => rawOf(entry.address);

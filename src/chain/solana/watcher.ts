import { createNetworkWatcher, settle, type NetworkLoopOptions, type NetworkReader, type ReaderContext } from '../network-loop.js';
import type { ChainWatcher } from '../watcher.js';
import { logOtherCluster, matchCredits, solanaRpc, type SolanaRpc, type TrackedCredit } from './rpc.js';
import { creditsOf, judgeStatus, type Credit } from './scan.js';

/**
 * The Solana chain watcher (@solana/kit). Per network, per tick: one getSlot (commitment
 * confirmed); for the new slots one getBlocks and one getBlock each, with transactionDetails
 * 'accounts' (account keys and balances before and after, no instructions), read once for every
 * watched address together: SOL to the deposit address, and any SPL mint to a token account it
 * owns (its associated token account). Then one getSignatureStatuses for all the transfers found
 * and not yet finalized (up to 256 a call). So the cost grows with slots, not with swaps, and
 * nothing is read while no swap is watched on the network. A transfer is reported when its status
 * backs it (succeeded, in that slot), re-checked each tick until finalized, and taken back when its
 * status is gone or moved. Confirmations are block heights (getBlock's blockHeight), counted from
 * the newest block read. Before it is believed, at start and after every failure, the RPC's
 * genesis hash must be the network's. The loop around this reader (failures, back-off, health) is
 * every family's (network-loop.ts).
 */

/** Slots read in one tick at most (a watcher that fell behind catches up in steps). */
const MAX_SLOTS = 100;

const WORDS = {
  gone: 'a transfer seen on chain is gone (a dropped fork or a faulty RPC): taken back',
  unbacked: "a transfer in the RPC's block has no status to back it: not believed",
};

/** Genesis hashes of the public clusters, by the service's network name (the catalogue's chain_id for Solana is ''). */
const SOLANA_GENESIS: Readonly<Record<string, string>> = {
  SOLANA_MAINNET: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d',
  SOLANA_DEVNET: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG',
  SOLANA_TESTNET: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY',
};

/** The genesis hash a Solana network's RPC must answer: the catalogue's chain_id when it is one (the sandbox's chain), else the public cluster's. */
export function solanaGenesis(name: string, chainId: string | null | undefined): string | undefined {
  if (chainId && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(chainId)) return chainId;
  return SOLANA_GENESIS[name];
}

export interface SolanaWatcherOptions extends NetworkLoopOptions {
  /** Slots before the newest read when a network starts being watched, and kept for swaps watched late (default 20: ~8 s). */
  lookback?: number;
  /** The network's genesis hash: the RPC's must match, or it is not watched. Absent: not checked (a local chain). */
  genesisHash?: (network: string) => Promise<string | undefined>;
}

export function createSolanaWatcher(opts: SolanaWatcherOptions): ChainWatcher {
  const lookback = opts.lookback ?? 20;
  const accept = opts.events.accept ?? (() => true);
  const reader = (ctx: ReaderContext): NetworkReader => {
    const rpc = solanaRpc(ctx.url, opts.timeoutMs || 10_000);
    const l = { name: ctx.name, tracked: new Map<string, TrackedCredit>() };
    /** Credits of the slots read lately (the lookback), for swaps watched late. */
    const recent = new Map<number, Credit[]>();
    /** The newest block height read (confirmations are counted from it). */
    let height: number | undefined;

    /** Reads slots from..to (the confirmed blocks among them) and keeps their credits for the lookback. */
    const read = async (from: number, to: number) => {
      if (from > to) return [];
      const slots = await rpc.blocks(from, to);
      const out = [];
      for (const slot of slots) {
        const block = await rpc.block(slot);
        if (!block) continue;
        const credits = creditsOf(slot, block);
        recent.set(slot, credits);
        if (block.blockHeight !== null) height = Math.max(height ?? 0, Number(block.blockHeight));
        out.push({ credits, at: block.blockTime ? Number(block.blockTime) * 1000 : Date.now() });
      }
      for (const s of recent.keys()) if (s <= to - lookback) recent.delete(s);
      return out;
    };

    return {
      ...(opts.genesisHash && {
        verify: async () => {
          const expected = await opts.genesisHash?.(ctx.name);
          const got = await rpc.genesisHash();
          if (expected !== undefined && got === expected) return true;
          logOtherCluster(ctx.name, expected, got, ctx.log);
          return false;
        },
      }),
      head: () => rpc.slot(),
      // The slots already read (the lookback) are matched for the late swaps alone.
      catchUp: async (scanned, fresh) => {
        const missing = [];
        for (let s = Math.max(0, scanned - lookback) + 1; s <= scanned; s++) if (!recent.has(s)) missing.push(s);
        if (missing.length > 0) await read(missing[0] as number, missing[missing.length - 1] as number);
        for (const [s, credits] of recent) if (s <= scanned) matchCredits(l, credits, fresh, Date.now(), accept);
      },
      read: async (slot, scanned, entries) => {
        const from = (scanned ?? Math.max(0, slot - lookback)) + 1;
        const to = Math.min(slot, from + MAX_SLOTS - 1);
        for (const b of await read(from, to)) matchCredits(l, b.credits, entries, b.at, accept);
        return { scanned: Math.max(scanned ?? 0, to, from - 1), behind: to < slot };
      },
      confirm: async () => {
        await check(ctx, rpc, l.tracked);
        return height;
      },
      unwatch: (swapId) => {
        for (const [key, tr] of l.tracked) if (tr.entry.swapId === swapId) l.tracked.delete(key);
      },
      // Idle: the next watch starts from the newest slot's lookback, not a catch-up over every slot since.
      idle: () => recent.clear(),
    };
  };
  return createNetworkWatcher({ name: 'solana', minGapMs: 0, burst: 1, reader }, opts);
}

/** Every tracked transfer's status in one call (per 256): reported when it backs it, taken back when it stops. */
async function check(ctx: ReaderContext, rpc: SolanaRpc, tracked: Map<string, TrackedCredit>): Promise<void> {
  if (tracked.size === 0) return;
  const list = [...tracked];
  const sigs = [...new Set(list.map(([, tr]) => tr.t.txHash))];
  const statuses = await rpc.statuses(sigs);
  const bySig = new Map(sigs.map((sig, i) => [sig, statuses[i] ?? null]));
  for (const [key, tr] of list) {
    const v = judgeStatus(tr, bySig.get(tr.t.txHash) ?? null);
    if (v.kind === 'moved') {
      // Another fork holds it: its new block height, and reported again there.
      const height = await rpc.height(v.slot);
      if (height === undefined) continue;
      tr.slot = v.slot;
      tr.t = { ...tr.t, block: height };
    }
    settle(ctx, tracked, key, tr, v.kind === 'moved' ? { kind: 'report' } : v, WORDS);
  }
}

import type { SeenTransfer } from '../watcher.js';

/**
 * What a Solana block says was received, read from `getBlock` with transactionDetails 'accounts'
 * (each transaction's account keys and its balances before and after, no instructions): every
 * account whose lamports grew got SOL (contract null), every token account whose amount grew got
 * that mint, credited to the token account's owner, so a deposit to the deposit address's
 * associated token account (or any token account it owns) is found by the deposit address. Failed
 * transactions move nothing and are left out. Pure: the watcher keeps these per slot.
 */

/** One credit in a block: `to` is the receiving wallet (a token account's owner). */
export type Credit = Omit<SeenTransfer, 'network' | 'at'> & { slot: number };

interface RpcTokenBalance {
  accountIndex: number | bigint;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string };
}

export interface RpcBlock {
  blockHeight: number | bigint | null;
  blockTime?: number | bigint | null;
  transactions?: Array<{
    transaction: { accountKeys: Array<{ pubkey: string } | string>; signatures: string[] };
    meta: {
      err: unknown;
      preBalances: Array<number | bigint>;
      postBalances: Array<number | bigint>;
      preTokenBalances?: RpcTokenBalance[] | null;
      postTokenBalances?: RpcTokenBalance[] | null;
    } | null;
  }>;
}

export function creditsOf(slot: number, block: RpcBlock): Credit[] {
  const height = Number(block.blockHeight ?? slot);
  const out: Credit[] = [];
  for (const tx of block.transactions ?? []) {
    const meta = tx.meta;
    const txHash = tx.transaction.signatures[0];
    if (!meta || meta.err !== null || !txHash) continue;
    const keys = tx.transaction.accountKeys.map((k) => (typeof k === 'string' ? k : k.pubkey));
    keys.forEach((to, i) => {
      const value = BigInt(meta.postBalances[i] ?? 0) - BigInt(meta.preBalances[i] ?? 0);
      if (value > 0n) out.push({ to, txHash, block: height, slot, contract: null, value });
    });
    const pre = new Map((meta.preTokenBalances ?? []).map((b) => [Number(b.accountIndex), BigInt(b.uiTokenAmount.amount)]));
    for (const b of meta.postTokenBalances ?? []) {
      if (!b.owner) continue;
      const value = BigInt(b.uiTokenAmount.amount) - (pre.get(Number(b.accountIndex)) ?? 0n);
      if (value > 0n) out.push({ to: b.owner, txHash, block: height, slot, contract: b.mint, value });
    }
  }
  return out;
}

export interface SignatureStatus {
  slot: number | bigint;
  err: unknown;
  confirmationStatus?: string | null;
}

export type SolanaVerdict =
  { kind: 'report' } | { kind: 'moved'; slot: number } | { kind: 'retract' } | { kind: 'drop' } | { kind: 'wait' } | { kind: 'final' };

/** Statuses a credit may miss before it is dropped unreported (an RPC whose statuses lag its blocks). */
const MISSES = 3;

/**
 * What a transaction's status (getSignatureStatuses, asked of the same RPC) says of a credit read
 * from a block: it backs it when it succeeded in that very slot; a reported one is asked again at
 * each tick until finalized, and taken back when its status is gone or failed.
 */
export function judgeStatus(tr: { reported: boolean; slot: number; misses: number }, status: SignatureStatus | null): SolanaVerdict {
  if (!status || status.err !== null) {
    if (tr.reported) return { kind: 'retract' };
    if (status) return { kind: 'drop' };
    return ++tr.misses >= MISSES ? { kind: 'drop' } : { kind: 'wait' };
  }
  if (Number(status.slot) !== tr.slot) return { kind: 'moved', slot: Number(status.slot) };
  if (!tr.reported) return { kind: 'report' };
  return status.confirmationStatus === 'finalized' ? { kind: 'final' } : { kind: 'wait' };
}

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import {
  address,
  getAddressDecoder,
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  type Address,
} from '@solana/kit';
import type * as Lite from 'litesvm';
import { listen, readBody } from '../../http.js';

/**
 * A real local Solana chain for the sandbox, the tests and the bench: LiteSVM (the Solana runtime,
 * a prebuilt binary inside its npm package) runs every transaction for real (system and SPL token
 * programs included), and this file serves it as the small part of the public Solana JSON-RPC the
 * watcher and the sandbox use (same method names and shapes), on a loopback port. LiteSVM keeps
 * accounts, not blocks: the ledger here records each block (a block per transaction sent, as a
 * local validator with one leader, plus an empty one every `blockMs`), with each transaction's
 * accounts and balances before and after it, as `getBlock` shows them.
 */

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PeYuA2DZRKS8ou';
/** Slots behind the newest before a block counts as finalized (mainnet's supermajority root is about as deep). */
const FINALIZED_DEPTH = 31;

interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: number; uiAmountString: string };
}

interface LedgerTx {
  signature: string;
  accountKeys: Array<{ pubkey: string; signer: boolean; writable: boolean; source: 'transaction' }>;
  meta: {
    err: unknown;
    fee: number;
    preBalances: number[];
    postBalances: number[];
    preTokenBalances: TokenBalance[];
    postTokenBalances: TokenBalance[];
    status: { Ok: null } | { Err: unknown };
  };
}

interface Block {
  slot: number;
  blockHeight: number;
  blockTime: number;
  blockhash: string;
  parentSlot: number;
  previousBlockhash: string;
  txs: LedgerTx[];
}

export interface LocalSolana {
  /** http://127.0.0.1:port */
  readonly url: string;
  readonly genesisHash: string;
  readonly svm: Lite.LiteSVM;
  /** The newest block's slot. */
  slot(): number;
  /** Adds `blocks` empty blocks. */
  mine(blocks?: number): void;
  /** Calls `listener` after each new block; returns its removal. */
  onBlock(listener: () => void): () => void;
  /** RPC requests answered, by method (batches count each call). */
  readonly requests: Map<string, number>;
  /** Stops answering (in-flight requests are cut): an RPC that dies. */
  close(): Promise<void>;
}

const b58 = getBase58Decoder();
const addr = getAddressDecoder();
const hashText = (text: string) => b58.decode(createHash('sha256').update(text).digest());

export async function startLocalSolana(opts: { port?: number; blockMs?: number } = {}): Promise<LocalSolana> {
  const { LiteSVM } = createRequire(import.meta.url)('litesvm') as typeof Lite;
  const svm = new LiteSVM();
  const genesisHash = hashText(`swapbot local solana ${Date.now()} ${Math.random()}`);
  const started = Math.floor(Date.now() / 1000);
  const blocks: Block[] = [
    { slot: 0, blockHeight: 0, blockTime: started, blockhash: genesisHash, parentSlot: 0, previousBlockhash: genesisHash, txs: [] },
  ];
  const bySignature = new Map<string, number>();
  const listeners = new Set<() => void>();
  const requests = new Map<string, number>();
  const newest = () => blocks[blocks.length - 1] as Block;

  const addBlock = (txs: LedgerTx[]) => {
    const prev = newest();
    const slot = prev.slot + 1;
    svm.warpToSlot(BigInt(slot));
    // A new blockhash with each block that carries transactions: the same transfer sent twice is two transactions.
    if (txs.length > 0) svm.expireBlockhash();
    const blockhash = txs.length > 0 ? String(svm.latestBlockhash()) : hashText(`block ${genesisHash} ${slot}`);
    blocks.push({
      slot,
      blockHeight: prev.blockHeight + 1,
      blockTime: Math.floor(Date.now() / 1000),
      blockhash,
      parentSlot: prev.slot,
      previousBlockhash: prev.blockhash,
      txs,
    });
    for (const t of txs) bySignature.set(t.signature, slot);
    setImmediate(() => {
      for (const l of listeners) l();
    });
  };

  const tokenBalances = (keys: readonly Address[]) => tokenBalancesOf(svm, keys);
  const balances = (keys: readonly Address[]) => keys.map((k) => Number(svm.getBalance(k) ?? 0n));

  /** sendTransaction: runs the wire transaction in LiteSVM; a success is a new block holding it. */
  const send = (wire: string): string => {
    const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    const keys = message.staticAccounts;
    const signature = b58.decode(Object.values(tx.signatures)[0] ?? new Uint8Array(64));
    const pre = { lamports: balances(keys), tokens: tokenBalances(keys) };
    const res = svm.sendTransaction(tx);
    if ('err' in res && typeof res.err === 'function') throw rpcError(-32002, `Transaction simulation failed: ${res.toString()}`);
    const signers = message.header.numSignerAccounts;
    const readonlySigned = message.header.numReadonlySignerAccounts;
    const readonlyUnsigned = message.header.numReadonlyNonSignerAccounts;
    addBlock([
      {
        signature,
        accountKeys: keys.map((pubkey, i) => ({
          pubkey,
          signer: i < signers,
          writable: i < signers ? i < signers - readonlySigned : i < keys.length - readonlyUnsigned,
          source: 'transaction',
        })),
        meta: {
          err: null,
          fee: 5000,
          preBalances: pre.lamports,
          postBalances: balances(keys),
          preTokenBalances: pre.tokens,
          postTokenBalances: tokenBalances(keys),
          status: { Ok: null },
        },
      },
    ]);
    return signature;
  };

  const blockAt = (slot: number) => blocks.find((b) => b.slot === slot);
  const statusOf = (sig: string) => {
    const slot = bySignature.get(sig);
    const b = slot === undefined ? undefined : blockAt(slot);
    if (!b) return null;
    const head = newest();
    const final = head.slot - b.slot >= FINALIZED_DEPTH;
    return {
      slot: b.slot,
      confirmations: final ? null : head.blockHeight - b.blockHeight,
      err: null,
      status: { Ok: null },
      confirmationStatus: final ? 'finalized' : 'confirmed',
    };
  };
  const context = () => ({ slot: newest().slot, apiVersion: '2.2.0' });

  const methods: Record<string, (params: unknown[]) => unknown> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0-litesvm', 'feature-set': 0 }),
    getGenesisHash: () => genesisHash,
    getSlot: () => newest().slot,
    getBlockHeight: () => newest().blockHeight,
    getBlocks: ([start, end]) => {
      const last = typeof end === 'number' ? end : newest().slot;
      return blocks.filter((b) => b.slot >= Number(start) && b.slot <= last).map((b) => b.slot);
    },
    getBlock: ([slot, cfg]) => {
      const b = blockAt(Number(slot));
      if (!b) throw rpcError(-32007, `Slot ${String(slot)} was skipped, or missing due to ledger jump to recent snapshot`);
      const details = (cfg as { transactionDetails?: string } | undefined)?.transactionDetails ?? 'full';
      const { txs, ...head } = b;
      if (details === 'none') return head;
      if (details === 'signatures') return { ...head, signatures: txs.map((t) => t.signature) };
      return {
        ...head,
        transactions: txs.map((t) => ({
          meta: t.meta,
          transaction: { accountKeys: t.accountKeys, signatures: [t.signature] },
          version: 'legacy',
        })),
      };
    },
    getSignatureStatuses: ([sigs]) => ({ context: context(), value: (sigs as string[]).map(statusOf) }),
    getLatestBlockhash: () => ({
      context: context(),
      value: { blockhash: String(svm.latestBlockhash()), lastValidBlockHeight: newest().blockHeight + 150 },
    }),
    getBalance: ([a]) => ({ context: context(), value: Number(svm.getBalance(address(String(a))) ?? 0n) }),
    getAccountInfo: ([a]) => {
      const acc = svm.getAccount(address(String(a)));
      if (!acc.exists) return { context: context(), value: null };
      const data = getBase64Decoder().decode(acc.data);
      return {
        context: context(),
        value: {
          data: [data, 'base64'],
          executable: acc.executable,
          lamports: Number(acc.lamports),
          owner: acc.programAddress,
          rentEpoch: 0,
          space: acc.data.length,
        },
      };
    },
    getMinimumBalanceForRentExemption: ([size]) => Number(svm.minimumBalanceForRentExemption(BigInt(Number(size)))),
    requestAirdrop: ([a, amount]) => {
      const res = svm.airdrop(address(String(a)), lamports(BigInt(Number(amount))));
      if (!res || ('err' in res && typeof res.err === 'function')) throw rpcError(-32002, 'airdrop failed');
      addBlock([]);
      return b58.decode((res as Lite.TransactionMetadata).signature());
    },
    sendTransaction: ([wire]) => send(String(wire)),
  };

  const call = (req: { id?: unknown; method?: unknown; params?: unknown }) => {
    const method = String(req.method);
    requests.set(method, (requests.get(method) ?? 0) + 1);
    const fn = methods[method];
    try {
      if (!fn) throw rpcError(-32601, 'Method not found');
      return { jsonrpc: '2.0', id: req.id ?? null, result: fn(Array.isArray(req.params) ? req.params : []) };
    } catch (err) {
      const e = err as { code?: number; message?: string };
      return { jsonrpc: '2.0', id: req.id ?? null, error: { code: e.code ?? -32603, message: e.message ?? 'internal error' } };
    }
  };

  const server = createServer((req, res) => {
    void (async () => {
      try {
        const parsed = JSON.parse((await readBody(req, 4 * 1024 * 1024)).toString('utf8')) as unknown;
        const out = Array.isArray(parsed) ? parsed.map((p) => call(p as object)) : call(parsed as object);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
      } catch (err) {
        const message = err instanceof Error ? err.message : 'bad request';
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message } }));
      }
    })();
  });
  const listening = await listen(server, { port: opts.port ?? 0, host: '127.0.0.1' });
  const blockMs = opts.blockMs ?? 0;
  const timer = blockMs > 0 ? setInterval(() => addBlock([]), blockMs) : undefined;
  timer?.unref();
  return {
    url: listening.url,
    genesisHash,
    svm,
    slot: () => newest().slot,
    mine(n = 1) {
      for (let i = 0; i < n; i++) addBlock([]);
    },
    onBlock(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    requests,
    async close() {
      if (timer) clearInterval(timer);
      await listening.close({ force: true });
    },
  };
}

function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/** The SPL token accounts among `keys`, as getBlock's pre/postTokenBalances show them. */
function tokenBalancesOf(svm: Lite.LiteSVM, keys: readonly Address[]): TokenBalance[] {
  return keys.flatMap((k, accountIndex) => {
    const acc = svm.getAccount(k);
    if (!acc.exists || (acc.programAddress !== TOKEN_PROGRAM && acc.programAddress !== TOKEN_2022) || acc.data.length < 165) return [];
    const data = Buffer.from(acc.data);
    const mint = addr.decode(data.subarray(0, 32));
    const mintAcc = svm.getAccount(mint);
    const decimals = mintAcc.exists ? (mintAcc.data[44] ?? 0) : 0;
    const amount = data.readBigUInt64LE(64);
    const ui = Number(amount) / 10 ** decimals;
    return [
      {
        accountIndex,
        mint,
        owner: addr.decode(data.subarray(32, 64)),
        programId: acc.programAddress,
        uiTokenAmount: { amount: amount.toString(), decimals, uiAmount: ui, uiAmountString: String(ui) },
      },
    ];
  });
}

import { createServer } from 'node:http';
import { keccak256, pad, toHex, type Hex } from 'viem';
import { listen, readBody, type Listening } from '../../../src/http.js';

/**
 * A JSON-RPC fault proxy in front of a real EVM node (the sandbox's local chain): what the bot's
 * RPC provider can do wrong, one switch each. It forwards every request and, when told to,
 * delays answers, fails them, answers eth_chainId with another chain, invents an ERC-20 Transfer
 * (in eth_getLogs, with or without a receipt that backs it) and takes an invented one back as a
 * reorganisation would (its log and receipt gone). It counts requests by method.
 */

const TRANSFER_TOPIC = keccak256(toHex('Transfer(address,address,uint256)'));

interface Invented {
  txHash: Hex;
  contract: string;
  to: string;
  value: bigint;
  block: number;
  blockHash: Hex;
  /** A receipt backs the log (a consistent lie, or a transaction a reorg later drops). */
  receipt: boolean;
}

export interface RpcProxy extends Listening {
  /** Delay before each answer (ms). */
  delayMs: number;
  /** Every request fails (HTTP 502): the provider is down. */
  down: boolean;
  /** eth_chainId answers this instead of the node's. */
  chainId: number | undefined;
  /**
   * Called with each request's method before it is forwarded (the request waits while a promise is
   * pending): true leaves it unanswered (its caller is being killed).
   */
  onRequest: ((method: string) => boolean | Promise<boolean>) | undefined;
  /** Requests seen, by method. */
  readonly counts: Map<string, number>;
  /** eth_getTransactionReceipt requests, by transaction hash (lowercase). */
  readonly receipts: Map<string, number>;
  /** Requests not yet answered. */
  readonly inFlight: number;
  /** The highest block an eth_getLogs has asked for: how far the watcher has read. */
  readonly scannedTo: number;
  /** How many eth_getLogs requests read each block. */
  readonly reads: Map<number, number>;
  /** The deposit addresses (lowercase) each eth_getLogs asked about, in order. */
  readonly filters: string[][];
  /** A Transfer of `value` base units of `contract` to `to` in the next block (mine it), in eth_getLogs only (or with a receipt). */
  invent(t: { contract: string; to: string; value: bigint; receipt?: boolean }): Promise<Hex>;
  /** The invented transfer is gone from the chain: its log and its receipt (a reorganisation). */
  reorg(txHash: Hex): void;
}

type RpcRequest = { id?: unknown; method?: string; params?: unknown[] };

export async function startRpcProxy(upstream: string): Promise<RpcProxy> {
  const invented: Invented[] = [];
  const counts = new Map<string, number>();
  const receipts = new Map<string, number>();
  let n = 0;
  let scannedTo = 0;
  const reads = new Map<number, number>();
  const filters: string[][] = [];
  const forward = async (body: unknown): Promise<unknown> => {
    const res = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json();
  };
  const rpc = async (method: string, params: unknown[]): Promise<unknown> =>
    ((await forward({ jsonrpc: '2.0', id: 1, method, params })) as { result: unknown }).result;

  const logOf = (t: Invented) => ({
    address: t.contract,
    topics: [TRANSFER_TOPIC, pad('0x01', { size: 32 }), pad(t.to as Hex, { size: 32 })],
    data: pad(toHex(t.value), { size: 32 }),
    blockNumber: toHex(t.block),
    blockHash: t.blockHash,
    transactionHash: t.txHash,
    transactionIndex: '0x0',
    logIndex: '0x0',
    removed: false,
  });

  const answer = async (req: RpcRequest): Promise<unknown> => {
    const method = req.method ?? '';
    counts.set(method, (counts.get(method) ?? 0) + 1);
    if (method === 'eth_getTransactionReceipt') {
      const tx = String(req.params?.[0] ?? '').toLowerCase();
      receipts.set(tx, (receipts.get(tx) ?? 0) + 1);
    }
    if (method === 'eth_chainId' && proxy.chainId !== undefined) return { jsonrpc: '2.0', id: req.id, result: toHex(proxy.chainId) };
    const fake = method === 'eth_getTransactionReceipt' ? invented.find((t) => t.txHash === (req.params?.[0] as string)) : undefined;
    if (fake)
      return {
        jsonrpc: '2.0',
        id: req.id,
        result: fake.receipt
          ? {
              transactionHash: fake.txHash,
              transactionIndex: '0x0',
              blockHash: fake.blockHash,
              blockNumber: toHex(fake.block),
              from: pad('0x01', { size: 20 }),
              to: fake.contract,
              cumulativeGasUsed: '0x0',
              gasUsed: '0x0',
              effectiveGasPrice: '0x0',
              contractAddress: null,
              logs: [logOf(fake)],
              logsBloom: `0x${'0'.repeat(512)}`,
              status: '0x1',
              type: '0x2',
            }
          : null,
      };
    const out = (await forward(req)) as { result?: unknown };
    if (method === 'eth_getLogs' && Array.isArray(out.result)) {
      const filter = (req.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string; topics?: Array<string | string[] | null> };
      const from = Number(filter.fromBlock ?? 0);
      const to = Number(filter.toBlock ?? Number.MAX_SAFE_INTEGER);
      scannedTo = Math.max(scannedTo, to);
      for (let b = from; b <= to && to - from < 1000; b++) reads.set(b, (reads.get(b) ?? 0) + 1);
      const dests = [filter.topics?.[2] ?? []].flat().map((x) => x?.toLowerCase());
      filters.push(dests.filter((d): d is string => !!d).map((d) => `0x${d.slice(-40)}`));
      for (const t of invented)
        if (t.block >= from && t.block <= to && dests.includes(pad(t.to as Hex, { size: 32 }).toLowerCase())) out.result.push(logOf(t));
    }
    return out;
  };

  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    res.on('close', () => inFlight--);
    void (async () => {
      try {
        const parsed = JSON.parse((await readBody(req, 4 * 1024 * 1024)).toString('utf8')) as RpcRequest | RpcRequest[];
        for (const r of [parsed].flat())
          if (await proxy.onRequest?.(r.method ?? '')) {
            res.destroy();
            return;
          }
        if (proxy.delayMs > 0) await new Promise((r) => setTimeout(r, proxy.delayMs));
        if (proxy.down) {
          res.writeHead(502).end('bad gateway');
          return;
        }
        const out = Array.isArray(parsed) ? await Promise.all(parsed.map(answer)) : await answer(parsed);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
      } catch {
        res.destroy();
      }
    })();
  });
  const listening = await listen(server, { port: 0, host: '127.0.0.1' });
  const proxy: RpcProxy = {
    ...listening,
    delayMs: 0,
    down: false,
    chainId: undefined,
    onRequest: undefined,
    counts,
    receipts,
    reads,
    filters,
    get scannedTo() {
      return scannedTo;
    },
    get inFlight() {
      return inFlight;
    },
    async invent(t) {
      const block = Number(await rpc('eth_blockNumber', [])) + 1;
      const txHash = keccak256(toHex(`invented transfer ${++n} ${Date.now()}`));
      const blockHash = keccak256(toHex(`invented block ${block}`));
      invented.push({
        ...t,
        contract: t.contract.toLowerCase(),
        to: t.to.toLowerCase(),
        txHash,
        block,
        blockHash,
        receipt: t.receipt ?? false,
      });
      return txHash;
    },
    reorg(txHash) {
      const i = invented.findIndex((t) => t.txHash === txHash);
      if (i >= 0) invented.splice(i, 1);
    },
  };
  return proxy;
}

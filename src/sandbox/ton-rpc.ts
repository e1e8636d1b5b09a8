import http from 'node:http';
import { Address, Cell, type TupleItem, type Transaction, type Message } from '@ton/core';
import { listen, readBody } from '../http.js';

/**
 * The sandbox's TON chain behind the part of toncenter's HTTP API v2 the bot's watcher (and a
 * wallet: sendBoc, seqno) uses, at the same path and in the same shapes (POST /api/v2/jsonRPC,
 * {ok, result}), so the watcher cannot tell it from toncenter: getMasterchainInfo,
 * getTransactions (newest first, from lt/hash back to to_lt), runGetMethod, getAddressInformation,
 * sendBoc. Requests are counted per method (the bench's RPC cost).
 */

export interface TonLedger {
  seqno(): number;
  /** The account's transactions, oldest first. */
  transactions(raw: string): readonly Transaction[];
  runGet(address: Address, method: string, stack: TupleItem[]): Promise<{ exitCode: number; stack: TupleItem[] }>;
  account(address: Address): Promise<{ balance: bigint; state: 'active' | 'uninitialized' | 'frozen'; code?: Cell; data?: Cell }>;
  sendBoc(boc: Buffer): Promise<void>;
}

export interface TonRpc {
  /** http://127.0.0.1:port/api/v2/jsonRPC */
  readonly url: string;
  /** Requests answered, by method. */
  readonly counts: Map<string, number>;
  /** While down, every request gets a 502 (an RPC that fails). */
  setDown(down: boolean): void;
  /** Requests refused while down. */
  refused(): number;
  close(): Promise<void>;
}

const TON_RPC_PATH = '/api/v2/jsonRPC';

export async function serveTonRpc(ledger: TonLedger, opts: { port?: number; host?: string } = {}): Promise<TonRpc> {
  const counts = new Map<string, number>();
  let down = false;
  let refused = 0;
  const server = http.createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req, 256 * 1024);
      if (down) {
        refused++;
        return reply(res, 502, { ok: false, error: 'bad gateway', code: 502 });
      }
      if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== TON_RPC_PATH)
        return reply(res, 404, { ok: false, error: 'not found', code: 404 });
      const call = JSON.parse(raw.toString('utf8') || '{}') as { id?: unknown; method?: string; params?: Record<string, unknown> };
      const method = call.method ?? '';
      counts.set(method, (counts.get(method) ?? 0) + 1);
      try {
        const result = await answer(ledger, method, call.params ?? {});
        reply(res, 200, { ok: true, result, ...(call.id !== undefined ? { id: call.id, jsonrpc: '2.0' } : {}) });
      } catch (e) {
        reply(res, 200, { ok: false, error: e instanceof Error ? e.message : 'error', code: 500 });
      }
    })().catch(() => {
      if (!res.headersSent) reply(res, 500, { ok: false, error: 'internal', code: 500 });
    });
  });
  const listening = await listen(server, { port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  return {
    url: `${listening.url}${TON_RPC_PATH}`,
    counts,
    setDown: (d) => void (down = d),
    refused: () => refused,
    close: () => listening.close({ force: true }),
  };
}

function reply(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

const blockId = (seqno: number) => ({
  '@type': 'ton.blockIdExt',
  workchain: -1,
  shard: '-9223372036854775808',
  seqno,
  root_hash: Buffer.alloc(32, seqno % 256).toString('base64'),
  file_hash: Buffer.alloc(32, (seqno + 1) % 256).toString('base64'),
});

async function answer(ledger: TonLedger, method: string, p: Record<string, unknown>): Promise<unknown> {
  switch (method) {
    case 'getMasterchainInfo':
      return { '@type': 'blocks.masterchainInfo', last: blockId(ledger.seqno()), state_root_hash: '', init: blockId(0) };
    case 'getTransactions': {
      const address = Address.parse(String(p.address));
      const all = ledger.transactions(address.toRawString());
      const limit = Math.min(100, Math.max(1, Number(p.limit ?? 10)));
      const lt = p.lt !== undefined ? BigInt(String(p.lt)) : undefined;
      const toLt = p.to_lt !== undefined && p.to_lt !== '0' ? BigInt(String(p.to_lt)) : undefined;
      const out: unknown[] = [];
      for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
        const tx = all[i] as Transaction;
        if (lt !== undefined && tx.lt > lt) continue;
        if (toLt !== undefined && tx.lt <= toLt) break;
        out.push(txJson(address, tx));
      }
      return out;
    }
    case 'runGetMethod': {
      const stack = ((p.stack as unknown[][] | undefined) ?? []).map(stackIn);
      const r = await ledger.runGet(Address.parse(String(p.address)), String(p.method), stack);
      return { '@type': 'smc.runResult', gas_used: 0, exit_code: r.exitCode, stack: r.stack.map(stackOut) };
    }
    case 'getAddressInformation': {
      const address = Address.parse(String(p.address));
      const a = await ledger.account(address);
      const last = ledger.transactions(address.toRawString()).at(-1);
      return {
        '@type': 'raw.fullAccountState',
        balance: a.balance.toString(),
        state: a.state,
        code: a.code?.toBoc().toString('base64') ?? '',
        data: a.data?.toBoc().toString('base64') ?? '',
        last_transaction_id: {
          '@type': 'internal.transactionId',
          lt: last?.lt.toString() ?? '0',
          hash: last?.hash().toString('base64') ?? Buffer.alloc(32).toString('base64'),
        },
        block_id: blockId(ledger.seqno()),
        frozen_hash: '',
        sync_utime: Math.floor(Date.now() / 1000),
      };
    }
    case 'sendBoc':
      await ledger.sendBoc(Buffer.from(String(p.boc), 'base64'));
      return { '@type': 'ok' };
    default:
      throw new Error(`method ${method} is not served by the sandbox`);
  }
}

function stackIn(item: unknown[]): TupleItem {
  const [kind, value] = item as [string, unknown];
  if (kind === 'num') return { type: 'int', value: BigInt(String(value)) };
  const cell = Cell.fromBase64(typeof value === 'string' ? value : String((value as { bytes?: string }).bytes));
  return kind === 'tvm.Slice' ? { type: 'slice', cell } : { type: 'cell', cell };
}

function stackOut(item: TupleItem): unknown[] {
  switch (item.type) {
    case 'int':
      return ['num', `${item.value < 0n ? '-' : ''}0x${(item.value < 0n ? -item.value : item.value).toString(16)}`];
    case 'cell':
    case 'slice':
    case 'builder':
      return [item.type === 'cell' ? 'cell' : 'slice', { bytes: item.cell.toBoc().toString('base64') }];
    default:
      return ['null'];
  }
}

function txJson(address: Address, tx: Transaction) {
  return {
    '@type': 'raw.transaction',
    address: { '@type': 'accountAddress', account_address: address.toString() },
    utime: tx.now,
    data: tx.raw.toBoc().toString('base64'),
    transaction_id: { '@type': 'internal.transactionId', lt: tx.lt.toString(), hash: tx.hash().toString('base64') },
    fee: tx.totalFees.coins.toString(),
    storage_fee: '0',
    other_fee: '0',
    in_msg: tx.inMessage ? msgJson(tx.inMessage) : undefined,
    out_msgs: [...tx.outMessages.values()].map(msgJson),
  };
}

function msgJson(m: Message) {
  const i = m.info;
  const comment = (() => {
    const s = m.body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== 0) return '';
    try {
      return s.loadStringTail();
    } catch {
      return '';
    }
  })();
  return {
    '@type': 'raw.message',
    source: i.type === 'internal' ? i.src.toString() : i.type === 'external-out' ? i.src.toString() : '',
    destination: i.type === 'external-out' ? '' : i.dest.toString(),
    value: i.type === 'internal' ? i.value.coins.toString() : '0',
    fwd_fee: i.type === 'internal' ? i.forwardFee.toString() : '0',
    ihr_fee: i.type === 'internal' ? i.ihrFee.toString() : '0',
    created_lt: i.type === 'external-in' ? '0' : i.createdLt.toString(),
    body_hash: m.body.hash().toString('base64'),
    msg_data: { '@type': 'msg.dataRaw', body: m.body.toBoc().toString('base64'), init_state: '' },
    message: comment,
  };
}

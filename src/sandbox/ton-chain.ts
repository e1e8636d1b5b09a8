import { createHash } from 'node:crypto';
import { Blockchain, createShardAccount, internal as forged } from '@ton/sandbox';
import { Address, beginCell, Cell, external, internal, SendMode, toNano, type Transaction } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { JETTON_MINTER_CODE_BOC, JETTON_WALLET_CODE_BOC } from './ton-jetton-code.js';
import { serveTonRpc, type TonLedger, type TonRpc } from './ton-rpc.js';

/**
 * The sandbox's TON network on a real local chain: @ton/sandbox (the TON emulator, every
 * transaction executed by the real TVM) behind toncenter's jsonRPC surface (ton-rpc.ts). A funded
 * V4 wallet (a published development key: never real money) holds test TON and the test USDT,
 * the standard jetton placed at the catalogue's USDT master address, so the catalogue stays as it
 * is. Deposits are real transfers from that wallet, signed and sent as external messages, with
 * the swap's comment, as Layerswap's app builds them (a jetton transfer with the comment in its
 * forward payload). Each batch of transactions is one masterchain block; a block also passes
 * every `blockMs` (confirmations).
 */

/** Seed of the funded wallet's key: public, development only. */
const FUNDED_SEED = createHash('sha256').update('swapbot sandbox ton funded wallet').digest();

export interface SandboxTon {
  /** toncenter-shaped jsonRPC URL (the catalogue's TON node_url with --chain). */
  readonly url: string;
  readonly rpc: TonRpc;
  /** The funded wallet (V4R2) and its 32-byte key seed (hex): development only. */
  readonly fundedAddress: string;
  readonly fundedSeedHex: string;
  head(): number;
  /** Calls `listener` after each new block with transactions; returns its removal. */
  onBlock(listener: () => void): () => void;
  /** Sends `amount` base units of `token` (null contract: TON) to `to` with `comment` (none: a transfer without one); resolves to the hash (hex) of the deposit address's transaction. */
  send(to: string, token: { contract: string | null }, amount: bigint, comment?: string): Promise<string>;
  /** A message from any address, which the emulator lets a test forge (a fake jetton wallet's notification). */
  forge(from: string, to: string, value: bigint, body: Cell): Promise<void>;
  close(): Promise<void>;
}

/**
 * `accounts`: addresses that hold an active wallet (the service's shared deposit address is one on
 * the real network), so a bounceable transfer to them lands instead of bouncing back.
 */
export async function startSandboxTon(opts: {
  jettons: readonly string[];
  accounts?: readonly string[];
  blockMs?: number;
}): Promise<SandboxTon> {
  const chain = await Blockchain.create();
  const keys = keyPairFromSeed(FUNDED_SEED);
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
  const init = wallet.init;
  await chain.setShardAccount(
    wallet.address,
    createShardAccount({ address: wallet.address, code: init.code, data: init.data, balance: toNano('1000000') }),
  );
  for (const a of opts.accounts ?? []) {
    const address = Address.parse(a);
    const code = WalletContractV4.create({
      workchain: 0,
      publicKey: keyPairFromSeed(createHash('sha256').update(a).digest()).publicKey,
    }).init;
    await chain.setShardAccount(address, createShardAccount({ address, code: code.code, data: code.data, balance: toNano('1') }));
  }
  let seqno = 1;
  const txs = new Map<string, Transaction[]>();
  const listeners = new Set<() => void>();
  const record = (list: readonly Transaction[]) => {
    seqno++;
    for (const tx of list) {
      const raw = `0:${tx.address.toString(16).padStart(64, '0')}`;
      txs.set(raw, [...(txs.get(raw) ?? []), tx]);
    }
    for (const l of listeners) l();
  };
  let sending: Promise<unknown> = Promise.resolve();
  let walletSeqno = 0;
  /** One external message from the funded wallet carrying `msg`: its transactions, in one block. */
  const fromWallet = (msg: ReturnType<typeof internal>) => {
    const run = sending.then(async () => {
      const body = wallet.createTransfer({
        seqno: walletSeqno,
        secretKey: keys.secretKey,
        messages: [msg],
        sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      });
      const r = await chain.sendMessage(external({ to: wallet.address, body }));
      walletSeqno++;
      record(r.transactions);
      return r.transactions;
    });
    sending = run.catch(() => undefined);
    return run;
  };

  // The test jettons: the standard minter at each catalogue master, admin the funded wallet, a supply minted to it.
  const walletCode = Cell.fromBase64(JETTON_WALLET_CODE_BOC);
  for (const master of opts.jettons) {
    const address = Address.parse(master);
    const content = beginCell().storeUint(1, 8).storeStringTail('sandbox').endCell();
    const data = beginCell().storeCoins(0).storeAddress(wallet.address).storeRef(content).storeRef(walletCode).endCell();
    await chain.setShardAccount(
      address,
      createShardAccount({ address, code: Cell.fromBase64(JETTON_MINTER_CODE_BOC), data, balance: toNano('10') }),
    );
    const transfer = beginCell()
      .storeUint(0x178d4519, 32)
      .storeUint(0, 64)
      .storeCoins(10n ** 18n)
      .storeAddress(address)
      .storeAddress(wallet.address)
      .storeCoins(0)
      .storeBit(0)
      .endCell();
    const mint = beginCell().storeUint(21, 32).storeUint(0, 64).storeAddress(wallet.address).storeCoins(toNano('0.05')).storeRef(transfer);
    await fromWallet(internal({ to: address, value: toNano('0.2'), bounce: true, body: mint.endCell() }));
  }

  const jettonWallets = new Map<string, Address>();
  const jettonWalletOf = async (master: string): Promise<Address> => {
    let w = jettonWallets.get(master);
    if (!w) {
      const r = await chain.runGetMethod(Address.parse(master), 'get_wallet_address', [
        { type: 'slice', cell: beginCell().storeAddress(wallet.address).endCell() },
      ]);
      w = r.stackReader.readAddress();
      jettonWallets.set(master, w);
    }
    return w;
  };

  const ledger: TonLedger = {
    seqno: () => seqno,
    transactions: (raw) => txs.get(raw) ?? [],
    async runGet(address, method, stack) {
      try {
        const r = await chain.runGetMethod(address, method, stack);
        return { exitCode: r.exitCode, stack: r.stack };
      } catch {
        return { exitCode: 11, stack: [] };
      }
    },
    async account(address) {
      const c = await chain.getContract(address);
      const st = c.accountState;
      return {
        balance: c.balance,
        state: st?.type === 'active' ? 'active' : st?.type === 'frozen' ? 'frozen' : 'uninitialized',
        ...(st?.type === 'active' && st.state.code ? { code: st.state.code } : {}),
        ...(st?.type === 'active' && st.state.data ? { data: st.state.data } : {}),
      };
    },
    async sendBoc(boc) {
      const run = sending.then(async () => record((await chain.sendMessage(Cell.fromBoc(boc)[0] as Cell)).transactions));
      sending = run.catch(() => undefined);
      await run;
    },
  };
  const rpc = await serveTonRpc(ledger);
  const blockMs = opts.blockMs ?? 1000;
  const timer = blockMs > 0 ? setInterval(() => void seqno++, blockMs) : undefined;
  timer?.unref();

  return {
    url: rpc.url,
    rpc,
    fundedAddress: wallet.address.toString({ bounceable: false }),
    fundedSeedHex: FUNDED_SEED.toString('hex'),
    head: () => seqno,
    onBlock(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async send(to, token, amount, comment) {
      const dest = Address.parse(to);
      const text = comment === undefined ? undefined : beginCell().storeUint(0, 32).storeStringTail(comment).endCell();
      let list: Transaction[];
      if (token.contract === null) {
        list = await fromWallet(internal({ to: dest, value: amount, bounce: false, ...(text ? { body: text } : {}) }));
      } else {
        // As Layerswap's app sends it: a jetton transfer whose notification to the deposit address carries the comment.
        const body = beginCell()
          .storeUint(0x0f8a7ea5, 32)
          .storeUint(0, 64)
          .storeCoins(amount)
          .storeAddress(dest)
          .storeAddress(wallet.address)
          .storeBit(0)
          .storeCoins(toNano('0.00002'))
          .storeMaybeRef(text ?? null)
          .endCell();
        list = await fromWallet(internal({ to: await jettonWalletOf(token.contract), value: toNano('0.1'), bounce: true, body }));
      }
      const at = dest.toRawString();
      const tx = list.find((t) => `0:${t.address.toString(16).padStart(64, '0')}` === at);
      if (!tx) throw new Error('the transfer did not reach the deposit address');
      return tx.hash().toString('hex');
    },
    async forge(from, to, value, body) {
      const run = sending.then(async () => {
        const msg = forged({ from: Address.parse(from), to: Address.parse(to), value, body, bounce: false });
        record((await chain.sendMessage(msg)).transactions);
      });
      sending = run.catch(() => undefined);
      await run;
    },
    async close() {
      if (timer) clearInterval(timer);
      await rpc.close();
    },
  };
}

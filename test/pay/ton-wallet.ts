import { createHash, randomBytes } from 'node:crypto';
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, storeStateInit } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { TonClient, WalletContractV4 } from '@ton/ton';
import type { BrowserContext } from 'playwright-core';

/**
 * A TON Connect wallet for the pay page's browser tests, injected as TON Connect's JS bridge
 * (`window.swapbotTestTon.tonconnect`: protocol version 2, `walletInfo`, `isWalletBrowser` true as
 * inside Telegram, and `connect`, `restoreConnection`, `send`, `listen`). Its calls cross into Node,
 * where a V4R2 wallet contract on the sandbox's TON chain (@ton/sandbox behind its toncenter-shaped
 * RPC) signs the message the page asked for as it is and sends it as an external message, deploying
 * the wallet with its first one. It answers TON Connect's `boc`, and records what it was asked.
 */
export interface TonTestWallet {
  /** Its address, non-bounceable (where TON and jettons are sent to fund it). */
  address: string;
  /** Its raw form (0:…), as TON Connect's ton_addr gives it. */
  raw: string;
  /** The chain its account says it is on (-239 mainnet, -3 testnet). */
  chain: string;
  /** The next sendTransaction is declined as a person would (TON Connect's code 300). */
  rejectNext: boolean;
  /** Every sendTransaction request the page made (the parsed request). */
  asked: Array<{
    validUntil: number;
    network?: string;
    from?: string;
    messages: Array<{ address: string; amount: string; payload?: string }>;
  }>;
  /** BOCs of the external messages it sent. */
  sent: string[];
  handle(method: string, params: unknown[]): Promise<unknown>;
}

export function tonTestWallet(rpcUrl: string, chain = '-239'): TonTestWallet {
  const keys = keyPairFromSeed(createHash('sha256').update(randomBytes(32)).digest());
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
  const client = new TonClient({ endpoint: rpcUrl });
  const stateInit = beginCell().store(storeStateInit(wallet.init)).endCell().toBoc().toString('base64');

  async function send(request: TonTestWallet['asked'][number]): Promise<string> {
    const deployed = (await client.getContractState(wallet.address)).state === 'active';
    const seqno = deployed ? (await client.runMethod(wallet.address, 'seqno')).stack.readNumber() : 0;
    const body = wallet.createTransfer({
      seqno,
      secretKey: keys.secretKey,
      timeout: request.validUntil,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      // As a wallet does: the bounce flag from the address's own form.
      messages: request.messages.map((m) =>
        internal({
          to: Address.parse(m.address),
          bounce: Address.parseFriendly(m.address).isBounceable,
          value: BigInt(m.amount),
          ...(m.payload ? { body: Cell.fromBase64(m.payload) } : {}),
        }),
      ),
    });
    const ext = external({ to: wallet.address, ...(deployed ? {} : { init: wallet.init }), body });
    const boc = beginCell().store(storeMessage(ext)).endCell().toBoc().toString('base64');
    await client.sendFile(Buffer.from(boc, 'base64'));
    return boc;
  }

  const state: TonTestWallet = {
    address: wallet.address.toString({ bounceable: false }),
    raw: wallet.address.toRawString(),
    chain,
    rejectNext: false,
    asked: [],
    sent: [],
    async handle(method, params) {
      if (method === 'connect')
        return {
          event: 'connect',
          id: 1,
          payload: {
            items: [
              {
                name: 'ton_addr',
                address: state.raw,
                network: state.chain,
                publicKey: keys.publicKey.toString('hex'),
                walletStateInit: stateInit,
              },
            ],
            device: {
              platform: 'browser',
              appName: 'swapbot-test-ton',
              appVersion: '1.0.0',
              maxProtocolVersion: 2,
              features: ['SendTransaction', { name: 'SendTransaction', maxMessages: 4 }],
            },
          },
        };
      if (method !== 'send') return { event: 'connect_error', id: 1, payload: { code: 400, message: `no ${method}` } };
      const message = params[0] as { method: string; params: string[]; id: string };
      if (message.method !== 'sendTransaction') return { error: { code: 400, message: 'not supported' }, id: message.id };
      // On the wire (TON Connect's protocol) the deadline is `valid_until`.
      const { valid_until, ...rest } = JSON.parse(message.params[0] ?? '{}') as TonTestWallet['asked'][number] & { valid_until?: number };
      const request = { ...rest, validUntil: valid_until ?? rest.validUntil };
      state.asked.push(request);
      if (state.rejectNext) {
        state.rejectNext = false;
        return { error: { code: 300, message: 'User declined the transaction' }, id: message.id };
      }
      const boc = await send(request);
      state.sent.push(boc);
      return { result: boc, id: message.id };
    },
  };
  return state;
}

/** Installs the wallet in every page of the context, before the page's own scripts. */
export async function injectTonWallet(context: BrowserContext, wallet: TonTestWallet): Promise<void> {
  await context.exposeFunction('__testTon', (m: string, p: unknown[]) => wallet.handle(m, p));
  await context.addInitScript(bridgeScript);
}

/** Runs in the page (a browser global scope): TON Connect's JS bridge, its calls answered in Node. */
function bridgeScript(): void {
  const g = globalThis as unknown as Record<string, unknown>;
  const bridge = g.__testTon as (m: string, p: unknown[]) => Promise<unknown>;
  g.swapbotTestTon = {
    tonconnect: {
      deviceInfo: {
        platform: 'browser',
        appName: 'swapbot-test-ton',
        appVersion: '1.0.0',
        maxProtocolVersion: 2,
        features: ['SendTransaction', { name: 'SendTransaction', maxMessages: 4 }],
      },
      walletInfo: {
        name: 'Test TON Wallet',
        app_name: 'swapbot-test-ton',
        image: 'data:image/png;base64,',
        about_url: 'https://example.invalid',
        platforms: ['chrome'],
      },
      protocolVersion: 2,
      isWalletBrowser: true,
      connect: (protocolVersion: number, message: unknown) => bridge('connect', [protocolVersion, message]),
      restoreConnection: () => bridge('connect', []),
      send: (message: unknown) => bridge('send', [message]),
      listen: () => () => undefined,
    },
  };
}

import {
  createSolanaRpc,
  generateKeyPair,
  getAddressFromPublicKey,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getBase64Decoder,
  getTransactionDecoder,
  lamports,
  signTransaction,
  type Address,
} from '@solana/kit';
import { base58 } from '@scure/base';
import type { BrowserContext } from 'playwright-core';

/**
 * A Wallet Standard wallet for the pay page's browser tests: registered with the page through the
 * standard's own window events (`wallet-standard:register-wallet`, and again on
 * `wallet-standard:app-ready`, as @wallet-standard/wallet's registerWallet does), offering
 * `standard:connect` and `solana:signAndSendTransaction`. Its calls cross into Node, where a local
 * Ed25519 key signs exactly the bytes the page handed it and sends them to the sandbox's Solana RPC.
 */
export interface SolanaTestWallet {
  address: Address;
  /** The chains its account says it works on (a wallet set to devnet says solana:devnet). */
  chains: string[];
  /** The next signAndSendTransaction is declined as a person would (code 4001). */
  rejectNext: boolean;
  /** Every transaction the page asked it to sign, as base64 wire bytes. */
  asked: string[];
  /** Signatures of the transactions it sent. */
  sent: string[];
  handle(method: string, params: unknown[]): Promise<unknown>;
}

export async function solanaTestWallet(rpcUrl: string, chains = ['solana:mainnet']): Promise<SolanaTestWallet> {
  const keys = await generateKeyPair();
  const address = await getAddressFromPublicKey(keys.publicKey);
  const rpc = createSolanaRpc(rpcUrl);
  const state: SolanaTestWallet = {
    address,
    chains,
    rejectNext: false,
    asked: [],
    sent: [],
    async handle(method, params) {
      if (method === 'connect') return { address, chains: state.chains };
      if (method !== 'signAndSend') return { error: { code: -32601, message: `no ${method}` } };
      const wire = String(params[0]);
      state.asked.push(wire);
      if (state.rejectNext) {
        state.rejectNext = false;
        return { error: { code: 4001, message: 'User rejected the request.' } };
      }
      const signed = await signTransaction([keys], getTransactionDecoder().decode(getBase64Encoder().encode(wire)));
      const sig = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
      state.sent.push(sig);
      return { signature: getBase64Decoder().decode(base58.decode(sig)) };
    },
  };
  return state;
}

/** SOL for the wallet's payment and its fee (in lamports), from the local chain's airdrop. */
export async function fundSol(rpcUrl: string, to: Address, amount: bigint): Promise<void> {
  await createSolanaRpc(rpcUrl).requestAirdrop(to, lamports(amount)).send();
}

export async function solBalance(rpcUrl: string, of: Address): Promise<bigint> {
  return (await createSolanaRpc(rpcUrl).getBalance(of).send()).value;
}

/** Installs the wallet in every page of the context, before the page's own scripts. */
export async function injectSolanaWallet(context: BrowserContext, wallet: SolanaTestWallet): Promise<void> {
  await context.exposeFunction('__testSolana', (m: string, p: unknown[]) => wallet.handle(m, p));
  await context.addInitScript(registerScript);
}

/** Runs in the page (a browser global scope); typed here without the DOM library. */
function registerScript(): void {
  const win = globalThis as unknown as {
    dispatchEvent(e: unknown): void;
    addEventListener(type: string, f: (e: { detail: { register(w: unknown): unknown } }) => void): void;
    atob(s: string): string;
    btoa(s: string): string;
  };
  const bridge = (globalThis as unknown as Record<string, (m: string, p: unknown[]) => Promise<Record<string, unknown>>>).__testSolana!;
  const bytes = (b64: string) => Uint8Array.from(win.atob(b64), (c) => c.charCodeAt(0));
  const text = (u: Uint8Array) => win.btoa(String.fromCharCode(...u));
  const fail = (out: Record<string, unknown>) => {
    const e = out.error as { code: number; message: string } | undefined;
    if (e) throw Object.assign(new Error(e.message), { code: e.code });
  };
  const accounts: unknown[] = [];
  const wallet = {
    version: '1.0.0',
    name: 'Test Solana Wallet',
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
    chains: ['solana:mainnet', 'solana:devnet'],
    get accounts() {
      return accounts.slice();
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        async connect() {
          const out = await bridge('connect', []);
          fail(out);
          const account = {
            address: out.address as string,
            publicKey: new Uint8Array(32),
            chains: out.chains as string[],
            features: ['solana:signAndSendTransaction'],
          };
          accounts.splice(0, accounts.length, account);
          return { accounts: [account] };
        },
      },
      'standard:events': { version: '1.0.0', on: () => () => undefined },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signAndSendTransaction(...inputs: Array<{ transaction: Uint8Array; chain?: string }>) {
          const results = [];
          for (const input of inputs) {
            const out = await bridge('signAndSend', [text(input.transaction), input.chain]);
            fail(out);
            results.push({ signature: bytes(out.signature as string) });
          }
          return results;
        },
      },
    },
  };
  const register = (api: { register(w: unknown): unknown }) => api.register(wallet);
  class RegisterWalletEvent extends Event {
    get detail() {
      return register;
    }
    constructor() {
      super('wallet-standard:register-wallet', { bubbles: false, cancelable: false, composed: false });
    }
  }
  win.dispatchEvent(new RegisterWalletEvent());
  win.addEventListener('wallet-standard:app-ready', (e) => register(e.detail));
}

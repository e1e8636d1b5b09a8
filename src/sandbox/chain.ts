import {
  createWalletClient,
  createPublicClient,
  http,
  keccak256,
  pad,
  parseSignature,
  parseUnits,
  stringToHex,
  toHex,
  type Hex,
} from 'viem';
import { privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { createEvmWatcher } from '../chain/evm.js';
import type { ChainWatcher, SeenTransfer, WatchEntry } from '../chain/watcher.js';
import { DEV_KEYS, startLocalNode, TOKEN_ABI, type LocalNode } from '../chain/local-node.js';
import { TOKEN3009_ABI, TOKEN3009_BYTECODE } from './eip3009-token.js';
import { eip712Name } from './gasless-typed-data.js';
import { NETWORKS } from './catalog.js';
import type { SwapRecord } from './lifecycle.js';
import { isTonSwap, startTonDeposits, type SandboxTonDeposits } from './ton-deposits.js';

/**
 * `swapbot sandbox --chain [RPC_URL]`: the sandbox's EVM networks on one real EVM node (a local
 * EDR node when no URL is given). Each catalogue token's contract address gets the test ERC-20's
 * code with the funded account holding the supply (hardhat_setCode/setStorageAt, so the catalogue
 * stays as it is); deposit addresses are real accounts; the sandbox detects deposits by watching
 * the chain (the same EVM watcher as the bot) and counts their confirmations from its head.
 */

export interface SandboxChainOptions {
  /** An RPC of a node with the hardhat_ methods (Hardhat, Anvil); none: a local node in-process. */
  url?: string;
  /** Mine an empty block this often (real ms) on the local node (default 1000; 0: only on transactions). */
  blockMs?: number;
  /** How often the sandbox reads the head (real ms; default 200 at RPC_URL, 1000 on its own node, which tells of each new block). */
  pollMs?: number;
  /** Also the TON networks on the TON emulator (ton-deposits.ts; default true). */
  ton?: boolean;
}

export interface SandboxChain {
  readonly url: string;
  /** The node's chain id: with --chain the catalogue's EVM networks name it (a watcher checks its RPC against it). */
  readonly chainId: number;
  readonly fundedKey: Hex;
  /** The local node, when the sandbox started one. */
  readonly node: LocalNode | undefined;
  /** The TON networks' chain (its toncenter-shaped RPC and funded wallet), unless `ton: false`. */
  readonly ton: SandboxTonDeposits | undefined;
  head(): number;
  depositAddress(swapId: string): string;
  /** Sends the swap's deposit as a real transfer from the funded account (the simulated deposit). */
  /** `token`: another token of the source network (a wrong-token deposit the service never counts). */
  sendDeposit(rec: SwapRecord, amountText?: string, token?: SwapRecord['request']['route']['from']['token']): Promise<string>;
  watch(rec: SwapRecord): void;
  /** The token's balance of an account (the gasless authorization's balance check). */
  balanceOf(token: Hex, owner: Hex): Promise<bigint>;
  /**
   * Carries out a signed EIP-3009 authorization on the token (a relayer account pays the gas, as
   * Layerswap's paymaster does); resolves to the transaction's hash once it is mined, or rejects
   * with the contract's reason.
   */
  executeAuthorization(
    token: Hex,
    kind: 'TransferWithAuthorization' | 'ReceiveWithAuthorization',
    message: AuthorizationMessage,
    signature: Hex,
  ): Promise<Hex>;
  close(): Promise<void>;
}

export interface AuthorizationMessage {
  from: Hex;
  to: Hex;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

const SUPPLY_SLOT_BALANCES = 4n;
const NAME_SLOT = 0n; // Token.balanceOf's mapping slot
const DECIMALS_SLOT = 2n;

export async function startSandboxChain(
  opts: SandboxChainOptions,
  onDeposit: (swapId: string, t: SeenTransfer) => void,
): Promise<SandboxChain> {
  const node = opts.url ? undefined : await startLocalNode();
  const url = opts.url ?? (node as LocalNode).url;
  const account = privateKeyToAccount(DEV_KEYS[0]);
  const pub = createPublicClient({ transport: http(url, { retryCount: 0 }) });
  const chainId = await pub.getChainId();
  const chain = {
    id: chainId,
    name: 'sandbox',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  } as const;
  const wallet = createWalletClient({ account, chain, transport: http(url, { retryCount: 0 }) });
  const rpc = (method: string, params: unknown[]) => pub.request({ method: method as 'eth_chainId', params: params as never });

  // One deployment gives the token's runtime code; every catalogue contract gets a copy.
  const deployed = await pub.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi: TOKEN_ABI, bytecode: TOKEN3009_BYTECODE, args: ['Sandbox', 'SBX', 18, 0n] }),
  });
  const code = await pub.getCode({ address: deployed.contractAddress as Hex });
  const balanceSlot = keccak256(
    `0x${pad(account.address, { size: 32 }).slice(2)}${pad(toHex(SUPPLY_SLOT_BALANCES), { size: 32 }).slice(2)}`,
  );
  const evm = NETWORKS.filter((n) => n.type === 'evm');
  for (const n of evm) {
    for (const t of n.tokens) {
      if (!t.contract) continue;
      await rpc('hardhat_setCode', [t.contract, code]);
      await rpc('hardhat_setStorageAt', [t.contract, toHex(DECIMALS_SLOT), pad(toHex(t.decimals), { size: 32 })]);
      await rpc('hardhat_setStorageAt', [t.contract, toHex(NAME_SLOT), shortString(eip712Name(t))]);
      await rpc('hardhat_setStorageAt', [t.contract, balanceSlot, pad(toHex(parseUnits('1000000000', t.decimals)), { size: 32 })]);
    }
  }

  let head = Number(await pub.getBlockNumber());
  const ton = opts.ton === false ? undefined : await startTonDeposits(onDeposit);
  const watcher: ChainWatcher = createEvmWatcher({
    rpcs: new Map(evm.map((n) => [n.name, url])),
    pollMs: opts.pollMs ?? (node ? 1000 : 200),
    minGapMs: 0,
    lookback: 0,
    events: {
      // A zero-value transfer (address poisoning) is nobody's deposit, for the service as for the bot.
      accept: (_e, t) => t.value > 0n,
      transfer: (e, t) => onDeposit(e.swapId, t),
      head: (_n, h) => void (head = Math.max(head, h)),
      health: () => undefined,
    },
  });
  // Its own node tells of each block: the deposit is seen at once, with no head reads in between
  // (reading every 20 ms took a tenth of a core from the process that answers the bot's RPC).
  const unpoke = node?.onBlock(() => watcher.poke?.());
  const blockMs = opts.blockMs ?? 1000;
  const miner = node && blockMs > 0 ? setInterval(() => void node.mine().catch(() => undefined), blockMs) : undefined;
  miner?.unref();
  // One sender: transfers from the funded account go out one at a time (nonces).
  let sending: Promise<unknown> = Promise.resolve();
  // The relayer (the paymaster's stand-in) is its own account, with its own nonces.
  const relayer = createWalletClient({ account: privateKeyToAccount(DEV_KEYS[1]), chain, transport: http(url, { retryCount: 0 }) });
  let relaying: Promise<unknown> = Promise.resolve();

  return {
    url,
    chainId,
    fundedKey: DEV_KEYS[0],
    node,
    ton,
    head: () => head,
    depositAddress: (swapId) => privateKeyToAddress(keccak256(toHex(`swapbot sandbox deposit:${swapId}`))),
    watch(rec) {
      if (isTonSwap(rec)) return ton?.watch(rec);
      const network = rec.request.route.from.network;
      // Every EVM swap has its own address on the chain (a deposit address, a gasless swap's, the wallet flow's).
      if (network.type !== 'evm') return;
      const token = rec.request.route.from.token;
      const entry: WatchEntry = {
        swapId: rec.id,
        network: network.name,
        address: rec.depositAddress,
        token: { symbol: token.symbol, contract: token.contract, decimals: token.decimals },
        // The service's deposit is its own business: once its receipt backs it, it is not re-checked.
        depth: 1,
      };
      watcher.watch(entry);
    },
    sendDeposit(rec, amountText, other) {
      if (isTonSwap(rec) && ton) return ton.send(rec, amountText, other);
      const token = other ?? rec.request.route.from.token;
      const value = parseUnits(amountText ?? rec.request.amount.text, token.decimals);
      const to = rec.depositAddress as Hex;
      const send = sending.then(() =>
        token.contract
          ? wallet.writeContract({ address: token.contract as Hex, abi: TOKEN_ABI, functionName: 'transfer', args: [to, value] })
          : wallet.sendTransaction({ to, value }),
      );
      sending = send.catch(() => undefined);
      return send;
    },
    balanceOf: (token, owner) => pub.readContract({ address: token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [owner] }),
    executeAuthorization(token, kind, m, signature) {
      const { v, r, s } = parseSignature(signature);
      const args = [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, Number(v ?? 27n), r, s] as const;
      const run = relaying.then(async () => {
        const request = {
          address: token,
          abi: TOKEN3009_ABI,
          functionName: kind === 'TransferWithAuthorization' ? 'transferWithAuthorization' : 'receiveWithAuthorization',
          args,
        } as const;
        // Simulated first: a refusal comes back with the contract's reason and costs no gas.
        await pub.simulateContract({ ...request, account: relayer.account });
        const hash = await relayer.writeContract(request);
        await pub.waitForTransactionReceipt({ hash });
        return hash;
      });
      relaying = run.catch(() => undefined);
      return run;
    },
    async close() {
      if (miner) clearInterval(miner);
      unpoke?.();
      await watcher.close();
      await ton?.close();
      await node?.close();
    },
  };
}

/** A Solidity string under 32 bytes as its storage slot holds it: the bytes, then length × 2 in the last byte. */
function shortString(text: string): Hex {
  const bytes = stringToHex(text).slice(2);
  if (bytes.length / 2 > 31) throw new Error(`sandbox chain: token name too long for one slot: ${text}`);
  return `0x${bytes.padEnd(62, '0')}${((bytes.length / 2) * 2).toString(16).padStart(2, '0')}`;
}

/** Stops watching a swap's address once its deposit arrived (the watcher is the chain's). */

import { createPublicClient, createWalletClient, http, parseUnits, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { trackingRenderer } from '../../../src/bot/renderer.js';
import { TOKEN_ABI, type LocalNode } from '../../../src/chain/local-node.js';
import type { ChatTarget } from '../../../src/contracts/incoming.js';
import { LayerswapClient } from '../../../src/layerswap/client.js';
import type { CreateSwapParams } from '../../../src/layerswap/params.js';
import type { Logger } from '../../../src/log.js';
import { NETWORKS } from '../../../src/sandbox/catalog.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import type { ManualClock, SandboxServer } from '../../../src/sandbox/types.js';
import type { ChainSettings } from '../../../src/tracking/chain-start.js';
import { createTracking, type Tracking } from '../../../src/tracking/engine.js';
import { testRedisUrl } from '../../support/redis.js';
import { swapRequest, USDC } from '../../support/swaps.js';
import { waitFor } from '../../support/wait.js';
import type { RecordingMessenger } from '../../tracking/support/recording-messenger.js';

/**
 * The set-up the chain tests share: the sandbox with its real local EVM chain on a ManualClock
 * (deposits only when a test sends them), a tracker whose chain watch reads every sandbox EVM
 * network through one RPC URL (the chain itself or a proxy in front of it), a wallet holding the
 * chain's funded key, and a followed swap with its deposit address. Each piece stands alone so a
 * test keeps what it does differently (its own proxy, logger, cadence or network rule). Pieces only
 * used here are not exported yet (knip): export them as the other chain tests move onto this file.
 */

/** USDC on Arbitrum One (the sandbox chain deploys the catalogue's contracts at their addresses). */
const ARB_USDC = USDC.contract as Hex;

/** The sandbox's EVM networks, as its catalogue lists them. */
const EVM_NETWORKS = NETWORKS.filter((x) => x.type === 'evm');

/** The sandbox on its real local chain: no automatic deposit, payout and refunds 10 s apart on `clock`, expiry after an hour. */
export function startChainSandbox(clock: ManualClock): Promise<SandboxServer> {
  return startSandbox({
    clock,
    timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 10_000, expiryMs: 3_600_000, refundDelayMs: 10_000 },
    chain: { blockMs: 0, pollMs: 50 },
  });
}

/** A client of the sandbox that never retries (a test sees the first answer). */
export function sandboxClient(sandbox: SandboxServer, timeoutMs = 5_000): LayerswapClient {
  return new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs });
}

/** What the catalogue says of a network, as the bot reads it: the local chain's id, the catalogue's confirmations and tokens. */
const catalogNetwork: ChainSettings['network'] = async (name) => {
  const net = EVM_NETWORKS.find((x) => x.name === name);
  return net ? { required: net.max_confirmations, chainId: 31337, tokens: net.tokens } : undefined;
};

export interface ChainTrackingOptions {
  client: LayerswapClient;
  clock: ManualClock;
  prefix: string;
  /** The RPC every EVM network is read through. */
  rpcUrl: string;
  /** API polls this far apart (default 30 s): what a card shows first comes from the chain. */
  pollEveryMs?: number;
  logger?: Logger;
  network?: ChainSettings['network'];
}

/** A tracker watching the sandbox's EVM networks through `rpcUrl`; not started (see startChainTracking). */
function chainTracking(o: ChainTrackingOptions): Tracking {
  const every = o.pollEveryMs ?? 30_000;
  return createTracking({
    redis: testRedisUrl(),
    prefix: o.prefix,
    api: o.client,
    limits: { maxPerChat: 1000, maxPerUser: 1000 },
    cadence: { fastMs: every, slowMs: every, stuckFactor: 4 },
    now: () => o.clock.now(),
    apiRate: { max: 100_000, duration: 1000 },
    ...(o.logger ? { logger: o.logger } : {}),
    chain: {
      evmRpcs: new Map(EVM_NETWORKS.map((x) => [x.name, o.rpcUrl])),
      pollMs: 50,
      network: o.network ?? catalogNetwork,
    },
  });
}

/** chainTracking with its workers started, delivering the real cards to `messenger` (a console chat). */
export async function startChainTracking(o: ChainTrackingOptions & { messenger: RecordingMessenger }): Promise<Tracking> {
  const tracking = chainTracking(o);
  await tracking.startWorkers({ messengers: { console: o.messenger }, render: trackingRenderer });
  return tracking;
}

/** A wallet holding a local chain's funded key: the sandbox's chain or a node of its own. */
export function chainWallet(chain: Pick<LocalNode, 'url' | 'chainId' | 'fundedKey'> | undefined) {
  const url = chain?.url ?? '';
  return createWalletClient({
    account: privateKeyToAccount(chain?.fundedKey ?? '0x'),
    chain: {
      id: chain?.chainId ?? 31337,
      name: 'local',
      nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    },
    transport: http(url),
  });
}

/** A reader of the sandbox's chain that never caches (each call sees the newest block). */
export function chainReader(sandbox: SandboxServer) {
  return createPublicClient({ cacheTime: 0, transport: http(sandbox.chain?.url ?? '') });
}

/** A real ERC-20 transfer of `amount` (6 decimals) of `token` to `to`, from the funded key. */
export function sendToken(sandbox: SandboxServer, to: Hex, amount: string, token: Hex = ARB_USDC): Promise<Hex> {
  return chainWallet(sandbox.chain).writeContract({
    address: token,
    abi: TOKEN_ABI,
    functionName: 'transfer',
    args: [to, parseUnits(amount, 6)],
  });
}

export interface FollowedSwap {
  id: string;
  chat: ChatTarget;
  /** Where the deposit goes. */
  address: Hex;
}

/** A swap made (swapRequest to `destination`, changed by `more`) and its deposit address, not yet followed. */
export async function depositSwap(
  client: LayerswapClient,
  destination: string,
  more: Partial<CreateSwapParams> = {},
): Promise<{ id: string; address: Hex }> {
  const details = await client.createSwap(swapRequest(destination, more));
  return { id: details.swap.id, address: details.deposit_actions?.[0]?.to_address as Hex };
}

/** `swap` followed by its creator from the console chat `chatId`, once its first poll has read it (the watch starts with it). */
export async function follow(tracking: Tracking, swap: { id: string; address: Hex }, chatId: string): Promise<FollowedSwap> {
  const chat: ChatTarget = { platform: 'console', chatId, chatKind: 'private' };
  await tracking.service.follow(swap.id, chat, { userId: `u-${chatId}`, creator: true });
  await waitFor(() => tracking.swapState(swap.id), 'the first poll');
  return { ...swap, chat };
}

/** The cards and messages `chatId` was sent (reactions left out), each as its JSON. */
function cardsOf(messenger: RecordingMessenger, chatId: string): string[] {
  return messenger.log.filter((r) => r.chatId === chatId && r.op !== 'react').map((r) => JSON.stringify(r.reply));
}

/** Waits for a card or message in `chatId` that says `text`; returns its JSON. */
export function cardSaying(messenger: RecordingMessenger, chatId: string, text: string, what: string): Promise<string> {
  return waitFor(() => cardsOf(messenger, chatId).find((c) => c.includes(text)), what);
}

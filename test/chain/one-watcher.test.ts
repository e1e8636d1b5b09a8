import { createPublicClient, createWalletClient, http, parseUnits, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { TOKEN_ABI } from '../../src/chain/local-node.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { NETWORKS } from '../../src/sandbox/catalog.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { waitFor } from '../support/wait.js';
import { startRpcProxy, type RpcProxy } from './support/rpc-proxy.js';

/**
 * One watcher per network across workers (issue 38): two workers on one Redis prefix, each
 * reaching the chain through its own RPC proxy (so each one's requests are counted), read every
 * new block of the network once between them, not once each; the worker holding the network's
 * watch goes away and the other carries on: the next block is read, and a deposit is on the card.
 */

const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';

describe('one watcher per network, whatever the number of workers', () => {
  let sandbox: SandboxServer;
  const workers: Array<{ tracking: Tracking; rpc: RpcProxy; closed: boolean }> = [];
  let client: LayerswapClient;
  const messenger = new RecordingMessenger('console');
  const clock = new ManualClock();
  const prefix = uniquePrefix('one-watcher');

  beforeAll(async () => {
    sandbox = await startSandbox({
      clock,
      timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 10_000, expiryMs: 3_600_000, refundDelayMs: 10_000 },
      chain: { blockMs: 0, pollMs: 50 },
    });
    client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: 5_000 });
    const evm = NETWORKS.filter((x) => x.type === 'evm');
    for (let i = 0; i < 2; i++) {
      const rpc = await startRpcProxy(sandbox.chain?.url ?? '');
      const tracking = createTracking({
        redis: testRedisUrl(),
        prefix,
        api: client,
        limits: { maxPerChat: 1000, maxPerUser: 1000 },
        cadence: { fastMs: 30_000, slowMs: 30_000, stuckFactor: 4 },
        now: () => clock.now(),
        apiRate: { max: 100_000, duration: 1000 },
        chain: {
          evmRpcs: new Map(evm.map((x) => [x.name, rpc.url])),
          pollMs: 50,
          network: async (name) => {
            const net = evm.find((x) => x.name === name);
            return net ? { required: net.max_confirmations, chainId: 31337, tokens: net.tokens } : undefined;
          },
        },
      });
      await tracking.startWorkers({ messengers: { console: messenger }, render: trackingRenderer });
      workers.push({ tracking, rpc, closed: false });
    }
  });
  afterAll(async () => {
    for (const w of workers) if (!w.closed) await w.tracking.close();
    await sandbox?.close();
    for (const w of workers) await w.rpc.close({ force: true });
  });

  const head = async () => Number(await createPublicClient({ cacheTime: 0, transport: http(sandbox.chain?.url ?? '') }).getBlockNumber());
  const scannedTo = () => Math.max(...workers.map((w) => w.rpc.scannedTo));
  const mined = async () => {
    await sandbox.chain?.node?.mine(1);
    const h = await head();
    await waitFor(() => scannedTo() >= h, 'a worker reading the new block');
    return h;
  };
  const reads = (block: number) => workers.reduce((n, w) => n + (w.rpc.reads.get(block) ?? 0), 0);

  let n = 0;
  async function followedSwap() {
    n++;
    const details = await client.createSwap({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: `0x${n.toString(16).padStart(40, 'c')}`,
      amount: 100,
      use_deposit_address: true,
    });
    const chat: ChatTarget = { platform: 'console', chatId: `one-${n}`, chatKind: 'private' };
    await workers[0]?.tracking.service.follow(details.swap.id, chat, { userId: `one${n}`, creator: true });
    await waitFor(() => workers[0]?.tracking.swapState(details.swap.id), 'the first poll');
    return { id: details.swap.id, chat, address: details.deposit_actions?.[0]?.to_address as Hex };
  }

  it('two workers read each new block of a network once between them', async () => {
    for (let i = 0; i < 3; i++) await followedSwap();
    // All three listed on the network, then both workers have run its watch since (each read for every swap) before counting:
    // a worker's first run for a swap reads the lookback for it, once.
    const redis = testRedis();
    await waitFor(async () => (await redis.scard(new TrackingKeys(prefix).chainNetwork('ARBITRUM_MAINNET'))) === 3, 'the swaps listed');
    const ran = workers.map((w) => w.rpc.counts.get('eth_getLogs') ?? 0);
    for (let i = 0; i < 200 && workers.some((w, k) => (w.rpc.counts.get('eth_getLogs') ?? 0) <= (ran[k] ?? 0)); i++) await mined();
    const from = (await mined()) + 1;
    for (let i = 0; i < 6; i++) await mined();
    const blocks = Array.from({ length: 6 }, (_, i) => from + i);
    expect(blocks.map(reads)).toEqual(blocks.map(() => 1));
  });

  it('another worker takes the watch over when the one holding it goes away', async () => {
    const { chat, address } = await followedSwap();
    await mined();
    // The last reader holds the watch (or had it last): it goes away.
    const holder = workers.reduce((a, b) => ((a.rpc.counts.get('eth_blockNumber') ?? 0) > 0 && a.rpc.scannedTo >= b.rpc.scannedTo ? a : b));
    const other = workers.find((w) => w !== holder);
    await holder.tracking.close();
    holder.closed = true;
    const before = other?.rpc.scannedTo ?? 0;
    const h = await mined();
    expect(other?.rpc.scannedTo).toBeGreaterThanOrEqual(h);
    expect(before).toBeLessThan(h);
    // A deposit now is seen by the worker that took over.
    const wallet = createWalletClient({
      account: privateKeyToAccount(sandbox.chain?.fundedKey ?? '0x'),
      chain: {
        id: 31337,
        name: 'local',
        nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [sandbox.chain?.url ?? ''] } },
      },
      transport: http(sandbox.chain?.url ?? ''),
    });
    await wallet.writeContract({ address: USDC, abi: TOKEN_ABI, functionName: 'transfer', args: [address, parseUnits('100', 6)] });
    await waitFor(
      () =>
        messenger.log.some((r) => r.chatId === chat.chatId && JSON.stringify(r.reply).includes('Deposit seen on Arbitrum One: 100 USDC')),
      'the deposit on the card, seen by the worker that took over',
    );
  });
});

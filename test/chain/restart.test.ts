import { createWalletClient, http, parseUnits, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { TOKEN_ABI } from '../../src/chain/local-node.js';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { NETWORKS } from '../../src/sandbox/catalog.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { testRedisUrl, uniquePrefix } from '../support/redis.js';
import { waitFor, WAIT_MS } from '../support/wait.js';

/**
 * Watches live in a worker's memory. A worker that restarts while a swap waits for its deposit
 * (its next API poll spaced out minutes ahead, as while watched) watches the address again at
 * start, so a deposit landing right after the restart is on the card at once.
 */

const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';

describe('a worker restart while swaps wait for their deposits', () => {
  let sandbox: SandboxServer;
  let client: LayerswapClient;
  const clock = new ManualClock();
  const prefix = uniquePrefix('chain-restart');
  const running: Tracking[] = [];

  const worker = async (messenger: RecordingMessenger) => {
    const evm = NETWORKS.filter((x) => x.type === 'evm');
    const tracking = createTracking({
      redis: testRedisUrl(),
      prefix,
      api: client,
      limits: { maxPerChat: 1000, maxPerUser: 1000 },
      cadence: { fastMs: 60_000, slowMs: 60_000, stuckFactor: 4 },
      now: () => clock.now(),
      apiRate: { max: 100_000, duration: 1000 },
      chain: {
        evmRpcs: new Map(evm.map((x) => [x.name, sandbox.chain?.url ?? ''])),
        pollMs: 50,
        network: async (name) => {
          const net = evm.find((x) => x.name === name);
          return net ? { required: net.max_confirmations, chainId: 31337, tokens: net.tokens } : undefined;
        },
      },
    });
    running.push(tracking);
    await tracking.startWorkers({ messengers: { console: messenger }, render: trackingRenderer });
    return tracking;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({
      clock,
      timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 10_000, expiryMs: 3_600_000, refundDelayMs: 10_000 },
      chain: { blockMs: 0, pollMs: 50 },
    });
    client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: WAIT_MS });
  });
  afterAll(async () => {
    for (const t of running) await t.close();
    await client?.close();
    await sandbox?.close();
  });

  it('watches every waiting swap again at start: a deposit right after the restart is on the card', async () => {
    const before = await worker(new RecordingMessenger('console'));
    const swaps: Array<{ id: string; chat: ChatTarget; address: Hex }> = [];
    for (let n = 1; n <= 2; n++) {
      const details = await client.createSwap({
        source_network: 'ARBITRUM_MAINNET',
        source_token: 'USDC',
        destination_network: 'BASE_MAINNET',
        destination_token: 'USDC',
        destination_address: `0x${n.toString(16).padStart(40, 'c')}`,
        amount: 100,
        use_deposit_address: true,
      });
      const chat: ChatTarget = { platform: 'console', chatId: `restart-${n}`, chatKind: 'private' };
      await before.service.follow(details.swap.id, chat, { userId: `u${n}`, creator: true });
      swaps.push({ id: details.swap.id, chat, address: details.deposit_actions?.[0]?.to_address as Hex });
    }
    for (const s of swaps) await waitFor(() => before.swapState(s.id), 'the first poll');
    await before.close();

    const messenger = new RecordingMessenger('console');
    await worker(messenger);
    const url = sandbox.chain?.url ?? '';
    const wallet = createWalletClient({
      account: privateKeyToAccount(sandbox.chain?.fundedKey ?? '0x'),
      chain: {
        id: 31337,
        name: 'local',
        nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      },
      transport: http(url),
    });
    for (const s of swaps) {
      await wallet.writeContract({ address: USDC, abi: TOKEN_ABI, functionName: 'transfer', args: [s.address, parseUnits('100', 6)] });
    }
    for (const s of swaps) {
      await waitFor(
        () =>
          messenger.log.some(
            (r) => r.chatId === s.chat.chatId && JSON.stringify(r.reply).includes('Deposit seen on Arbitrum One: 100 USDC in block'),
          ),
        `the sighting on ${s.chat.chatId}'s card after the restart`,
      );
    }
  });

  it('tells a transfer that lands after the swap expired, though the swap is polled no more', async () => {
    // One worker at a time: the one of the test before stops.
    await running.at(-1)?.close();
    const messenger = new RecordingMessenger('console');
    const late = await worker(messenger);
    const details = await client.createSwap({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: `0x${'d'.repeat(40)}`,
      amount: 100,
      use_deposit_address: true,
    });
    const id = details.swap.id;
    const chat: ChatTarget = { platform: 'console', chatId: 'late', chatKind: 'private' };
    await late.service.follow(id, chat, { userId: 'u-late', creator: true });
    await waitFor(() => late.swapState(id), 'the first poll');
    clock.advance(3_600_001);
    await late.service.pollNow(id);
    await waitFor(async () => (await late.swapState(id))?.status === 'expired', 'the expired status');
    const url = sandbox.chain?.url ?? '';
    const wallet = createWalletClient({
      account: privateKeyToAccount(sandbox.chain?.fundedKey ?? '0x'),
      chain: {
        id: 31337,
        name: 'local',
        nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      },
      transport: http(url),
    });
    await wallet.writeContract({
      address: USDC,
      abi: TOKEN_ABI,
      functionName: 'transfer',
      args: [details.deposit_actions?.[0]?.to_address as Hex, parseUnits('100', 6)],
    });
    await waitFor(
      () => messenger.log.some((r) => r.chatId === 'late' && JSON.stringify(r.reply).includes('It arrived after the swap expired')),
      'the late transfer on the card',
    );
  });

  it('still tells a late transfer when the worker restarted after the swap expired', async () => {
    await running.at(-1)?.close();
    const before = await worker(new RecordingMessenger('console'));
    const details = await client.createSwap({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: `0x${'e'.repeat(40)}`,
      amount: 100,
      use_deposit_address: true,
    });
    const id = details.swap.id;
    const chat: ChatTarget = { platform: 'console', chatId: 'late-restart', chatKind: 'private' };
    await before.service.follow(id, chat, { userId: 'u-late-restart', creator: true });
    await waitFor(() => before.swapState(id), 'the first poll');
    clock.advance(3_600_001);
    await before.service.pollNow(id);
    await waitFor(async () => (await before.swapState(id))?.status === 'expired', 'the expired status');
    // The swap is final: no poll job, not among the active swaps. Only the late list brings its watch back.
    await before.close();
    const messenger = new RecordingMessenger('console');
    await worker(messenger);
    const url = sandbox.chain?.url ?? '';
    const wallet = createWalletClient({
      account: privateKeyToAccount(sandbox.chain?.fundedKey ?? '0x'),
      chain: {
        id: 31337,
        name: 'local',
        nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      },
      transport: http(url),
    });
    await wallet.writeContract({
      address: USDC,
      abi: TOKEN_ABI,
      functionName: 'transfer',
      args: [details.deposit_actions?.[0]?.to_address as Hex, parseUnits('100', 6)],
    });
    const told = await waitFor(
      () => messenger.log.find((r) => r.chatId === 'late-restart' && JSON.stringify(r.reply).includes('It arrived after the swap expired')),
      'the late transfer told by the restarted worker',
    );
    expect(JSON.stringify(told.reply)).toContain('A transfer of 100 USDC reached the deposit address on Arbitrum One');
  });
});

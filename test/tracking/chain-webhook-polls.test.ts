import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingRenderer } from '../../src/bot/renderer.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { NETWORKS } from '../../src/sandbox/catalog.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { testRedisUrl, uniquePrefix } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { sendToken } from '../chain/support/chain-stack.js';
import { RecordingMessenger } from './support/recording-messenger.js';

/**
 * With webhooks trusted and the chain watcher on (issue 38: GET /swaps/{id} per typical swap),
 * the chain tells the deposit and each of its confirmations, and the service's own status
 * changes come with its webhooks: a deposit seen on chain and confirmed to the service's count
 * is on the card with no request to the service beyond the first poll.
 */

const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';

describe('webhooks and the chain watcher: the API only for what the chain cannot tell', () => {
  let sandbox: SandboxServer;
  let client: LayerswapClient;
  let tracking: Tracking;
  const clock = new ManualClock();
  const messenger = new RecordingMessenger('console');
  const polled: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({
      clock,
      timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 10_000, expiryMs: 3_600_000, refundDelayMs: 10_000 },
      chain: { blockMs: 0, pollMs: 50 },
    });
    client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
    // Every request of the poller, by swap.
    const pollSwap = client.pollSwap.bind(client);
    client.pollSwap = (...args) => {
      polled.push(args[0]);
      return pollSwap(...args);
    };
    const evm = NETWORKS.filter((x) => x.type === 'evm');
    tracking = createTracking({
      redis: testRedisUrl(),
      prefix: uniquePrefix('chain-webhooks'),
      api: client,
      limits: { maxPerChat: 1000, maxPerUser: 1000 },
      // The production cadence with webhooks trusted (config defaults).
      cadence: { fastMs: 5_000, slowMs: 20_000, stuckFactor: 4, webhooks: { safetyMs: 300_000, waitingPollMs: 60_000, tailMs: 30_000 } },
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
    await tracking.startWorkers({ messengers: { console: messenger }, render: trackingRenderer });
  });
  afterAll(async () => {
    await tracking?.close();
    await sandbox?.close();
  });

  const cardSays = (chat: string, text: string) => messenger.log.some((r) => r.chatId === chat && JSON.stringify(r.reply).includes(text));

  it('shows the deposit and its confirmations from the chain with no request after the first poll', async () => {
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
    const chat: ChatTarget = { platform: 'console', chatId: 'webhooks-chain', chatKind: 'private' };
    await tracking.service.follow(id, chat, { userId: 'wc', creator: true });
    await waitFor(() => tracking.swapState(id), 'the first poll');
    await sendToken(sandbox, details.deposit_actions?.[0]?.to_address as Hex, '100', USDC);
    await waitFor(() => cardSays(chat.chatId, 'Deposit seen on Arbitrum One: 100 USDC'), 'the deposit on the card');
    // Arbitrum needs 3 (the sandbox's catalogue): two more blocks.
    for (let i = 0; i < 2; i++) {
      await sandbox.chain?.node?.mine(1);
      await waitFor(
        () => cardSays(chat.chatId, `confirming ${i + 2}/3`) || cardSays(chat.chatId, '3/3 confirmations'),
        `confirmation ${i + 2} on the card`,
      );
    }
    await waitFor(() => cardSays(chat.chatId, '3/3 confirmations'), 'the count reached on the card');
    expect(polled.filter((x) => x === id)).toHaveLength(1);
  });
});

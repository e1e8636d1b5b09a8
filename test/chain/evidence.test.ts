import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { swapMoney } from '../../src/bot/money/model.js';
import { sightingOf } from '../../src/contracts/chain.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { NETWORKS } from '../../src/sandbox/catalog.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { SwapStore } from '../../src/tracking/swap-store.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { memoryLogger } from '../support/log.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { startRpcProxy, type RpcProxy } from './support/rpc-proxy.js';
import { chainReader, sendToken } from './support/chain-stack.js';

/**
 * Chain evidence that means money (issue 33), end to end: the sandbox's real local chain behind a
 * JSON-RPC fault proxy, the real tracker, the real renderer. A zero-value or dust transfer of the
 * swap's token (address poisoning) is never "Deposit seen"; a transfer the RPC invents without a
 * receipt is never shown; one a reorganisation takes back is retracted on the card in one sentence
 * and never counted as deposited; noise (another token) edits the card once per swap; with no
 * required count the card is not edited at every new block; after expiry only a late transfer
 * of real value edits the card, once.
 */

const USDC_ARB = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
const USDT0_ARB = '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9';
const BASE_USDC = NETWORKS.find((x) => x.name === 'BASE_MAINNET')?.tokens.find((t) => t.symbol === 'USDC')?.contract ?? '';

describe('chain evidence that means money', () => {
  let sandbox: SandboxServer;
  let tracking: Tracking;
  let rpc: RpcProxy;
  let client: LayerswapClient;
  const messenger = new RecordingMessenger('console');
  const clock = new ManualClock();
  const log = memoryLogger();
  const prefix = uniquePrefix('evidence');
  const store = new SwapStore(testRedis(), new TrackingKeys(prefix));
  let n = 0;

  beforeAll(async () => {
    sandbox = await startSandbox({
      clock,
      timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 10_000, expiryMs: 3_600_000, refundDelayMs: 10_000 },
      chain: { blockMs: 0, pollMs: 50 },
    });
    rpc = await startRpcProxy(sandbox.chain?.url ?? '');
    client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: 5_000 });
    const evm = NETWORKS.filter((x) => x.type === 'evm');
    tracking = createTracking({
      redis: testRedisUrl(),
      prefix,
      api: client,
      limits: { maxPerChat: 1000, maxPerUser: 1000 },
      cadence: { fastMs: 30_000, slowMs: 30_000, stuckFactor: 4 },
      now: () => clock.now(),
      apiRate: { max: 100_000, duration: 1000 },
      logger: log.logger,
      chain: {
        evmRpcs: new Map(evm.map((x) => [x.name, rpc.url])),
        pollMs: 50,
        network: async (name) => {
          const net = evm.find((x) => x.name === name);
          // Base: a network whose catalogue has no confirmation count.
          if (!net) return undefined;
          return { ...(name === 'BASE_MAINNET' ? {} : { required: net.max_confirmations }), chainId: 31337, tokens: net.tokens };
        },
      },
    });
    await tracking.startWorkers({ messengers: { console: messenger }, render: trackingRenderer });
  });
  afterAll(async () => {
    await tracking?.close();
    await sandbox?.close();
    await rpc?.close({ force: true });
  });

  const publicClient = () => chainReader(sandbox);
  const send = (contract: string, to: Hex, amount: string) => sendToken(sandbox, to, amount, contract as Hex);

  async function followedSwap(from = 'ARBITRUM_MAINNET', amount = 100) {
    n++;
    const details = await client.createSwap({
      source_network: from,
      source_token: 'USDC',
      destination_network: from === 'BASE_MAINNET' ? 'ARBITRUM_MAINNET' : 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: `0x${n.toString(16).padStart(40, 'b')}`,
      amount,
      use_deposit_address: true,
    });
    const address = details.deposit_actions?.[0]?.to_address as Hex;
    const chat: ChatTarget = { platform: 'console', chatId: `ev-${n}`, chatKind: 'private' };
    await tracking.service.follow(details.swap.id, chat, { userId: `ev${n}`, creator: true });
    await waitFor(() => tracking.swapState(details.swap.id), 'the first poll');
    // The watch starts after the first poll's commit: the watcher has read a block since.
    const at = rpc.scannedTo;
    await sandbox.chain?.node?.mine(1);
    await waitFor(() => rpc.scannedTo > at, 'the watcher reading a block with the swap watched');
    return { id: details.swap.id, chat, address };
  }
  const cards = (chatId: string) =>
    messenger.log.filter((r) => r.chatId === chatId && r.op !== 'react').map((r) => JSON.stringify(r.reply));
  const isCard = (c: string) => c.startsWith('{"title":"Swap ');
  const latest = (chatId: string) =>
    cards(chatId)
      .filter((c) => c.startsWith('{"title":"Swap '))
      .at(-1) ?? '';
  /** Mines a block and waits until the bot's watcher has read it. */
  const mined = async () => {
    await sandbox.chain?.node?.mine(1);
    const head = Number(await publicClient().getBlockNumber());
    await waitFor(() => rpc.scannedTo >= head, 'the watcher reading the new block');
  };
  const stored = async (id: string) => {
    const d = await store.details(id);
    return d ? { sighting: sightingOf(d), money: swapMoney(d, clock.now()) } : undefined;
  };

  it('a zero-value or dust transfer of the swap token (address poisoning) is never the deposit', async () => {
    const { id, chat, address } = await followedSwap();
    await send(USDC_ARB, address, '0');
    await waitFor(() => log.lines.some((l) => l.includes('a dust transfer reached a deposit address')), 'the dust noted once');
    // Dust that a receipt backs (one base unit) is no more a deposit than the zero-value one.
    await rpc.invent({ contract: USDC_ARB, to: address, value: 1n, receipt: true });
    await mined();
    await mined();
    expect(cards(chat.chatId).join('\n')).not.toContain('Deposit seen');
    expect((await stored(id))?.sighting).toBeUndefined();
    expect(log.lines.filter((l) => l.includes('a dust transfer reached a deposit address'))).toHaveLength(1);
  });

  it('a transfer the RPC invents without a receipt is never shown', async () => {
    const { id, chat, address } = await followedSwap();
    await rpc.invent({ contract: USDC_ARB, to: address, value: 100_000_000n });
    // Its block and three more: a receipt is asked for at each, and never comes.
    for (let i = 0; i < 4; i++) await mined();
    await waitFor(() => log.lines.some((l) => l.includes('has no receipt to back it')), 'the invented transfer refused');
    expect(cards(chat.chatId).join('\n')).not.toContain('Deposit seen');
    expect((await stored(id))?.money.deposited).toBeUndefined();
  });

  it('a sighting a reorganisation takes back is retracted on the card and never deposited', async () => {
    const { id, chat, address } = await followedSwap();
    const tx = await rpc.invent({ contract: USDC_ARB, to: address, value: 100_000_000n, receipt: true });
    await mined();
    await waitFor(() => latest(chat.chatId).includes('Deposit seen on Arbitrum One: 100 USDC in block'), 'the sighting on the card');
    rpc.reorg(tx);
    await mined();
    const retracted = await waitFor(
      () => cards(chat.chatId).find((c) => c.includes('is no longer on the chain')),
      'the sighting taken back on the card',
    );
    expect(retracted).toContain('The transfer of 100 USDC seen on Arbitrum One in block');
    expect(retracted).toContain('so it is not counted as your deposit.');
    expect(retracted).not.toContain('Deposit seen on');
    const s = await stored(id);
    expect(s?.sighting?.verdict).toBe('retracted');
    expect(s?.money.deposited).toBeUndefined();
    expect(s?.money.next).toBe('send');
  });

  it('deposits confirming together are re-checked by one eth_getLogs per block, not a receipt each; one a reorganisation takes back is still retracted', async () => {
    // Base: no required count, so 12 blocks before a sighting is final.
    const swaps = [];
    for (let i = 0; i < 3; i++) swaps.push(await followedSwap('BASE_MAINNET', 40 + i));
    const txs: Hex[] = [];
    for (const [i, s] of swaps.entries())
      txs.push(await rpc.invent({ contract: BASE_USDC, to: s.address, value: BigInt(40 + i) * 1_000_000n, receipt: true }));
    await mined();
    for (const [i, s] of swaps.entries())
      await waitFor(() => latest(s.chat.chatId).includes(`Deposit seen on Base: ${40 + i} USDC`), 'each sighting on its card');
    const asked = () => txs.map((tx) => rpc.receipts.get(tx.toLowerCase()) ?? 0);
    const before = asked();
    expect(before.every((n) => n > 0)).toBe(true);
    for (let i = 0; i < 4; i++) await mined();
    // Three new heads checked (the fourth's check may still be running): no receipt asked again.
    expect(asked()).toEqual(before);

    rpc.reorg(txs[1] as Hex);
    await mined();
    const [kept1, gone, kept2] = swaps.map((s) => s.chat.chatId) as [string, string, string];
    await waitFor(() => cards(gone).some((c) => c.includes('is no longer on the chain')), 'the one taken back retracted');
    expect((asked()[1] ?? 0) > (before[1] ?? 0)).toBe(true);
    for (const chatId of [kept1, kept2]) {
      expect(cards(chatId).join('\n')).not.toContain('is no longer on the chain');
      expect(latest(chatId)).toContain('Deposit seen on Base');
    }
  });

  it('another token edits the card once per swap, not at every transfer', async () => {
    const { chat, address } = await followedSwap();
    for (let i = 0; i < 3; i++) {
      await send(USDT0_ARB, address, '5');
      await mined();
    }
    // Then the real deposit: everything before it was read.
    await send(USDC_ARB, address, '100');
    // Any card, not only the latest: the service may list the deposit at once, and its card no longer shows the chain's line.
    await waitFor(
      () => cards(chat.chatId).some((c) => isCard(c) && c.includes('Deposit seen on Arbitrum One: 100 USDC')),
      'the real deposit on the card',
    );
    // Told once on the card, and once as a message of its own (money the swap cannot take, issue 32).
    const told = cards(chat.chatId).filter((c) => c.includes('A transfer of 5 USDT0'));
    expect(new Set(told.filter(isCard)).size).toBe(1);
    expect(told.filter((c) => !isCard(c))).toHaveLength(1);
  });

  it('with no required count, the card is not edited at every new block', async () => {
    const { chat, address } = await followedSwap('BASE_MAINNET', 30);
    const tx = await rpc.invent({ contract: BASE_USDC, to: address, value: 30_000_000n, receipt: true });
    await mined();
    await waitFor(() => latest(chat.chatId).includes('confirmations so far: 1'), 'the sighting with its count so far');
    for (let i = 0; i < 3; i++) await mined();
    // A last change that is shown: anything the new blocks edited came before it.
    rpc.reorg(tx);
    await mined();
    await waitFor(() => cards(chat.chatId).some((c) => c.includes('is no longer on the chain')), 'the retraction');
    expect(cards(chat.chatId).filter((c) => /confirmations so far: [2-9]/.test(c))).toEqual([]);
  });

  it('after expiry only a late transfer of real value edits the card, once', async () => {
    const { id, chat, address } = await followedSwap();
    clock.advance(3_600_001);
    await tracking.service.pollNow(id);
    await waitFor(async () => (await tracking.swapState(id))?.status === 'expired', 'the swap expired');
    await waitFor(() => /expired/i.test(latest(chat.chatId)), 'the expired card');
    const closedAt = cards(chat.chatId).length;
    await send(USDT0_ARB, address, '100');
    await mined();
    await send(USDC_ARB, address, '0');
    await mined();
    await send(USDC_ARB, address, '50');
    await mined();
    await waitFor(
      () =>
        cards(chat.chatId)
          .slice(closedAt)
          .some((c) => c.includes('It arrived after the swap expired')),
      'the late transfer told',
    );
    await send(USDC_ARB, address, '60');
    await mined();
    await mined();
    const after = cards(chat.chatId).slice(closedAt);
    // The watch learns of the closure from the poll job: a transfer in the first block after it may still be read
    // as the open swap's wrong token. Then it is told once (card and message), never again at later blocks.
    const otherToken = after.filter((c) => c.includes('USDT0'));
    expect(new Set(otherToken.filter(isCard)).size).toBeLessThanOrEqual(1);
    expect(otherToken.filter((c) => !isCard(c)).length).toBeLessThanOrEqual(1);
    // One card edit and one message of its own for the late transfer, nothing more.
    const late = after.filter((c) => c.includes('It arrived after the swap expired'));
    expect(late.filter(isCard)).toHaveLength(1);
    expect(late.filter((c) => !isCard(c))).toHaveLength(1);
    expect(after.join('\n')).not.toContain('60 USDC');
  });
});

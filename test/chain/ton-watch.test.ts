import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';
import type { SandboxTon } from '../../src/sandbox/ton-chain.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { testRedisUrl, uniquePrefix } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import { TON_USDT_MASTER } from '../fixtures/ton.js';
import { depositCards } from '../../src/bot/deposit/card.js';
import { raw } from '../sandbox/support.js';

/**
 * TON deposits seen on chain, end to end over real sockets: the sandbox with --chain runs TON on
 * the TON emulator behind toncenter's API v2; the bot's tracking (real Redis, real BullMQ) watches
 * the swap's shared deposit address through CHAIN_RPC_URLS=TON_MAINNET=<that RPC> and matches
 * transfers by the comment the swap's deposit action asks for. USDT is the standard jetton at the
 * catalogue's master address; its transfers reach the deposit address as transfer_notifications.
 */

describe('a TON swap watched on chain', () => {
  let sandbox: SandboxServer;
  let client: LayerswapClient;
  let ton: SandboxTon;
  let tracking: Tracking;
  const messenger = new RecordingMessenger('console');
  const prefix = uniquePrefix('ton-watch');

  beforeAll(async () => {
    sandbox = await startSandbox({ timings: { depositDelayMs: 'off' }, chain: { blockMs: 0, pollMs: 50 } });
    client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
    ton = sandbox.chain?.ton?.ton as SandboxTon;
    tracking = createTracking({
      redis: testRedisUrl(),
      prefix,
      api: client,
      limits: { maxPerChat: 100, maxPerUser: 100 },
      cadence: { fastMs: 60_000, slowMs: 60_000, stuckFactor: 4 },
      apiRate: { max: 100_000, duration: 1000 },
      chain: {
        // CHAIN_RPC_URLS=TON_MAINNET=<the sandbox's toncenter-shaped RPC>
        evmRpcs: new Map([['TON_MAINNET', ton.url]]),
        pollMs: 50,
        network: async (name) =>
          name === 'TON_MAINNET'
            ? {
                family: 'ton',
                required: 1,
                tokens: [
                  { symbol: 'TON', contract: null, decimals: 9 },
                  { symbol: 'USDT', contract: TON_USDT_MASTER.toLowerCase(), decimals: 6 },
                ],
              }
            : undefined,
      },
    });
    await tracking.startWorkers({ messengers: { console: messenger }, render: trackingRenderer });
  });
  afterAll(async () => {
    await tracking?.close();
    await client?.close();
    await sandbox?.close();
  });

  /** A 25.5 USDT swap from TON, followed in its own chat: its id, deposit address and comment. */
  const follow = async (chatId: string, sourceAddress?: string) => {
    const details = await client.createSwap({
      source_network: 'TON_MAINNET',
      source_token: 'USDT',
      destination_network: 'OPTIMISM_MAINNET',
      destination_token: 'USDT',
      destination_address: '0x3333333333333333333333333333333333333333',
      amount: 25.5,
      ...(sourceAddress ? { source_address: sourceAddress } : {}),
    });
    const action = details.deposit_actions?.[0];
    expect(action?.type).toBe('transfer');
    // Layerswap's TON call data: {amount, asset, comment}.
    const comment = (JSON.parse(action?.call_data ?? '{}') as { comment: string }).comment;
    expect(JSON.parse(action?.call_data ?? '{}')).toEqual({ amount: '25500000', asset: 'USDT', comment });
    // The deposit card gives the comment as part of the money instruction, never the address alone.
    const card = JSON.stringify(await depositCards(details, Date.now()));
    expect(card).toContain('Comment (memo)');
    expect(card).toContain(comment);
    expect(card).toContain('Without it the deposit cannot be matched and is lost.');
    const chat: ChatTarget = { platform: 'console', chatId, chatKind: 'private' };
    await tracking.service.follow(details.swap.id, chat, { userId: `u-${chatId}`, creator: true });
    await waitFor(() => tracking.swapState(details.swap.id), 'the first poll');
    return { id: details.swap.id, address: action?.to_address as string, comment };
  };
  const said = (chatId: string, text: string) => messenger.log.some((r) => r.chatId === chatId && JSON.stringify(r.reply).includes(text));

  it('a USDT deposit with the right comment: "Deposit seen on Ton: 25.5 USDT" at once, then the service takes it', async () => {
    const swap = await follow('right');
    await ton.send(swap.address, { contract: TON_USDT_MASTER }, 25_500_000n, swap.comment);
    await waitFor(() => said('right', 'Deposit seen on Ton: 25.5 USDT in block'), 'the deposit seen on chain');
    // The sandbox's service matched it by its comment too: the swap leaves the waiting phase.
    await waitFor(async () => (await client.getSwap(swap.id)).swap.transactions.some((x) => x.type === 'input'), 'the service seeing it');
    expect(said('right', 'sent without the memo')).toBe(false);
  });

  it('without the comment: told at once, never counted as the deposit; the right one later still is', async () => {
    const swap = await follow('nomemo');
    // The sandbox's control for it: the amount sent for real to the shared address, no comment.
    const res = await raw(sandbox.url, `/sandbox/swaps/${swap.id}/deposit`, { key: sandbox.apiKey, method: 'POST', body: { memo: false } });
    expect(res.status).toBe(200);
    await waitFor(() => said('nomemo', 'It was sent without the memo: contact Layerswap support with this hash.'), 'the missing memo told');
    expect(said('nomemo', 'Deposit seen on')).toBe(false);
    const now = await client.getSwap(swap.id);
    expect(now.swap.status).toBe('user_transfer_pending');
    expect(now.swap.transactions.some((x) => x.type === 'input')).toBe(false);
    // Then the user sends it again with the comment: that one is the deposit.
    await ton.send(swap.address, { contract: TON_USDT_MASTER }, 25_500_000n, swap.comment);
    await waitFor(() => said('nomemo', 'Deposit seen on Ton: 25.5 USDT in block'), 'the deposit with its comment seen');
  });

  it("another swap's transfers to the shared address are not this swap's business; a wrong comment from its own sender is told", async () => {
    const swap = await follow('wrongmemo', ton.fundedAddress);
    const other = await follow('bystander');
    // The other swap's deposit (its comment) reaches the same shared address: nothing for this swap.
    await ton.send(other.address, { contract: TON_USDT_MASTER }, 25_500_000n, other.comment);
    await waitFor(() => said('bystander', 'Deposit seen on Ton: 25.5 USDT'), "the other swap's deposit seen");
    // This swap's sender (its source_address) sends with a comment that is no swap's.
    await ton.send(swap.address, { contract: TON_USDT_MASTER }, 25_500_000n, 'not-the-comment');
    await waitFor(() => said('wrongmemo', 'sent without the memo'), 'the wrong memo told');
    expect(said('wrongmemo', 'Deposit seen on')).toBe(false);
  });

  it('another token with the comment: told as a wrong token, as on EVM', async () => {
    const swap = await follow('wrongtoken');
    const res = await raw(sandbox.url, `/sandbox/swaps/${swap.id}/deposit`, {
      key: sandbox.apiKey,
      method: 'POST',
      body: { token: 'TON', amount: 2 },
    });
    expect(res.status).toBe(200);
    await waitFor(() => said('wrongtoken', 'A transfer of 2 TON reached the deposit address on Ton'), 'the wrong token told');
    expect(said('wrongtoken', 'Deposit seen on')).toBe(false);
  });
});

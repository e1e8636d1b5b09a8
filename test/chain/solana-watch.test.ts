import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solanaGenesis } from '../../src/chain/solana/watcher.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { testRedisUrl, uniquePrefix } from '../support/redis.js';
import { raw } from '../sandbox/support.js';
import { waitFor } from '../support/wait.js';

/**
 * A bot (tracking, real Redis) watching the sandbox's Solana network on its local chain (LiteSVM
 * behind JSON-RPC, real sockets), found as a bot with CHAIN_WATCH=auto finds it: the catalogue's
 * node_url and its genesis hash as chain_id. The sandbox's deposits are real transfers: SOL to
 * the deposit address, USDC into its associated token account, USDT (another mint) as money the
 * swap cannot take.
 */

describe('deposits on Solana seen on chain', () => {
  let sandbox: SandboxServer;
  let client: LayerswapClient;
  let tracking: Tracking;
  const messenger = new RecordingMessenger('console');
  const said = (chatId: string, text: string) => messenger.log.some((r) => r.chatId === chatId && JSON.stringify(r.reply).includes(text));

  beforeAll(async () => {
    sandbox = await startSandbox({
      timings: { depositDelayMs: 'off', confirmationIntervalMs: 60_000 },
      // No block on a timer: a block comes with each transfer, and the tests add the rest, so what a
      // card says of the confirmations does not race a busy machine.
      chain: { blockMs: 0, pollMs: 50 },
    });
    client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
    const catalogue = async (name: string) => (await client.getNetworks()).find((n) => n.name === name);
    tracking = createTracking({
      redis: testRedisUrl(),
      prefix: uniquePrefix('solana-watch'),
      api: client,
      limits: { maxPerChat: 100, maxPerUser: 100 },
      // API polls seconds apart: what the card says of the deposit comes from the chain, in well under one.
      cadence: { fastMs: 5_000, slowMs: 5_000, stuckFactor: 4 },
      apiRate: { max: 100_000, duration: 1000 },
      chain: {
        evmRpcs: new Map(),
        fallbackRpc: async (name) => (await catalogue(name))?.node_url ?? undefined,
        pollMs: 100,
        network: async (name) => {
          const n = await catalogue(name);
          if (!n) return undefined;
          const genesisHash = solanaGenesis(n.name, n.chain_id);
          return {
            required: 3,
            family: n.type ?? undefined,
            ...(genesisHash ? { genesisHash } : {}),
            tokens: n.tokens.map((t) => ({ symbol: t.symbol, contract: t.contract ?? null, decimals: t.decimals ?? 9 })),
          };
        },
      },
    });
    await tracking.startWorkers({ messengers: { console: messenger }, render: trackingRenderer });
  });
  afterAll(async () => {
    await tracking?.close();
    await client?.close();
    await sandbox?.close();
  });

  const follow = async (chatId: string, token: string, amount: number) => {
    const details = await client.createSwap({
      source_network: 'SOLANA_MAINNET',
      source_token: token,
      destination_network: 'ARBITRUM_MAINNET',
      destination_token: token === 'SOL' ? 'ETH' : token,
      destination_address: '0x2222222222222222222222222222222222222222',
      amount,
      use_deposit_address: true,
      // SOL to ETH goes through a swap provider: the sandbox asks where a refund would go.
      refund_address: sandbox.solana?.fundedAddress ?? '',
    });
    const chat: ChatTarget = { platform: 'console', chatId, chatKind: 'private' };
    await tracking.service.follow(details.swap.id, chat, { userId: `u-${chatId}`, creator: true });
    await waitFor(() => tracking.swapState(details.swap.id), 'the first poll');
    return { id: details.swap.id, address: details.deposit_actions?.[0]?.to_address ?? '' };
  };
  const deposit = (id: string, body: Record<string, unknown> = {}) =>
    raw(sandbox.url, `/sandbox/swaps/${id}/deposit`, { key: sandbox.apiKey, method: 'POST', body });

  it('names its local Solana chain in the catalogue, with a real Solana deposit address', async () => {
    const sol = (await client.getNetworks()).find((n) => n.name === 'SOLANA_MAINNET');
    expect(sol?.node_url).toBe(sandbox.solana?.url);
    expect(sol?.chain_id).toBe(sandbox.solana?.genesisHash);
    const { address } = await follow('addr', 'USDC', 10);
    expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  });

  it('a SOL deposit: the card says it was seen on Solana, with its amount and confirmations', async () => {
    const { id } = await follow('sol', 'SOL', 1.5);
    expect((await deposit(id)).status).toBe(200);
    await waitFor(() => said('sol', 'Deposit seen on Solana: 1.5 SOL in block'), 'the SOL deposit on the card');
    expect(messenger.log.some((r) => /1\.5 SOL in block \d+, confirming [12]\/3\./.test(JSON.stringify(r.reply)))).toBe(true);
    // The service's own count (its input transaction's, 2 here) then takes over, and the swap completes as blocks come.
    const local = sandbox.solana?.local;
    const blocks = setInterval(() => local?.mine(1), 400);
    try {
      await waitFor(() => said('sol', 'Swap completed'), 'the swap completed');
    } finally {
      clearInterval(blocks);
    }
    expect(said('sol', '2/2')).toBe(true);
  });

  it('a USDC (SPL) deposit into the deposit address’s token account is seen as the deposit', async () => {
    const { id } = await follow('usdc', 'USDC', 100);
    expect((await deposit(id)).status).toBe(200);
    await waitFor(() => said('usdc', 'Deposit seen on Solana: 100 USDC in block'), 'the USDC deposit on the card');
  });

  it('another mint (USDT to a USDC swap) is told as money the swap cannot take', async () => {
    const { id } = await follow('wrong', 'USDC', 100);
    expect((await deposit(id, { token: 'USDT', amount: 50 })).status).toBe(200);
    await waitFor(() => said('wrong', 'A transfer of 50 USDT reached the deposit address on Solana (block'), 'the wrong token on the card');
    expect(said('wrong', 'but this swap expects 100 USDC')).toBe(true);
    expect(said('wrong', 'Deposit seen on Solana')).toBe(false);
  });
});

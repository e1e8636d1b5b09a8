import { createPublicClient, http, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_ABI } from '../../src/chain/local-node.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';
import { CONSOLE_SWAP_SCRIPT, runCli } from '../support/cli.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { raw } from '../sandbox/support.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { createTracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { waitFor } from '../support/wait.js';

/**
 * The sandbox on a real chain as a developer drives it: its deposit endpoint sends a real ERC-20
 * transfer to the swap's deposit address, and `SANDBOX_CHAIN=1 swapbot console` (the built CLI,
 * piped input) shows the simulated deposit, a real transfer, seen on chain, then completion.
 */

const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';

describe('the sandbox on a real local chain', () => {
  let sandbox: SandboxServer;
  let client: LayerswapClient;
  beforeAll(async () => {
    sandbox = await startSandbox({ timings: { depositDelayMs: 'off' }, chain: { blockMs: 0, pollMs: 50 } });
    client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  it('POST /sandbox/swaps/{id}/deposit sends a real transfer, which the swap then shows', async () => {
    const details = await client.createSwap({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: '0x1111111111111111111111111111111111111111',
      amount: 100,
      use_deposit_address: true,
    });
    const id = details.swap.id;
    const address = details.deposit_actions?.[0]?.to_address as Hex;
    const res = await raw(sandbox.url, `/sandbox/swaps/${id}/deposit`, { key: sandbox.apiKey, method: 'POST', body: {} });
    expect(res.status).toBe(200);
    const pub = createPublicClient({ cacheTime: 0, transport: http(sandbox.chain?.url ?? '') });
    const balance = await pub.readContract({ address: USDC, abi: TOKEN_ABI, functionName: 'balanceOf', args: [address] });
    expect(balance).toBe(100_000_000n);
    const input = await waitFor(
      async () => (await client.getSwap(id)).swap.transactions.find((x) => x.type === 'input'),
      'the swap showing the deposit',
    );
    const tx = await pub.getTransactionReceipt({ hash: input.transaction_hash as Hex });
    expect(tx.to?.toLowerCase()).toBe(USDC);
    // A deposit the swap cannot take is refused as before, with nothing sent.
    const again = await raw(sandbox.url, `/sandbox/swaps/${id}/deposit`, { key: sandbox.apiKey, method: 'POST', body: {} });
    expect(again.status).toBe(409);
    expect(await pub.readContract({ address: USDC, abi: TOKEN_ABI, functionName: 'balanceOf', args: [address] })).toBe(100_000_000n);
  });

  it("names its chain as its EVM networks' node_url: a bot with CHAIN_WATCH=auto pointed at it watches that chain", async () => {
    const networks = await client.getNetworks();
    expect(networks.find((n) => n.name === 'ARBITRUM_MAINNET')?.node_url).toBe(sandbox.chain?.url);
    // And its chain id, which the watcher checks its RPC against (eth_chainId).
    const chainId = Number(networks.find((n) => n.name === 'ARBITRUM_MAINNET')?.chain_id);
    expect(chainId).toBe(sandbox.chain?.chainId);
    // Its Solana network on its local Solana chain (solana-watch.test.ts); a network it runs no chain for keeps the public node.
    expect(networks.find((n) => n.name === 'SOLANA_MAINNET')?.node_url).toBe(sandbox.solana?.url);
    expect(networks.find((n) => n.name === 'STARKNET_MAINNET')?.node_url).toBe('https://starknet-mainnet.public.blastapi.io');
    // Without --chain the catalogue keeps the public nodes (which the watcher finds unreachable offline: unreachable.test.ts).
    const plain = await startSandbox({ timings: { depositDelayMs: 'off' } });
    try {
      const c = new LayerswapClient({ baseUrl: plain.url, apiKey: plain.apiKey, maxRetries: 0 });
      const arb = (await c.getNetworks()).find((n) => n.name === 'ARBITRUM_MAINNET');
      expect(arb?.node_url).toBe('https://arb1.arbitrum.io/rpc');
      expect(arb?.chain_id).toBe('42161');
      await c.close();
    } finally {
      await plain.close();
    }
    // The bot's side of CHAIN_WATCH=auto: no CHAIN_RPC_URLS, the RPC found in the catalogue.
    const prefix = uniquePrefix('chain-auto');
    const messenger = new RecordingMessenger('console');
    const tracking = createTracking({
      redis: testRedisUrl(),
      prefix,
      api: client,
      limits: { maxPerChat: 100, maxPerUser: 100 },
      cadence: { fastMs: 60_000, slowMs: 60_000, stuckFactor: 4 },
      apiRate: { max: 100_000, duration: 1000 },
      chain: {
        evmRpcs: new Map(),
        fallbackRpc: async (name) => (await client.getNetworks()).find((n) => n.name === name && n.type === 'evm')?.node_url ?? undefined,
        pollMs: 50,
        network: async () => ({ required: 3, chainId, tokens: [] }),
      },
    });
    try {
      await tracking.startWorkers({ messengers: { console: messenger }, render: trackingRenderer });
      const details = await client.createSwap({
        source_network: 'ARBITRUM_MAINNET',
        source_token: 'USDC',
        destination_network: 'BASE_MAINNET',
        destination_token: 'USDC',
        destination_address: '0x2222222222222222222222222222222222222222',
        amount: 100,
        use_deposit_address: true,
      });
      const chat: ChatTarget = { platform: 'console', chatId: 'auto', chatKind: 'private' };
      await tracking.service.follow(details.swap.id, chat, { userId: 'u-auto', creator: true });
      await waitFor(() => tracking.swapState(details.swap.id), 'the first poll');
      await raw(sandbox.url, `/sandbox/swaps/${details.swap.id}/deposit`, { key: sandbox.apiKey, method: 'POST', body: {} });
      await waitFor(
        () =>
          messenger.log.some(
            (r) => r.chatId === 'auto' && JSON.stringify(r.reply).includes('Deposit seen on Arbitrum One: 100 USDC in block'),
          ),
        "the deposit seen through the catalogue's node_url",
      );
    } finally {
      await tracking.close();
    }
  });
});

describe('SANDBOX_CHAIN=1 swapbot console', () => {
  const prefix = uniquePrefix('console-chain');
  testRedis(prefix);

  it('shows the simulated deposit as a real transfer seen on chain, with its block, then completion', async () => {
    const { code, stdout, stderr } = await runCli(['console'], `${CONSOLE_SWAP_SCRIPT}\n`, {
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      SANDBOX_CHAIN: '1',
      // The sandbox pays a second (real) after the swap is made: at 300 ms (75 ms real) a loaded
      // machine printed the chain's "Deposit seen" before the deposit card that says where to send.
      SANDBOX_DEPOSIT_DELAY_MS: '4000',
      SANDBOX_SPEED: '4',
      // The sandbox's service lists the deposit 30 s (sandbox time) after its block, as the real
      // one takes a while to index it: until then only the bot's own chain watch shows it.
      SANDBOX_CHAIN_PICKUP_MS: '30000',
    });
    expect(stderr).not.toMatch(/error/i);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^chain rpc: http:\/\/127\.0\.0\.1:\d+$/m);
    expect(stdout).toMatch(/^chain funded key: 0x[0-9a-f]{64}$/m);
    const deposit = stdout.indexOf('Send exactly 100 USDC on Arbitrum One');
    const seen =
      /Deposit seen on Arbitrum One: 100 USDC in block [\d,]+, (confirming \d\/3|3\/3 confirmations|confirmations so far: \d+)\./.exec(
        stdout,
      );
    // The catalogue has no confirmation count: none is made up (it was "1/1 confirmations").
    expect(stdout).not.toMatch(/Deposit seen on [^\n]*1\/1 confirmations/);
    expect(seen, stdout).not.toBeNull();
    expect(seen?.index).toBeGreaterThan(deposit);
    expect(stdout.indexOf('Swap completed', seen?.index)).toBeGreaterThan(0);
  });
});

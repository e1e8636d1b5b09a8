import { createServer, request as httpRequest } from 'node:http';
import { parseUnits, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { TOKEN_ABI } from '../../src/chain/local-node.js';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { listen, type Listening } from '../../src/http.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { NETWORKS } from '../../src/sandbox/catalog.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { testRedisUrl, uniquePrefix } from '../support/redis.js';
import { waitFor, WAIT_MS } from '../support/wait.js';
import { chainWallet } from './support/chain-stack.js';

/**
 * The chain watcher end to end on a real local EVM node (EDR, started by the sandbox): a deposit
 * sent as a real ERC-20 or native transfer is on the status card before another block is mined;
 * a wrong token and a wrong amount are told; an RPC that dies mid-swap falls back to polling.
 */

const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
const USDT0 = '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9';

/** A JSON-RPC proxy that can die (the bot's RPC provider going away mid-swap). */
async function proxy(target: string): Promise<Listening> {
  const server = createServer((req, res) => {
    const out = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return listen(server, { port: 0, host: '127.0.0.1' });
}

describe('chain watcher on a real local EVM node', () => {
  let sandbox: SandboxServer;
  let tracking: Tracking;
  let rpc: Listening;
  let client: LayerswapClient;
  const messenger = new RecordingMessenger('console');
  const clock = new ManualClock();
  const PICKUP_MS = 1_000;
  let n = 0;

  beforeAll(async () => {
    sandbox = await startSandbox({
      clock,
      // The service lists a deposit a second (sandbox clock) after its block, as the real one lists it
      // late: until a test moves the clock, only the bot's own chain watch has seen it.
      timings: {
        depositDelayMs: 'off',
        confirmationIntervalMs: 10_000,
        payoutDelayMs: 10_000,
        expiryMs: 3_600_000,
        refundDelayMs: 10_000,
        chainPickupMs: PICKUP_MS,
      },
      chain: { blockMs: 0, pollMs: 50 },
    });
    const chainUrl = sandbox.chain?.url ?? '';
    rpc = await proxy(chainUrl);
    client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: WAIT_MS });
    const evm = NETWORKS.filter((x) => x.type === 'evm');
    tracking = createTracking({
      redis: testRedisUrl(),
      prefix: uniquePrefix('chain'),
      api: client,
      limits: { maxPerChat: 1000, maxPerUser: 1000 },
      // Slow API polls: what the card shows first comes from the chain.
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
  });
  afterAll(async () => {
    await tracking?.close();
    await sandbox?.close();
    await rpc?.close({ force: true });
  });

  const wallet = () => chainWallet(sandbox.chain);

  /** A followed swap from Arbitrum; returns its id, chat and deposit address. */
  async function followedSwap(token: 'USDC' | 'ETH', amount: number) {
    n++;
    const details = await client.createSwap({
      source_network: 'ARBITRUM_MAINNET',
      source_token: token,
      destination_network: 'BASE_MAINNET',
      destination_token: token,
      destination_address: `0x${n.toString(16).padStart(40, 'a')}`,
      amount,
      use_deposit_address: true,
    });
    const address = details.deposit_actions?.[0]?.to_address as Hex;
    const chat: ChatTarget = { platform: 'console', chatId: `chat-${n}`, chatKind: 'private' };
    await tracking.service.follow(details.swap.id, chat, { userId: `u${n}`, creator: true });
    // The first poll reads the deposit address; the watch starts with it.
    await waitFor(() => tracking.swapState(details.swap.id), 'the first poll');
    return { id: details.swap.id, chat, address };
  }
  const cards = (chatId: string) =>
    messenger.log.filter((r) => r.chatId === chatId && r.op !== 'react').map((r) => JSON.stringify(r.reply));
  // The status card as it stands: the deposit card ("Deposit received") and the moments ("Swap
  // expired") are messages of their own, sent from the same poll in either order.
  const latest = (chatId: string) =>
    JSON.stringify(messenger.log.filter((r) => r.chatId === chatId && r.op !== 'react' && r.reply.layout === 'card').at(-1)?.reply ?? '');

  const sendToken = async (contract: string, to: Hex, amount: string) => {
    const w = wallet();
    const hash = await w.writeContract({
      address: contract as Hex,
      abi: TOKEN_ABI,
      functionName: 'transfer',
      args: [to, parseUnits(amount, 6)],
    });
    return hash;
  };

  it('shows an ERC-20 deposit in the block it landed in, before another block, then its confirmations from the chain head', async () => {
    const { chat, address } = await followedSwap('USDC', 100);
    await sendToken(USDC, address, '100');
    const head = sandbox.chain?.head() ?? 0;
    const seen = await waitFor(
      () => latest(chat.chatId).match(/Deposit seen on Arbitrum One: 100 USDC in block ([\d,]+), confirming 1\/3/),
      'the chain sighting on the card',
    );
    // No block was mined after the transfer: the card shows it within that block.
    expect(Number(seen[1]?.replace(/,/g, ''))).toBeGreaterThanOrEqual(head);
    // The "Deposit seen" message goes with the chain's sighting: network, amount, block, confirmations.
    const moment = await waitFor(() => cards(chat.chatId).find((c) => c.startsWith('{"title":"Deposit seen"')), 'the Deposit seen message');
    expect(moment).toContain(`Deposit seen on Arbitrum One: 100 USDC in block ${seen[1] ?? ''}, confirming 1/3`);
    expect(moment).toContain('We saw your deposit of 100 USDC.');
    await sandbox.chain?.node?.mine(1);
    await waitFor(() => latest(chat.chatId).includes('confirming 2/3'), 'the second confirmation from the chain head');
  });

  it('shows the deposit seen on chain while the API is failing (the card does not wait for an API answer)', async () => {
    const { id, chat, address } = await followedSwap('USDC', 100);
    // This swap's polls fail from now on (the faults only match its path).
    sandbox.injectFault({ status: 502, count: 1000, pathPrefix: `/api/v2/swaps/${id}` });
    await sendToken(USDC, address, '100');
    await waitFor(
      () => latest(chat.chatId).includes('Deposit seen on Arbitrum One: 100 USDC in block'),
      'the sighting on the card with the API failing',
    );
  });

  it('shows a native deposit too', async () => {
    const { chat, address } = await followedSwap('ETH', 0.05);
    await wallet().sendTransaction({ to: address, value: parseUnits('0.05', 18) });
    const head = sandbox.chain?.head() ?? 0;
    const seen = await waitFor(
      () => latest(chat.chatId).match(/Deposit seen on Arbitrum One: 0\.05 ETH in block ([\d,]+), confirming 1\//),
      'the native sighting on the card',
    );
    // No block was mined after the transfer: the card shows it within that block.
    expect(Number(seen[1]?.replace(/,/g, ''))).toBeGreaterThanOrEqual(head);
  });

  it('tells a transfer of the wrong token at once, with what to do', async () => {
    const { chat, address } = await followedSwap('USDC', 100);
    const hash = await sendToken(USDT0, address, '100');
    await waitFor(
      () => latest(chat.chatId).includes('A transfer of 100 USDT0 reached the deposit address on Arbitrum One'),
      'the wrong token on the card',
    );
    expect(latest(chat.chatId)).toContain('but this swap expects 100 USDC');
    expect(latest(chat.chatId)).toContain('contact Layerswap support with the transaction hash');
    // Money the user must act on is a message of its own (issue 32), not only an edit: with the hash and support.
    const told = await waitFor(
      () => messenger.log.find((r) => r.chatId === chat.chatId && r.op === 'send' && r.reply.title === 'Money this swap cannot take'),
      'the wrong token as a new message',
    );
    expect(JSON.stringify(told.reply)).toContain(hash);
    expect(JSON.stringify(told.reply)).toContain('https://t.me/layerswap_io');
  });

  it('tells a transfer after expiry as late (never "this swap expects"), in a new message with its hash and the support link', async () => {
    const { id, chat, address } = await followedSwap('USDC', 100);
    clock.advance(3_600_000 + 1_000);
    await tracking.service.pollNow(id);
    await waitFor(async () => (await tracking.swapState(id))?.status === 'expired', 'the swap expired');
    const hash = await sendToken(USDC, address, '100');
    const told = await waitFor(
      () => messenger.log.find((r) => r.chatId === chat.chatId && r.op === 'send' && r.reply.title === 'Money this swap cannot take'),
      'the late transfer as a new message',
    );
    const text = JSON.stringify(told.reply);
    expect(text).toContain('A transfer of 100 USDC reached the deposit address on Arbitrum One');
    expect(text).toContain('after this swap closed');
    expect(text).not.toContain('this swap expects');
    expect(text).toContain(hash);
    expect(text).toContain('https://t.me/layerswap_io');
    await waitFor(() => latest(chat.chatId).includes('after this swap closed'), 'the late transfer on the card');
    expect(latest(chat.chatId)).not.toMatch(/Send the exact amount|this swap expects/);
  });

  it('tells a transfer the watcher took for the deposit as late once the service says the swap expired without it', async () => {
    const { id, chat, address } = await followedSwap('USDC', 100);
    // The service expires the swap; the bot has not polled since, so its watcher still takes a transfer for the deposit.
    clock.advance(3_600_000 + 1_000);
    const hash = await sendToken(USDC, address, '100');
    await tracking.service.pollNow(id);
    await waitFor(async () => (await tracking.swapState(id))?.status === 'expired', 'the swap expired');
    const told = await waitFor(
      () => messenger.log.find((r) => r.chatId === chat.chatId && r.op === 'send' && r.reply.title === 'Money this swap cannot take'),
      'the transfer told as late in a new message',
    );
    expect(JSON.stringify(told.reply)).toContain(hash);
    await waitFor(() => latest(chat.chatId).includes('after this swap closed'), 'the late transfer on the card');
    expect(latest(chat.chatId)).not.toMatch(/Deposit seen|Send the exact amount|this swap expects/);
  });

  it('tells a transfer of a different amount at once, as the same under-payment the service will show', async () => {
    const { id, chat, address } = await followedSwap('USDC', 100);
    await sendToken(USDC, address, '50');
    const under = 'You sent 50 USDC: 50 USDC less than the 100 USDC asked.';
    // The money model takes the chain's amount as the deposit: the under-payment line of a service-seen deposit.
    await waitFor(() => latest(chat.chatId).includes(under), 'the under-payment on the card from the chain');
    expect(latest(chat.chatId)).toContain('Deposit seen on Arbitrum One: 50 USDC in block');
    expect(latest(chat.chatId)).toContain('Layerswap has yet to pick it up');
    // Its "Deposit seen" message carries the sighting and says the same.
    const moment = await waitFor(() => cards(chat.chatId).find((c) => c.startsWith('{"title":"Deposit seen"')), 'the Deposit seen message');
    expect(moment).toContain('Deposit seen on Arbitrum One: 50 USDC in block');
    expect(moment).toContain(under);
    // The service picks it up: the same sentence, now from its input transaction, and no second message.
    clock.advance(PICKUP_MS);
    await waitFor(
      async () => (await client.getSwap(id)).swap.transactions.some((x) => x.type === 'input'),
      'the service seeing the deposit',
    );
    await tracking.service.pollNow(id);
    await waitFor(async () => ((await tracking.swapState(id))?.transactions.length ?? 0) > 0, "the service's input transaction polled");
    await waitFor(
      () => latest(chat.chatId).includes(under) && !latest(chat.chatId).includes('Layerswap has yet to pick it up'),
      'the same under-payment from the service',
    );
    expect(cards(chat.chatId).filter((c) => c.startsWith('{"title":"Deposit seen"'))).toHaveLength(1);
  });

  it('falls back to polling the API when the RPC dies mid-swap, and loses nothing', async () => {
    const { id, chat, address } = await followedSwap('USDC', 100);
    await sendToken(USDC, address, '100');
    await waitFor(
      () => latest(chat.chatId).includes('Deposit seen on Arbitrum One: 100 USDC in block'),
      'the sighting before the RPC dies',
    );
    // A confirmation the service sees on its own chain, then the bot's RPC dies.
    clock.advance(PICKUP_MS);
    await sandbox.chain?.node?.mine(1);
    await waitFor(
      async () => (await client.getSwap(id)).swap.transactions.find((x) => x.type === 'input')?.confirmations === 2,
      'the service at 2 confirmations',
    );
    await rpc.close({ force: true });
    // The watcher finds it down and hands the swap back to the API at once: a poll no one asked for
    // (the cadence's next is 30 s away, the chain's at the 3rd confirmation) brings the service's count.
    const input = async () => (await tracking.swapState(id))?.transactions.find((x) => x.type === 'input');
    await waitFor(async () => (await input())?.confirmations === 2, 'the API poll after the RPC died');
    await sandbox.chain?.node?.mine(2);
    // The rest through API polls (the poll below stands for the cadence's next one coming due).
    await tracking.service.pollNow(id);
    await waitFor(async () => (await tracking.swapState(id))?.status === 'ls_transfer_pending', 'the service status through API polls');
    clock.advance(60_000);
    await tracking.service.pollNow(id);
    await waitFor(async () => (await tracking.swapState(id))?.status === 'completed', 'completion through API polls');
    await waitFor(() => cards(chat.chatId).some((c) => /completed/i.test(c)), 'the completed card');
  });
});

import { startLocalSolana } from '../src/chain/solana/local-chain.js';
import { createSolanaWatcher, solanaGenesis } from '../src/chain/solana/watcher.js';
import type { ChatTarget, MessageRef } from '../src/contracts/incoming.js';
import type { Messenger } from '../src/contracts/messenger.js';
import type { Reply } from '../src/contracts/reply.js';
import { trackingRenderer } from '../src/bot/renderer.js';
import { LayerswapClient } from '../src/layerswap/client.js';
import { startSandbox } from '../src/sandbox/server.js';
import { createTracking } from '../src/tracking/engine.js';
import { emptySection, type Section } from './report.js';
import { fmt, sleep, spread, waitFor } from './stats.js';

/**
 * Part 11: Solana deposits on chain. (a) Deposit -> first card showing it: the sandbox's Solana
 * network on its local chain (LiteSVM, a block every second), deposits sent as real transfers (SOL
 * and USDC alternately), a tracking worker on Redis with the default 2 s head interval; timed from
 * the transfer's block to the first card after it (the chain's sighting, or the service's answer). (b) The watcher's RPC
 * requests per minute with 1, 100 and 1000 swaps waiting on one network (counted at the local
 * chain's RPC, a block every 400 ms).
 */

export interface SolanaSizes {
  swaps: number;
  windowMs: number;
}

/** Records, per chat armed at its deposit, the first card after it and whether it was the chain's sighting. */
class FirstCard implements Messenger {
  readonly platform = 'console' as const;
  readonly armed = new Set<string>();
  readonly seen = new Map<string, { at: number; chain: boolean }>();
  private n = 0;
  private note(chatId: string, reply: Reply) {
    if (this.armed.has(chatId) && !this.seen.has(chatId))
      this.seen.set(chatId, { at: Date.now(), chain: JSON.stringify(reply).includes('Deposit seen on Solana') });
  }
  async send(target: ChatTarget, reply: Reply): Promise<MessageRef> {
    this.note(target.chatId, reply);
    return { platform: 'console', chatId: target.chatId, messageId: String(++this.n) };
  }
  async edit(ref: MessageRef, reply: Reply): Promise<MessageRef> {
    this.note(ref.chatId, reply);
    return ref;
  }
}

export async function runSolana(redisUrl: string, prefix: string, sizes: SolanaSizes): Promise<Section> {
  const section = emptySection(11, 'Solana deposits on chain');
  const { latencies, byChain } = await depositToCard(redisUrl, prefix, sizes.swaps);
  const dep = spread(latencies.map((ms) => ms / 1000));
  section.rows.push({
    figure: 'Solana (local LiteSVM chain): deposit (its block) -> first card showing it',
    unit: 'sandbox s',
    value: dep,
  });
  section.targets.push({
    text: 'Solana: deposit -> first card median <= 3 s, worst <= 8 s (sandbox time)',
    measured: `${fmt(dep.median)} s median, ${fmt(dep.max)} s worst`,
    pass: Number.isFinite(dep.max) ? dep.median <= 3 && dep.max <= 8 : null,
  });
  const perMinute: Array<[number, number]> = [];
  for (const swaps of [1, 100, 1000]) perMinute.push([swaps, await requestsPerMinute(swaps, sizes.windowMs)]);
  for (const [swaps, rate] of perMinute)
    section.rows.push({
      figure: `Solana watcher: RPC requests per minute, ${swaps} swap(s) waiting`,
      unit: 'req/min',
      value: spread([rate]),
    });
  const rates = perMinute.map(([, r]) => r);
  section.targets.push({
    text: 'Solana watcher: RPC requests per minute flat in the number of swaps (1000 swaps within 10% of 1)',
    measured: perMinute.map(([s, r]) => `${s}: ${fmt(r)}`).join(', '),
    pass: Math.max(...rates) <= (rates[0] as number) * 1.1,
  });
  section.notes.push(
    `Solana: the first card after the deposit was the chain's sighting for ${byChain} of ${sizes.swaps} (else the service's answer, which a sighting hints at once, showed it first: the sandbox confirms within two of its blocks).`,
    `Solana: ${sizes.swaps} deposits on the sandbox's local chain (a block every second, the sandbox's default, one more per transfer); requests per minute over ${fmt(sizes.windowMs / 1000)} s per size, ` +
      'the watcher at its defaults (a getSlot every 2 s, getBlocks and one getBlock per new slot, getSignatureStatuses while a transfer is not final).',
  );
  return section;
}

async function depositToCard(redisUrl: string, prefix: string, count: number): Promise<{ latencies: number[]; byChain: number }> {
  const sandbox = await startSandbox({ timings: { depositDelayMs: 'off' }, chain: { blockMs: 1000 } });
  const client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
  const catalogue = async (name: string) => (await client.getNetworks()).find((n) => n.name === name);
  const messenger = new FirstCard();
  const tracking = createTracking({
    redis: redisUrl,
    prefix: `${prefix}-solana`,
    api: client,
    limits: { maxPerChat: 10_000, maxPerUser: 10_000 },
    cadence: { fastMs: 5_000, slowMs: 10_000, stuckFactor: 4 },
    apiRate: { max: 100_000, duration: 1000 },
    chain: {
      evmRpcs: new Map(),
      fallbackRpc: async (name) => (await catalogue(name))?.node_url ?? undefined,
      network: async (name) => {
        const n = await catalogue(name);
        const genesisHash = n ? solanaGenesis(n.name, n.chain_id) : undefined;
        return (
          n && {
            family: n.type ?? undefined,
            ...(genesisHash ? { genesisHash } : {}),
            tokens: n.tokens.map((t) => ({ symbol: t.symbol, contract: t.contract ?? null, decimals: t.decimals ?? 9 })),
          }
        );
      },
    },
  });
  const out: number[] = [];
  try {
    await tracking.startWorkers({ messengers: { console: messenger }, render: trackingRenderer });
    for (let i = 0; i < count; i++) {
      const sol = i % 2 === 0;
      const details = await client.createSwap({
        source_network: 'SOLANA_MAINNET',
        source_token: sol ? 'SOL' : 'USDC',
        destination_network: 'ARBITRUM_MAINNET',
        destination_token: sol ? 'ETH' : 'USDC',
        destination_address: '0x2222222222222222222222222222222222222222',
        amount: sol ? 1 : 50,
        use_deposit_address: true,
        refund_address: sandbox.solana?.fundedAddress ?? '',
      });
      const chatId = `sol-${i}`;
      await tracking.service.follow(
        details.swap.id,
        { platform: 'console', chatId, chatKind: 'private' },
        { userId: chatId, creator: true },
      );
      await waitFor(async () => (await tracking.swapState(details.swap.id)) !== undefined, 10_000, 50);
      // Spread over the head interval: the figure is not one phase of the watcher's clock.
      await sleep(Math.floor(Math.random() * 2000));
      messenger.armed.add(chatId);
      const rec = await fetch(`${sandbox.url}/sandbox/swaps/${details.swap.id}/deposit`, {
        method: 'POST',
        headers: { 'x-ls-apikey': sandbox.apiKey, 'content-type': 'application/json' },
        body: '{}',
      });
      // The transfer is in its block when the sandbox answers (one block per transaction).
      const sent = Date.now();
      if (!rec.ok) throw new Error(`sandbox deposit: ${rec.status}`);
      await waitFor(() => messenger.seen.has(chatId), 30_000, 20).catch(() => undefined);
      const first = messenger.seen.get(chatId);
      out.push(first ? first.at - sent : NaN);
    }
  } finally {
    await tracking.close();
    await client.close();
    await sandbox.close();
  }
  return { latencies: out, byChain: [...messenger.seen.values()].filter((s) => s.chain).length };
}

async function requestsPerMinute(swaps: number, windowMs: number): Promise<number> {
  const chain = await startLocalSolana({ blockMs: 400 });
  const watcher = createSolanaWatcher({
    rpcs: new Map([['SOLANA_LOCAL', chain.url]]),
    events: { transfer: () => undefined, head: () => undefined, health: () => undefined },
  });
  try {
    for (let i = 0; i < swaps; i++)
      watcher.watch({
        swapId: `b${i}`,
        network: 'SOLANA_LOCAL',
        address: `bench${i}`,
        token: { symbol: 'SOL', contract: null, decimals: 9 },
      });
    await waitFor(() => watcher.healthy('SOLANA_LOCAL'), 10_000, 20);
    chain.requests.clear();
    await sleep(windowMs);
    const total = [...chain.requests.values()].reduce((a, b) => a + b, 0);
    return (total * 60_000) / windowMs;
  } finally {
    await watcher.close();
    await chain.close();
  }
}

import { afterEach, describe, expect, it } from 'vitest';
import { startLocalSolana, type LocalSolana } from '../../src/chain/solana/local-chain.js';
import { createSolanaWatcher } from '../../src/chain/solana/watcher.js';
import type { ChainWatcher, WatchEntry } from '../../src/chain/watcher.js';
import { memoryLogger } from '../support/log.js';
import { waitFor } from '../support/wait.js';

/**
 * The Solana watcher's RPC on the local chain (real sockets): an RPC that stops answering is
 * logged once (never its URL, which may carry a key) and reported down, so tracking polls the API;
 * an RPC of another cluster (its genesis hash) is never believed; and the cost of a tick does not
 * grow with the swaps watched.
 */

const SOL: WatchEntry['token'] = { symbol: 'SOL', contract: null, decimals: 9 };
const entry = (i: number): WatchEntry => ({
  swapId: `s${i}`,
  network: 'SOLANA_LOCAL',
  // Distinct base58 addresses nobody sends to.
  address: `${'1'.repeat(12)}${String(i).padStart(20, '2').replace(/0/g, 'A')}`,
  token: SOL,
});

describe('Solana watcher and its RPC', () => {
  let chain: LocalSolana | undefined;
  let watcher: ChainWatcher | undefined;
  afterEach(async () => {
    await watcher?.close();
    await chain?.close();
  });

  it('falls back to API polling when the RPC goes down, logged once and without the URL', async () => {
    chain = await startLocalSolana({ blockMs: 50 });
    const url = `${chain.url}/?api-key=secret-key-123`;
    const log = memoryLogger();
    const health: boolean[] = [];
    watcher = createSolanaWatcher({
      rpcs: new Map([['SOLANA_LOCAL', url]]),
      pollMs: 20,
      logger: log.logger,
      events: { transfer: () => undefined, head: () => undefined, health: (_n, up) => health.push(up) },
    });
    watcher.watch(entry(1));
    await waitFor(() => watcher?.healthy('SOLANA_LOCAL'), 'the watcher reading the chain');
    await chain.close();
    await waitFor(() => health.includes(false), 'the RPC reported down');
    expect(watcher.healthy('SOLANA_LOCAL')).toBe(false);
    // Its backoff goes on trying: still one line for the outage.
    await waitFor(() => log.lines.filter((l) => l.includes('"network":"SOLANA_LOCAL"')).length >= 1, 'the outage logged');
    const failing = log.lines.filter((l) => l.includes('chain RPC failing: falling back to polling the API'));
    expect(failing).toHaveLength(1);
    expect(log.lines.join('\n')).not.toContain('secret-key-123');
    expect(log.lines.join('\n')).not.toContain(chain.url);
  });

  it("refuses an RPC whose genesis hash is not the network's", async () => {
    chain = await startLocalSolana();
    const log = memoryLogger();
    const health: boolean[] = [];
    watcher = createSolanaWatcher({
      rpcs: new Map([['SOLANA_MAINNET', chain.url]]),
      pollMs: 20,
      logger: log.logger,
      genesisHash: async () => '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d',
      events: { transfer: () => undefined, head: () => undefined, health: (_n, up) => health.push(up) },
    });
    watcher.watch({ ...entry(2), network: 'SOLANA_MAINNET' });
    await waitFor(() => health.includes(false), 'the RPC refused');
    expect(log.lines.some((l) => l.includes('chain RPC is for another chain (genesis hash)'))).toBe(true);
    expect(chain.requests.get('getBlock') ?? 0).toBe(0);
  });

  it('reads each new slot once for all the swaps watched: the same requests for 1 and 300 swaps', async () => {
    chain = await startLocalSolana();
    const local = chain;
    const perTick = async (swaps: number) => {
      const heads: number[] = [];
      const w = createSolanaWatcher({
        rpcs: new Map([['SOLANA_LOCAL', local.url]]),
        pollMs: 60_000,
        driven: true,
        events: { transfer: () => undefined, head: (_n, h) => heads.push(h), health: () => undefined },
      });
      for (let i = 0; i < swaps; i++) w.watch(entry(1000 * swaps + i));
      await w.tickNow?.('SOLANA_LOCAL');
      local.requests.clear();
      local.mine(5);
      await w.tickNow?.('SOLANA_LOCAL');
      await w.close();
      return Object.fromEntries(local.requests);
    };
    const one = await perTick(1);
    const many = await perTick(300);
    expect(one).toEqual({ getSlot: 1, getBlocks: 1, getBlock: 5 });
    expect(many).toEqual(one);
  });
});

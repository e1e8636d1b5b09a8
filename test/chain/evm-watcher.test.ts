import { createPublicClient, http, parseUnits, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmWatcher } from '../../src/chain/evm.js';
import { startLocalNode, type LocalNode } from '../../src/chain/local-node.js';
import type { ChainWatcher, SeenTransfer, WatchEntry } from '../../src/chain/watcher.js';
import { waitFor } from '../support/wait.js';
import { chainWallet } from './support/chain-stack.js';

/**
 * The EVM watcher alone on a real local node that mines a block every second, as the sandbox's
 * chain does: a transfer is reported while its block is still the newest (not after viem's 4 s
 * head cache), and a swap watched after its transfer landed, on a loop already running for
 * others (a worker's restart, a late first poll), still gets it from the lookback.
 */

const ETH: WatchEntry['token'] = { symbol: 'ETH', contract: null, decimals: 18 };

describe('EVM watcher on a local node mining every second', () => {
  let node: LocalNode;
  let miner: NodeJS.Timeout;
  let watcher: ChainWatcher;
  /** The last block the watcher scanned (its head event). */
  let scanned = 0;
  const seen: Array<{ swapId: string; t: SeenTransfer; headThen: number }> = [];
  const pub = () => createPublicClient({ cacheTime: 0, transport: http(node.url) });
  const send = async (to: Hex) => {
    const wallet = chainWallet(node);
    const hash = await wallet.sendTransaction({ to, value: parseUnits('0.01', 18) });
    return Number((await pub().waitForTransactionReceipt({ hash, pollingInterval: 20 })).blockNumber);
  };

  beforeAll(async () => {
    node = await startLocalNode();
    miner = setInterval(() => void node.mine().catch(() => undefined), 1000);
    watcher = createEvmWatcher({
      rpcs: new Map([['LOCAL', node.url]]),
      pollMs: 50,
      minGapMs: 0,
      events: {
        transfer: (e, t) =>
          void pub()
            .getBlockNumber()
            .then((h) => seen.push({ swapId: e.swapId, t, headThen: Number(h) })),
        head: (_n, h) => void (scanned = h),
        health: () => undefined,
      },
    });
  });
  afterAll(async () => {
    clearInterval(miner);
    await watcher?.close();
    await node?.close();
  });

  it('reports a transfer while its block is still the newest one, or the next', async () => {
    const to = '0x00000000000000000000000000000000000a11ce' as Hex;
    watcher.watch({ swapId: 'first', network: 'LOCAL', address: to, token: ETH });
    await waitFor(() => watcher.healthy('LOCAL'), 'the watcher reading the head');
    const block = await send(to);
    const s = await waitFor(() => seen.find((x) => x.swapId === 'first'), 'the transfer reported');
    expect(s.t.block).toBe(block);
    // One block a second: a report held back by a cached head comes several blocks later.
    expect(s.headThen).toBeLessThanOrEqual(block + 1);
  });

  it('finds the transfer of a swap watched after it landed, on a loop already running', async () => {
    const to = '0x00000000000000000000000000000000000b0b00' as Hex;
    const block = await send(to);
    // The loop (watching 'first') has scanned past the transfer's block before 'late' is watched.
    await waitFor(() => scanned >= block, 'the watcher scanning past the transfer');
    watcher.watch({ swapId: 'late', network: 'LOCAL', address: to, token: ETH });
    const s = await waitFor(() => seen.find((x) => x.swapId === 'late'), 'the late-watched transfer');
    expect(s.t.block).toBe(block);
  });
});

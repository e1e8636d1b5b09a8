import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LayerswapClient } from '../../src/layerswap/client.js';
import { ManualClock, type SandboxServer } from '../../src/sandbox/types.js';
import type { Tracking } from '../../src/tracking/engine.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { uniquePrefix } from '../support/redis.js';
import { waitFor } from '../support/wait.js';
import {
  cardSaying,
  chainReader,
  depositSwap,
  follow,
  sandboxClient,
  sendToken,
  startChainSandbox,
  startChainTracking,
} from './support/chain-stack.js';
import { startRpcProxy, type RpcProxy } from './support/rpc-proxy.js';

/**
 * One watcher per network across workers (issue 38): two workers on one Redis prefix, each
 * reaching the chain through its own RPC proxy (so each one's requests are counted), read every
 * new block of the network once between them, not once each; the worker holding the network's
 * watch goes away and the other carries on: the next block is read, and a deposit is on the card.
 */

describe('one watcher per network, whatever the number of workers', () => {
  let sandbox: SandboxServer;
  const workers: Array<{ tracking: Tracking; rpc: RpcProxy; closed: boolean }> = [];
  let client: LayerswapClient;
  const messenger = new RecordingMessenger('console');
  const clock = new ManualClock();
  const prefix = uniquePrefix('one-watcher');

  beforeAll(async () => {
    sandbox = await startChainSandbox(clock);
    client = sandboxClient(sandbox);
    for (let i = 0; i < 2; i++) {
      const rpc = await startRpcProxy(sandbox.chain?.url ?? '');
      const tracking = await startChainTracking({ client, clock, prefix, rpcUrl: rpc.url, messenger });
      workers.push({ tracking, rpc, closed: false });
    }
  });
  afterAll(async () => {
    for (const w of workers) if (!w.closed) await w.tracking.close();
    await sandbox?.close();
    for (const w of workers) await w.rpc.close({ force: true });
  });

  const head = async () => Number(await chainReader(sandbox).getBlockNumber());
  const scannedTo = () => Math.max(...workers.map((w) => w.rpc.scannedTo));
  const mined = async () => {
    await sandbox.chain?.node?.mine(1);
    const h = await head();
    await waitFor(() => scannedTo() >= h, 'a worker reading the new block');
    return h;
  };
  const reads = (block: number) => workers.reduce((n, w) => n + (w.rpc.reads.get(block) ?? 0), 0);

  let n = 0;
  async function followedSwap() {
    n++;
    const tracking = workers[0]?.tracking as Tracking;
    return follow(tracking, await depositSwap(client, `0x${n.toString(16).padStart(40, 'c')}`), `one-${n}`);
  }

  it('two workers read each new block of a network once between them', async () => {
    const addresses: string[] = [];
    for (let i = 0; i < 3; i++) addresses.push((await followedSwap()).address.toLowerCase());
    // Counted once each worker has read the chain for all three swaps: a worker's first read for a
    // swap it has not watched before is its lookback, once (a catch-up, not a second read of a new block).
    const readsAll = (w: (typeof workers)[number]) => w.rpc.filters.some((f) => addresses.every((a) => f.includes(a)));
    for (let i = 0; i < 200 && !workers.every(readsAll); i++) await mined();
    expect(workers.every(readsAll)).toBe(true);
    const from = (await mined()) + 1;
    for (let i = 0; i < 6; i++) await mined();
    const blocks = Array.from({ length: 6 }, (_, i) => from + i);
    expect(blocks.map(reads)).toEqual(blocks.map(() => 1));
  });

  it('another worker takes the watch over when the one holding it goes away', async () => {
    const { chat, address } = await followedSwap();
    await mined();
    // The last reader holds the watch (or had it last): it goes away.
    const holder = workers.reduce((a, b) => ((a.rpc.counts.get('eth_blockNumber') ?? 0) > 0 && a.rpc.scannedTo >= b.rpc.scannedTo ? a : b));
    const other = workers.find((w) => w !== holder);
    await holder.tracking.close();
    holder.closed = true;
    const before = other?.rpc.scannedTo ?? 0;
    const h = await mined();
    expect(other?.rpc.scannedTo).toBeGreaterThanOrEqual(h);
    expect(before).toBeLessThan(h);
    // A deposit now is seen by the worker that took over.
    await sendToken(sandbox, address, '100');
    await cardSaying(
      messenger,
      chat.chatId,
      'Deposit seen on Arbitrum One: 100 USDC',
      'the deposit on the card, seen by the worker that took over',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createNetworkWatcher, type NetworkReader } from '../../src/chain/network-loop.js';
import type { WatchEntry } from '../../src/chain/watcher.js';

/**
 * The loop as a network's watch job drives it (tickNow with the job's cursor), with a scripted
 * reader: which blocks each run asks for, and the cursor it hands back to the job.
 */
function scripted() {
  const state = { head: 0, failing: false, reads: [] as Array<[number | undefined, number]> };
  const reader: NetworkReader = {
    async head() {
      if (state.failing) throw new Error('ECONNRESET');
      return state.head;
    },
    async catchUp() {},
    async read(head, scanned) {
      state.reads.push([scanned, head]);
      return { scanned: head, behind: false };
    },
    async confirm() {
      return undefined;
    },
  };
  const watcher = createNetworkWatcher(
    { name: 'evm', minGapMs: 0, burst: 1, reader: () => reader },
    { rpcs: new Map([['N', 'http://rpc.invalid']]), events: { transfer() {}, head() {}, health() {} }, pollMs: 1000, driven: true },
  );
  const entry: WatchEntry = {
    swapId: 's1',
    network: 'N',
    address: '0xabc',
    token: { contract: null, decimals: 18, symbol: 'ETH' },
  } as WatchEntry;
  watcher.watch(entry);
  return { state, watcher };
}

describe('a network watch loop driven by its job', () => {
  it('reads on from the cursor the job hands it, whichever worker ran the job last', async () => {
    const { state, watcher } = scripted();
    state.head = 12;
    expect(await watcher.tickNow?.('N', 10)).toMatchObject({ scanned: 12 });
    // Another worker's runs took the job on to block 20.
    state.head = 22;
    expect(await watcher.tickNow?.('N', 20)).toMatchObject({ scanned: 22 });
    expect(state.reads.at(-1)).toEqual([20, 22]);
    await watcher.close();
  });

  it('backing off after a failure, hands the job its cursor back unchanged, never this loop’s older one', async () => {
    const { state, watcher } = scripted();
    state.head = 12;
    await watcher.tickNow?.('N', 10);
    state.failing = true;
    const failed = await watcher.tickNow?.('N', 12);
    expect(failed?.waitMs).toBeGreaterThan(0);
    // Meanwhile another worker read on to 30; this one, still backing off, is handed the job.
    const backingOff = await watcher.tickNow?.('N', 30);
    expect(backingOff).toMatchObject({ scanned: 30 });
    await watcher.close();
  });
});

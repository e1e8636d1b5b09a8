import { parseUnits, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmWatcher } from '../../src/chain/evm.js';
import { startLocalNode, type LocalNode } from '../../src/chain/local-node.js';
import type { ChainWatcher, SeenTransfer, WatchEntry } from '../../src/chain/watcher.js';
import { memoryLogger } from '../support/log.js';
import { waitFor } from '../support/wait.js';
import { startRpcProxy, type RpcProxy } from './support/rpc-proxy.js';
import { chainWallet } from './support/chain-stack.js';

/**
 * The RPC's chain id is checked before anything it says is believed, at start and again when it
 * answers after failing (a reconnect may reach another node): an RPC of another chain is disabled
 * with one error line, the network handed to the API's polling (health down), and its transfers
 * are never reported. Also a real reorganisation on the local node (evm_snapshot / evm_revert):
 * a reported transfer that the new chain does not hold is taken back.
 */

const ETH: WatchEntry['token'] = { symbol: 'ETH', contract: null, decimals: 18 };

describe('the chain id of an RPC, and a real reorganisation', () => {
  let node: LocalNode;
  const errors = (lines: string[]) => lines.filter((l) => l.includes('"level":50'));

  beforeAll(async () => {
    node = await startLocalNode();
  });
  afterAll(async () => {
    await node?.close();
  });

  const sendEth = async (to: Hex) => {
    const wallet = chainWallet(node);
    return wallet.sendTransaction({ to, value: parseUnits('0.01', 18) });
  };

  function watcherOn(rpc: RpcProxy, log: ReturnType<typeof memoryLogger>) {
    const down = new Set<string>();
    const seen: SeenTransfer[] = [];
    const retracted: string[] = [];
    const w: ChainWatcher = createEvmWatcher({
      rpcs: new Map([['LOCAL', rpc.url]]),
      pollMs: 20,
      minGapMs: 0,
      downAfter: 1,
      logger: log.logger,
      chainId: async () => node.chainId,
      events: {
        transfer: (_e, t) => void seen.push(t),
        retract: (_e, tx) => void retracted.push(tx),
        head: () => undefined,
        health: (n, up) => void (up ? down.delete(n) : down.add(n)),
      },
    });
    return { w, down, seen, retracted };
  }
  const call = async (method: string, params: unknown[] = []) =>
    (
      (await (await fetch(node.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as {
        result: string;
      }
    ).result;

  it('an RPC of another chain is not watched: one error line, and the API polls', async () => {
    const rpc = await startRpcProxy(node.url);
    rpc.chainId = 1;
    const log = memoryLogger();
    const { w, down, seen } = watcherOn(rpc, log);
    try {
      const to = '0x00000000000000000000000000000000000c4a10' as Hex;
      w.watch({ swapId: 'a', network: 'LOCAL', address: to, token: ETH });
      await waitFor(() => down.has('LOCAL'), 'the network handed to the API');
      expect(w.healthy('LOCAL')).toBe(false);
      // Nothing it says is read: no head, no logs, no blocks, and a new watch does not try again.
      w.watch({ swapId: 'b', network: 'LOCAL', address: to, token: ETH });
      await sendEth(to);
      await node.mine(2);
      expect([...rpc.counts.keys()]).toEqual(['eth_chainId']);
      expect(rpc.counts.get('eth_chainId')).toBe(1);
      expect(seen).toEqual([]);
      expect(errors(log.lines)).toHaveLength(1);
      expect(errors(log.lines)[0]).toContain('chain RPC is for another chain');
      expect(errors(log.lines)[0]).toContain('"expected":31337');
      expect(errors(log.lines)[0]).not.toContain(rpc.url);
    } finally {
      await w.close();
      await rpc.close({ force: true });
    }
  });

  it('is checked again when the RPC answers after failing (a reconnect)', async () => {
    const rpc = await startRpcProxy(node.url);
    const log = memoryLogger();
    const { w, down, seen } = watcherOn(rpc, log);
    try {
      const to = '0x00000000000000000000000000000000000c4a11' as Hex;
      w.watch({ swapId: 'c', network: 'LOCAL', address: to, token: ETH });
      await waitFor(() => w.healthy('LOCAL'), 'the watcher reading the right chain');
      rpc.down = true;
      await waitFor(() => down.has('LOCAL'), 'the RPC failing');
      // It comes back, but it is another chain's node now.
      rpc.chainId = 10;
      rpc.down = false;
      await waitFor(() => errors(log.lines).length > 0, 'the mismatch found on reconnect');
      const logsBefore = rpc.counts.get('eth_getLogs') ?? 0;
      await sendEth(to);
      await node.mine(2);
      expect(w.healthy('LOCAL')).toBe(false);
      expect(rpc.counts.get('eth_getLogs') ?? 0).toBe(logsBefore);
      expect(seen).toEqual([]);
      expect(errors(log.lines)).toHaveLength(1);
    } finally {
      await w.close();
      await rpc.close({ force: true });
    }
  });

  it('takes back a reported transfer that a real reorganisation drops', async () => {
    const rpc = await startRpcProxy(node.url);
    const log = memoryLogger();
    const { w, seen, retracted } = watcherOn(rpc, log);
    try {
      const to = '0x00000000000000000000000000000000000c4a12' as Hex;
      w.watch({ swapId: 'd', network: 'LOCAL', address: to, token: ETH, depth: 5 });
      await waitFor(() => w.healthy('LOCAL'), 'the watcher reading the chain');
      const snapshot = await call('evm_snapshot');
      const hash = await sendEth(to);
      await waitFor(() => seen.find((t) => t.txHash === hash), 'the transfer reported');
      // The chain goes back before it and grows past it without it.
      await call('evm_revert', [snapshot]);
      await node.mine(3);
      await waitFor(() => retracted.includes(hash), 'the transfer taken back');
    } finally {
      await w.close();
      await rpc.close({ force: true });
    }
  });
  it('native deposits confirming together are re-checked by the blocks already read, not a receipt each; one a real reorganisation drops is still taken back', async () => {
    const rpc = await startRpcProxy(node.url);
    const log = memoryLogger();
    const { w, seen, retracted } = watcherOn(rpc, log);
    try {
      const to = [0, 1, 2].map((i) => `0x00000000000000000000000000000000000c4b2${i}` as Hex);
      for (const [i, address] of to.entries()) w.watch({ swapId: `n${i}`, network: 'LOCAL', address, token: ETH, depth: 12 });
      await waitFor(() => w.healthy('LOCAL'), 'the watcher reading the chain');
      const kept = [await sendEth(to[0] as Hex), await sendEth(to[1] as Hex)];
      const snapshot = await call('evm_snapshot');
      const dropped = await sendEth(to[2] as Hex);
      const hashes = [...kept, dropped];
      await waitFor(() => hashes.every((h) => seen.some((t) => t.txHash === h)), 'the three transfers reported');
      const asked = () => hashes.map((h) => rpc.receipts.get(h.toLowerCase()) ?? 0);
      const headSeen = async () => {
        const head = Number(await call('eth_blockNumber'));
        await waitFor(() => rpc.reads.get(head) !== undefined, 'the new head read');
      };
      await headSeen();
      const before = asked();
      // Four new heads, each read with its transactions: no receipt asked again.
      for (let i = 0; i < 4; i++) {
        await node.mine(1);
        await headSeen();
      }
      expect(asked().slice(0, 2)).toEqual(before.slice(0, 2));

      // The chain goes back before the third and grows past it without it.
      await call('evm_revert', [snapshot]);
      await node.mine(6);
      await waitFor(() => retracted.includes(dropped), 'the dropped transfer taken back');
      expect(retracted).toEqual([dropped]);
      expect((asked()[2] ?? 0) > (before[2] ?? 0)).toBe(true);
    } finally {
      await w.close();
      await rpc.close({ force: true });
    }
  });
});

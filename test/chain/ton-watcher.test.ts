import { beginCell, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTonWatcher } from '../../src/chain/ton/watcher.js';
import type { ChainWatcher, SeenTransfer, WatchEntry } from '../../src/chain/watcher.js';
import { fakeAddress } from '../../src/sandbox/addresses.js';
import { startSandboxTon, type SandboxTon } from '../../src/sandbox/ton-chain.js';
import { memoryLogger } from '../support/log.js';
import { waitFor } from '../support/wait.js';
import { TON_USDT_MASTER } from '../fixtures/ton.js';

/**
 * The TON watcher against the sandbox's TON chain (the emulator behind toncenter's API v2, over
 * a real socket): native TON with its comment and sender, a forged jetton notification (from a
 * contract that is not the deposit address's wallet of any jetton) never believed, and an RPC
 * that fails: logged once (never its URL, which may carry an API key), the swaps handed to API
 * polling, and back when it answers again.
 */

describe('the TON watcher', () => {
  let ton: SandboxTon;
  let watcher: ChainWatcher;
  const log = memoryLogger();
  const seen: Array<[string, SeenTransfer]> = [];
  const health: boolean[] = [];
  const address = fakeAddress('ton', 'deposit:ton-watcher-test');
  const entry = (swapId: string, memo: string, contract: string | null): WatchEntry => ({
    swapId,
    network: 'TON_MAINNET',
    address,
    token: { symbol: contract ? 'USDT' : 'TON', contract, decimals: contract ? 6 : 9 },
    memo,
  });

  beforeAll(async () => {
    ton = await startSandboxTon({ jettons: [TON_USDT_MASTER], blockMs: 0 });
    watcher = createTonWatcher({
      rpcs: new Map([['TON_MAINNET', `${ton.url}?api_key=secret-key-123`]]),
      pollMs: 30,
      minGapMs: 0,
      logger: log.logger,
      events: {
        transfer: (e, t) => void seen.push([e.swapId, t]),
        head: () => undefined,
        health: (_n, up) => void health.push(up),
      },
    });
  });
  afterAll(async () => {
    await watcher?.close();
    await ton?.close();
  });

  it('reports native TON with its comment and sender, and a USDT jetton deposit by its master', async () => {
    watcher.watch(entry('native', '7001', null));
    watcher.watch(entry('jetton', '7002', TON_USDT_MASTER));
    const tonHash = await ton.send(address, { contract: null }, toNano('1.5'), '7001');
    const usdtHash = await ton.send(address, { contract: TON_USDT_MASTER }, 25_500_000n, '7002');
    await waitFor(() => seen.some(([, t]) => t.txHash === usdtHash) && seen.some(([, t]) => t.txHash === tonHash), 'both transfers');
    const native = seen.find(([id, t]) => id === 'native' && t.txHash === tonHash)?.[1];
    expect(native).toMatchObject({ contract: null, value: 1_500_000_000n, memo: '7001' });
    expect(native?.from).toMatch(/^0:[0-9a-f]{64}$/);
    const jetton = seen.find(([id, t]) => id === 'jetton' && t.txHash === usdtHash)?.[1];
    expect(jetton).toMatchObject({ contract: TON_USDT_MASTER.toLowerCase(), value: 25_500_000n, memo: '7002' });
    // Every swap at the address is offered every transfer (tracking tells them apart by the comment).
    expect(seen.some(([id, t]) => id === 'native' && t.txHash === usdtHash)).toBe(true);
  });

  it('never believes a jetton notification from a contract that is not a real jetton wallet', async () => {
    const before = seen.length;
    // Anyone can send a transfer_notification of any amount: here from an address with no jetton wallet behind it.
    const forger = fakeAddress('ton', 'forger');
    const body = beginCell()
      .storeUint(0x7362d09c, 32)
      .storeUint(0, 64)
      .storeCoins(1_000_000_000n)
      .storeAddress(null)
      .storeBit(1)
      .storeRef(beginCell().storeUint(0, 32).storeStringTail('7002').endCell())
      .endCell();
    await ton.forge(forger, address, toNano('0.05'), body);
    // A real transfer after it: once it is reported, the forged one was read (and dropped) before.
    const realHash = await ton.send(address, { contract: null }, toNano('2'), '7001');
    await waitFor(() => seen.slice(before).some(([, t]) => t.txHash === realHash), 'the real transfer after the forged one');
    expect(seen.slice(before).some(([, t]) => t.value === 1_000_000_000n && t.contract !== null)).toBe(false);
    expect(log.lines.filter((l) => l.includes('not a real jetton wallet'))).toHaveLength(1);
  });

  it('a swap watched late gets what reached its address before it, though a new transfer comes in the same tick', async () => {
    // Driven (a network's watch job ticks it): each tick is the test's, so the late watch and a new block share one.
    const shared = fakeAddress('ton', 'deposit:ton-late-watch');
    const got: Array<[string, SeenTransfer]> = [];
    const driven = createTonWatcher({
      rpcs: new Map([['TON_MAINNET', ton.url]]),
      minGapMs: 0,
      driven: true,
      events: { transfer: (e, t) => void got.push([e.swapId, t]), head: () => undefined, health: () => undefined },
    });
    try {
      const at = (swapId: string, memo: string): WatchEntry => ({ ...entry(swapId, memo, null), address: shared });
      driven.watch(at('early', '8001'));
      await driven.tickNow?.('TON_MAINNET');
      // The late swap's deposit lands before it is watched (a first poll after the deposit, a restart).
      const before = await ton.send(shared, { contract: null }, toNano('1'), '8002');
      await driven.tickNow?.('TON_MAINNET');
      driven.watch(at('late', '8002'));
      const after = await ton.send(shared, { contract: null }, toNano('1'), '8003');
      await driven.tickNow?.('TON_MAINNET');
      const late = got.filter(([id]) => id === 'late').map(([, t]) => t.txHash);
      expect(late).toEqual([before, after]);
    } finally {
      await driven.close();
    }
  });

  it('an RPC that fails: logged once, handed to API polling, back when it answers; its URL never logged', async () => {
    expect(watcher.healthy('TON_MAINNET')).toBe(true);
    ton.rpc.setDown(true);
    await waitFor(() => health.includes(false), 'the RPC reported down');
    expect(watcher.healthy('TON_MAINNET')).toBe(false);
    const failing = () => log.lines.filter((l) => l.includes('chain RPC failing: falling back to polling the API'));
    // More failed tries come (backing off), and no second line.
    const tries = ton.rpc.refused();
    await waitFor(() => ton.rpc.refused() >= tries + 2, 'more failed tries');
    expect(failing()).toHaveLength(1);
    ton.rpc.setDown(false);
    await waitFor(() => health.at(-1) === true, 'the RPC answering again');
    expect(watcher.healthy('TON_MAINNET')).toBe(true);
    expect(failing()).toHaveLength(1);
    expect(log.lines.some((l) => l.includes('chain RPC answers again'))).toBe(true);
    const all = log.lines.join('\n');
    expect(all).not.toContain('secret-key-123');
    expect(all).not.toContain(ton.url);
  });
});

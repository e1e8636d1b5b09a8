import { performance } from 'node:perf_hooks';
import { createTonWatcher } from '../src/chain/ton/watcher.js';
import { startSandboxTon } from '../src/sandbox/ton-chain.js';
import { fakeAddress } from '../src/sandbox/addresses.js';
import { emptySection, type Section } from './report.js';
import { fmt, spread } from './stats.js';

/**
 * Part 11: the TON watcher's cost and speed against the sandbox's TON chain (@ton/sandbox behind
 * toncenter's API v2). 1, 100 and 1000 swaps wait at one shared deposit address, as on Layerswap
 * (TON is wallet-only: one address, each swap told apart by its comment); a masterchain block
 * every 2.5 s (real time); a USDT deposit with a waiting swap's comment every 5 s. The watcher runs
 * with its defaults (head every 2 s, at most 1 request a second on average: toncenter's keyless
 * limit). Requests are counted at the RPC; deposit -> reported is timed from the transfer's send.
 */

const USDT = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';
const BLOCK_MS = 2_500;
const DEPOSIT_EVERY_MS = 5_000;

export async function runTonChain(opts: { windowMs: number }): Promise<Section> {
  const section = emptySection(14, 'TON chain watch (requests per minute)');
  const address = fakeAddress('ton', 'deposit:TON_MAINNET');
  const perMinute: Record<number, number> = {};
  const latencies: number[] = [];
  for (const n of [1, 100, 1000]) {
    // A fresh chain per size: the in-process emulator slows down as a run goes on (fewer ticks
    // later in one chain's life, whatever the swaps), which would pass for a cost of the size.
    const ton = await startSandboxTon({ jettons: [USDT], blockMs: BLOCK_MS });
    try {
      const sentAt = new Map<string, number>();
      const watcher = createTonWatcher({
        rpcs: new Map([['TON_MAINNET', ton.url]]),
        events: {
          accept: (e, t) => t.memo === e.memo,
          transfer: (e) => {
            const at = sentAt.get(e.swapId);
            if (at === undefined) return;
            sentAt.delete(e.swapId);
            latencies.push((performance.now() - at) / 1000);
          },
          head: () => undefined,
          health: () => undefined,
        },
      });
      const memos: string[] = [];
      for (let i = 0; i < n; i++) {
        const memo = `${n}-${i}`;
        memos.push(memo);
        watcher.watch({
          swapId: memo,
          network: 'TON_MAINNET',
          address,
          token: { symbol: 'USDT', contract: USDT, decimals: 6 },
          memo,
        });
      }
      // Settle (the first read of the address), then count over the window.
      await new Promise((r) => setTimeout(r, 3_000));
      const before = total(ton.rpc.counts);
      const t0 = performance.now();
      let k = 0;
      const depositor = setInterval(() => {
        const memo = memos[k++ % memos.length] as string;
        // From the send (a report cannot come before it): the emulator's own time is part of it.
        sentAt.set(memo, performance.now());
        void ton.send(address, { contract: USDT }, 1_000_000n, memo);
      }, DEPOSIT_EVERY_MS);
      await new Promise((r) => setTimeout(r, opts.windowMs));
      clearInterval(depositor);
      perMinute[n] = ((total(ton.rpc.counts) - before) * 60_000) / (performance.now() - t0);
      await watcher.close();
    } finally {
      await ton.close();
    }
  }
  for (const n of [1, 100, 1000])
    section.rows.push({
      figure: `TON watcher, ${n} swap(s) waiting at the shared address: RPC requests`,
      unit: 'req/min',
      value: spread([perMinute[n] ?? NaN]),
    });
  const lat = spread(latencies);
  section.rows.push({ figure: 'TON watcher: USDT deposit sent -> reported with its comment', unit: 's', value: lat });
  section.targets.push({
    text: 'TON watcher: requests per minute do not grow with the swaps waiting (1000 swaps <= 1.5 x one swap)',
    measured: `${fmt(perMinute[1] ?? NaN)} / ${fmt(perMinute[100] ?? NaN)} / ${fmt(perMinute[1000] ?? NaN)} req/min for 1 / 100 / 1000`,
    pass: Number.isFinite(perMinute[1000] ?? NaN) ? (perMinute[1000] ?? 0) <= 1.5 * (perMinute[1] ?? 0) : null,
  });
  section.notes.push(
    `TON row: the sandbox's TON emulator behind a toncenter-shaped RPC (in this process), a masterchain block every ${BLOCK_MS / 1000} s, a deposit every ${DEPOSIT_EVERY_MS / 1000} s, ` +
      `${fmt(opts.windowMs / 1000)} s per size, real time. Per network: getMasterchainInfo every 2 s, and per new block one getTransactions per watched address (a page of 20), ` +
      `plus two get-method calls once per jetton wallet that notifies. Swaps with their own addresses would add one getTransactions per address per block.`,
  );
  return section;
}

const total = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

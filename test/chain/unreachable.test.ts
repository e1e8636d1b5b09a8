import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmWatcher } from '../../src/chain/evm.js';
import type { ChainWatcher, WatchEntry } from '../../src/chain/watcher.js';
import { listen, type Listening } from '../../src/http.js';
import { memoryLogger } from '../support/log.js';
import { waitFor } from '../support/wait.js';

/**
 * CHAIN_WATCH=auto against a catalogue whose node URLs cannot be reached (a sandbox run without
 * --chain lists public mainnet nodes; offline, none answers): the watcher says so in one log
 * line for all of them, hands the swaps to the API's polling (health down), and tries such an
 * RPC again only seldom, even when new swaps are watched meanwhile.
 */

const USDC: WatchEntry['token'] = { symbol: 'USDC', contract: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', decimals: 6 };
const RETRY_MS = 1_500;

describe('RPC nodes that never answer', () => {
  const servers: Listening[] = [];
  /** When each dead node was asked, by node. */
  const asked = new Map<string, number[]>();
  const down = new Set<string>();
  const log = memoryLogger();
  let watcher: ChainWatcher;

  beforeAll(async () => {
    const rpcs = new Map<string, string>();
    for (const name of ['ETHEREUM_MAINNET', 'ARBITRUM_MAINNET', 'BASE_MAINNET']) {
      asked.set(name, []);
      // Accepts the connection and hangs up: what a node out of reach amounts to, counted.
      const server = createServer((req) => {
        asked.get(name)?.push(Date.now());
        req.socket.destroy();
      });
      const l = await listen(server, { port: 0, host: '127.0.0.1' });
      servers.push(l);
      rpcs.set(name, l.url);
    }
    watcher = createEvmWatcher({
      rpcs,
      pollMs: 20,
      unreachableRetryMs: RETRY_MS,
      logger: log.logger,
      events: { transfer: () => undefined, head: () => undefined, health: (n, up) => void (up ? down.delete(n) : down.add(n)) },
    });
  });
  afterAll(async () => {
    await watcher?.close();
    for (const s of servers) await s.close({ force: true });
  });

  it('logs one line for all of them, falls back to polling, and does not hammer them', async () => {
    let n = 0;
    for (const network of asked.keys())
      watcher.watch({ swapId: `s${++n}`, network, address: `0x${n.toString(16).padStart(40, '0')}`, token: USDC });
    await waitFor(() => down.size === 3, 'every network handed to the API polling');
    for (const network of asked.keys()) expect(watcher.healthy(network)).toBe(false);
    const warnings = log.lines.filter((l) => l.includes('"level":40'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('chain RPC unreachable: deposits are followed by polling the API');
    // The URLs (they may carry a key) are never logged.
    for (const s of servers) expect(log.lines.join('\n')).not.toContain(s.url);

    // A new swap on a network that never answered does not try it at once.
    const eth = asked.get('ETHEREUM_MAINNET') ?? [];
    const before = eth.length;
    const downAt = eth.at(-1) ?? 0;
    watcher.unwatch('s1');
    watcher.watch({ swapId: 's4', network: 'ETHEREUM_MAINNET', address: `0x${'4'.padStart(40, '0')}`, token: USDC });
    // Its next try comes after the long pause (at the 20 ms poll it would have come within ~100 ms).
    await waitFor(() => eth.length > before, 'the seldom retry');
    expect((eth[before] ?? 0) - downAt).toBeGreaterThanOrEqual(RETRY_MS - 20);
    expect(log.lines.filter((l) => l.includes('"level":40'))).toHaveLength(1);
  });
});

import { fmt, spread } from './stats.js';
import type { Section } from './report.js';
import type { ChainReadings } from './sandbox-child.js';

/**
 * Part 5's chain row: webhooks and the chain watcher on a local EDR node (the sandbox's EVM
 * networks on one chain, a block every confirmation interval, deposits sent as real ERC-20
 * transfers). Deposit -> first card and each confirmation -> card are timed from the blocks
 * themselves (each block's sandbox time is kept when it is mined); the bot's RPC requests are
 * counted at a proxy in front of the node.
 */

export interface ChainPhase {
  swaps: Array<{ id: string; chat: string; depositAt: number }>;
  /** GET /swaps/{id} per swap (the worker's own count). */
  requests: number[];
  /** Per swap, the sandbox time of each of those requests. */
  times: number[][];
  cards: Map<string, Array<{ at: number; shown: number }>>;
  readings: ChainReadings;
  confirmations: number;
  blockMs: number;
  speed: number;
}

export function chainRows(section: Section, r: ChainPhase): void {
  const blockAt = new Map(r.readings.blocks);
  const deposit: number[] = [];
  const conf: number[] = [];
  for (const s of r.swaps) {
    const cards = r.cards.get(s.chat) ?? [];
    const first = cards.find((c) => c.shown >= 0);
    deposit.push(first ? (first.at - s.depositAt) / 1000 : NaN);
    const block = r.readings.deposits[s.id];
    if (block === undefined) continue;
    // Confirmation k is block (deposit's + k - 1); the card shows it once it says k or more.
    for (let k = 2; k <= r.confirmations; k++) {
      const at = blockAt.get(block + k - 1);
      const shown = cards.find((c) => c.shown >= k);
      if (at !== undefined) conf.push(shown ? (shown.at - at) / 1000 : NaN);
    }
  }
  const numbers = r.readings.blocks.map(([n]) => n);
  const blocks = numbers.length ? Math.max(...numbers) - Math.min(...numbers) + 1 : NaN;
  const req = spread(r.requests);
  const dep = spread(deposit);
  const lag = spread(conf);
  const rpcPerSwap = r.readings.rpcRequests / Math.max(1, r.swaps.length);
  const rpcPerBlock = r.readings.rpcRequests / blocks;
  const meanReq = r.requests.reduce((a, b) => a + b, 0) / Math.max(1, r.requests.length);
  // Where the requests go: before the deposit, while it confirms (up to its last confirmation's block), after.
  const phases = [0, 0, 0];
  r.swaps.forEach((s, i) => {
    const block = r.readings.deposits[s.id];
    const confirmedAt = block === undefined ? undefined : blockAt.get(block + r.confirmations - 1);
    for (const at of r.times[i] ?? []) phases[at < s.depositAt ? 0 : confirmedAt === undefined || at < confirmedAt ? 1 : 2]! += 1;
  });
  const byPhase = phases.map((x) => fmt(x / Math.max(1, r.swaps.length))).join(' / ');
  section.rows.push(
    {
      figure: `typical, webhooks + chain watcher (local EDR node): GET /swaps/{id} per swap (mean ${fmt(meanReq)}; before the deposit / confirming / confirmed: ${byPhase})`,
      unit: 'req/swap',
      value: req,
    },
    { figure: 'typical, webhooks + chain watcher: deposit (its block mined) -> first card showing it', unit: 'sandbox s', value: dep },
    { figure: 'typical, webhooks + chain watcher: each confirmation (block mined) -> card showing it', unit: 'sandbox s', value: lag },
    {
      figure: `typical, webhooks + chain watcher: RPC requests per swap (${fmt(rpcPerSwap)}) and per network block`,
      unit: 'req/block',
      value: spread([rpcPerBlock]),
    },
  );
  const blockS = r.blockMs / 1000;
  section.targets.push(
    {
      text: 'webhooks + chain watcher: <= 4 GET /swaps/{id} per typical swap (mean; issue 38)',
      measured: `${fmt(meanReq)} mean, ${fmt(req.max)} worst`,
      pass: Number.isFinite(meanReq) ? meanReq <= 4 : null,
    },
    {
      text: 'webhooks + chain watcher: deposit -> first card median <= 3 s, worst <= 8 s (sandbox time)',
      measured: `${fmt(dep.median)} s median, ${fmt(dep.max)} s worst`,
      pass: Number.isFinite(dep.max) ? dep.median <= 3 && dep.max <= 8 : null,
    },
    {
      text: `webhooks + chain watcher: each confirmation on the card within one block (${fmt(blockS)} s)`,
      measured: `${fmt(lag.median)} s median, ${fmt(lag.max)} s worst`,
      pass: Number.isFinite(lag.max) ? lag.max <= blockS : null,
    },
  );
  section.notes.push(
    `chain row: ${r.swaps.length} swaps on a local EDR node (Hardhat's EVM, in the sandbox's process), a block every ${fmt(blockS)} sandbox s (${fmt(r.blockMs / r.speed)} real ms) plus one per deposit (automine); ` +
      `the watcher reads the head every ${fmt(Math.max(20, 2000 / r.speed))} real ms (its 2 s default, compressed x${r.speed}) and its requests to the RPC are ${fmt(100 / r.speed)} real ms apart on average (its 100 ms default, compressed alike); a transfer's receipt is asked for when it is found and when it is final, and between them one eth_getLogs per head re-checks every confirming token transfer together (a receipt each per head before: ten confirming swaps took a second of the RPC's rate per block); ${r.readings.rpcRequests} RPC requests over ${blocks} blocks.`,
  );
}

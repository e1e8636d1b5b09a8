import { createServer, request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { trackingRenderer } from '../../../src/bot/renderer.js';
import { solanaGenesis } from '../../../src/chain/solana/watcher.js';
import type { ChatTarget } from '../../../src/contracts/incoming.js';
import { listen, type Listening } from '../../../src/http.js';
import type { LayerswapClient } from '../../../src/layerswap/client.js';
import type { CreateSwapParams } from '../../../src/layerswap/params.js';
import type { Logger } from '../../../src/log.js';
import { ManualClock, type SandboxServer } from '../../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../../src/tracking/engine.js';
import { memoryLogger } from '../../support/log.js';
import { testRedisUrl, uniquePrefix } from '../../support/redis.js';
import { setUp } from '../../support/set-up.js';
import { waitFor, WAIT_MS } from '../../support/wait.js';
import { RecordingMessenger } from '../../tracking/support/recording-messenger.js';
import { raw } from '../../sandbox/support.js';
import { sandboxClient, startChainSandbox } from './chain-stack.js';

/**
 * The fault tests' set-up for the non-EVM families (Solana, TON), beside chain-stack.ts (EVM's):
 * a tracker that reads a network through a given RPC URL (CHAIN_RPC_URLS=NAME=url) and learns
 * the network from the sandbox's catalogue as a bot does (its type, Solana's genesis hash, the
 * confirmations and tokens); an HTTP proxy in front of a chain's RPC that a test can cut (the
 * provider gone); the cards a chat was sent; and a fault test file's whole stack (`useFamilyStack`).
 */

/** A proxy that pipes every request to `target`'s host; closing it with `force` cuts the RPC mid-swap. */
async function cuttableRpc(target: string): Promise<Listening> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const out = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  const l = await listen(server, { port: 0, host: '127.0.0.1' });
  // The target's own path (toncenter's /api/v2/jsonRPC): the proxy's URL is the RPC's URL with the proxy's host.
  const path = new URL(target).pathname.replace(/\/$/, '');
  return { port: l.port, url: `${l.url}${path}`, close: (opts) => l.close(opts) };
}

export interface FamilyTrackingOptions {
  client: LayerswapClient;
  clock: ManualClock;
  prefix: string;
  /** The network watched and the RPC it is read through. */
  network: string;
  rpcUrl: string;
  messenger: RecordingMessenger;
  logger?: Logger;
}

/** A started tracker (API polls a minute apart on `clock`: what moves a card sooner is the chain or a test's poll). */
async function startFamilyTracking(o: FamilyTrackingOptions): Promise<Tracking> {
  const tracking = createTracking({
    redis: testRedisUrl(),
    prefix: o.prefix,
    api: o.client,
    limits: { maxPerChat: 100, maxPerUser: 100 },
    cadence: { fastMs: 60_000, slowMs: 60_000, stuckFactor: 4 },
    now: () => o.clock.now(),
    apiRate: { max: 100_000, duration: 1000 },
    ...(o.logger ? { logger: o.logger } : {}),
    chain: {
      evmRpcs: new Map([[o.network, o.rpcUrl]]),
      pollMs: 50,
      network: async (name) => {
        const n = (await o.client.getNetworks()).find((x) => x.name === name);
        if (!n) return undefined;
        const genesisHash = solanaGenesis(n.name, n.chain_id);
        // As the runtime reads it (src/app/runtime.ts): a count only when the catalogue gives one, else the service's later.
        const required = (n as { max_confirmations?: unknown }).max_confirmations;
        return {
          ...(typeof required === 'number' ? { required } : {}),
          family: n.type ?? undefined,
          ...(n.type === 'solana' && genesisHash ? { genesisHash } : {}),
          tokens: n.tokens.map((t) => ({ symbol: t.symbol, contract: t.contract ?? null, decimals: t.decimals ?? 9 })),
        };
      },
    },
  });
  await tracking.startWorkers({ messengers: { console: o.messenger }, render: trackingRenderer });
  return tracking;
}

export interface Followed {
  id: string;
  chatId: string;
  address: string;
  /** TON's comment (memo) the deposit must carry. */
  comment: string | undefined;
}

/** A swap made with `params`, followed by its creator from the console chat `chatId` once its first poll has read it. */
async function followNew(tracking: Tracking, client: LayerswapClient, params: CreateSwapParams, chatId: string): Promise<Followed> {
  const details = await client.createSwap(params);
  const action = details.deposit_actions?.[0];
  const callData = JSON.parse(action?.call_data ?? '{}') as { comment?: string };
  const chat: ChatTarget = { platform: 'console', chatId, chatKind: 'private' };
  await tracking.service.follow(details.swap.id, chat, { userId: `u-${chatId}`, creator: true });
  await waitFor(() => tracking.swapState(details.swap.id), 'the first poll');
  return { id: details.swap.id, chatId, address: action?.to_address ?? '', comment: callData.comment };
}

/** The sandbox sends the swap's deposit as a real transfer on its chain (with its comment on TON). */
export async function sendDeposit(sandbox: SandboxServer, swapId: string): Promise<void> {
  const res = await raw(sandbox.url, `/sandbox/swaps/${swapId}/deposit`, { key: sandbox.apiKey, method: 'POST', body: {} });
  if (res.status !== 200) throw new Error(`deposit refused: ${res.status}`);
}

/** What `chatId` was sent, in order: each message or edit as its op and JSON (reactions left out). */
export function sentTo(messenger: RecordingMessenger, chatId: string): Array<{ op: string; text: string }> {
  return messenger.log.filter((r) => r.chatId === chatId && r.op !== 'react').map((r) => ({ op: r.op, text: JSON.stringify(r.reply) }));
}

/** The "Deposit seen" messages `chatId` was sent (the card's own line aside). */
export function depositSeenMessages(messenger: RecordingMessenger, chatId: string): number {
  return sentTo(messenger, chatId).filter((c) => c.op === 'send' && c.text.includes('"title":"Deposit seen"')).length;
}

/** Waits for a card or message in `chatId` saying `text` (a string or a pattern). */
export function cardSays(messenger: RecordingMessenger, chatId: string, text: string | RegExp, what: string): Promise<string> {
  const says = (t: string) => (typeof text === 'string' ? t.includes(text) : text.test(t));
  return waitFor(() => sentTo(messenger, chatId).find((c) => says(c.text))?.text, what);
}

/** A fault test file's stack for one network: the sandbox on its chains (payouts on `clock`), its client, and the workers started. */
export interface FamilyStack {
  clock: ManualClock;
  sandbox: SandboxServer;
  client: LayerswapClient;
  /** A worker reading the network through `rpcUrl`; closed with the stack. */
  worker(prefix: string, rpcUrl: string, messenger: RecordingMessenger, logger?: Logger): Promise<Tracking>;
  /** A swap on the network with a fresh destination, followed from `chatId`. */
  follow(tracking: Tracking, chatId: string): Promise<Followed>;
  status(tracking: Tracking, id: string): Promise<string | undefined>;
  /** The sandbox's payout delay passes on its clock; each swap's next API poll (standing for the cadence's) sees it complete. */
  payOut(tracking: Tracking, swaps: readonly Followed[]): Promise<void>;
  /**
   * A worker reading `target` through a proxy with two swaps; `seen`'s deposit is on its card
   * (`seenCard`), then the proxy is cut: the fallback is logged (never the URL) and the API is
   * polled at once. `blind` has not been paid yet.
   */
  cutMidSwap(
    target: string,
    seenCard: string,
  ): Promise<{ tracking: Tracking; messenger: RecordingMessenger; seen: Followed; blind: Followed }>;
  close(): Promise<void>;
}

/** Started before the file's tests and closed after them; `swap` is the swap every `follow` makes (its destination aside). */
export function useFamilyStack(network: string, swap: Omit<CreateSwapParams, 'destination_address'>, addressDigit: string): FamilyStack {
  const clock = new ManualClock();
  const running: Tracking[] = [];
  let n = 0;
  return setUp(async () => {
    const sandbox = await startChainSandbox(clock);
    const client = sandboxClient(sandbox, WAIT_MS);
    const status = async (tracking: Tracking, id: string) => (await tracking.swapState(id))?.status;
    const worker: FamilyStack['worker'] = async (prefix, rpcUrl, messenger, logger) => {
      const t = await startFamilyTracking({ client, clock, prefix, network, rpcUrl, messenger, ...(logger ? { logger } : {}) });
      running.push(t);
      return t;
    };
    const follow: FamilyStack['follow'] = (tracking, chatId) =>
      followNew(tracking, client, { ...swap, destination_address: `0x${(++n).toString(16).padStart(40, addressDigit)}` }, chatId);
    return {
      clock,
      sandbox,
      client,
      worker,
      follow,
      status,
      async payOut(tracking, swaps) {
        clock.advance(60_000);
        for (const s of swaps) await tracking.service.pollNow(s.id);
        for (const s of swaps) await waitFor(async () => (await status(tracking, s.id)) === 'completed', `${s.chatId} completed`);
      },
      async cutMidSwap(target, seenCard) {
        const rpc = await cuttableRpc(target);
        const log = memoryLogger();
        const messenger = new RecordingMessenger('console');
        const tracking = await worker(uniquePrefix('family-cut'), rpc.url, messenger, log.logger);
        const seen = await follow(tracking, 'cut-seen');
        const blind = await follow(tracking, 'cut-blind');
        await sendDeposit(sandbox, seen.id);
        await cardSays(messenger, seen.chatId, seenCard, 'the deposit seen on chain before the cut');
        // The provider goes away. A poll no one asked for (the cadence's next is a minute away) follows at once for
        // the swap still watched: `blind`, waiting for its deposit (`seen`'s watch ended when the service took its deposit).
        clock.advance(1_000);
        const cutAt = clock.now();
        await rpc.close({ force: true });
        await waitFor(() => log.lines.some((l) => l.includes('chain RPC failing: falling back to polling the API')), 'the fallback logged');
        await waitFor(async () => (await tracking.swapState(blind.id))?.lastPolledAt === cutAt, 'the API poll after the RPC died');
        expect(log.lines.join('\n')).not.toContain(rpc.url);
        return { tracking, messenger, seen, blind };
      },
      async close() {
        for (const t of running) await t.close();
        await client.close();
        await sandbox.close();
      },
    };
  });
}

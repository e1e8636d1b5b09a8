import { trackingRenderer } from '../../../src/bot/renderer.js';
import type { ChatTarget, MessageRef } from '../../../src/contracts/incoming.js';
import { DeliveryError, type Messenger } from '../../../src/contracts/messenger.js';
import type { Reply } from '../../../src/contracts/reply.js';
import { LayerswapClient } from '../../../src/layerswap/client.js';
import { NETWORKS } from '../../../src/sandbox/catalog.js';
import { createTracking } from '../../../src/tracking/engine.js';

/**
 * A tracking worker with the chain watch, in its own process (run with
 * test/tracking/support/ts-register.mjs), so a test can SIGKILL it while it holds a network's
 * watch job. Cards go to the test's DeliverySink over HTTP (the real renderer, so the card says
 * what a user reads); its clock mirrors the sink's (the test's sandbox clock). RPCS is a JSON
 * object of network name -> RPC URL (the test's proxies); CHAIN_POLL_MS the head interval.
 * Prints "ready" once its workers run.
 */

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`watch-worker needs ${name}`);
  return v;
};
const sink = env('SINK_URL');

const post = async (path: string, body: unknown): Promise<MessageRef> => {
  const res = await fetch(`${sink}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  if (!res.ok) throw new DeliveryError('console', 'transient', `sink answered ${res.status}`);
  return (await res.json()) as MessageRef;
};
const messenger: Messenger = {
  platform: 'console',
  send: (target: ChatTarget, reply: Reply) => post('/send', { target, reply }),
  edit: (ref: MessageRef, reply: Reply) => post('/edit', { ref, reply }),
};

let clock = 0;
const syncClock = async () => {
  clock = Number(await (await fetch(`${sink}/clock`)).text());
};
await syncClock();
setInterval(() => void syncClock().catch(() => undefined), 10).unref();

const evm = NETWORKS.filter((x) => x.type === 'evm');
const tracking = createTracking({
  redis: env('REDIS_URL'),
  prefix: env('PREFIX'),
  api: new LayerswapClient({ baseUrl: env('SANDBOX_URL'), apiKey: env('SANDBOX_KEY'), maxRetries: 0 }),
  limits: { maxPerChat: 1000, maxPerUser: 1000 },
  cadence: { fastMs: 30_000, slowMs: 30_000, stuckFactor: 4 },
  now: () => clock,
  apiRate: { max: 100_000, duration: 1000 },
  // A poll job the killed worker held comes back soon (the chain watch job has its own lock: chain-start.ts).
  workers: { lockDurationMs: 1000, stalledIntervalMs: 500 },
  chain: {
    evmRpcs: new Map(Object.entries(JSON.parse(env('RPCS')) as Record<string, string>)),
    pollMs: Number(env('CHAIN_POLL_MS')),
    network: async (name) => {
      const net = evm.find((x) => x.name === name);
      return net ? { required: net.max_confirmations, chainId: 31337, tokens: net.tokens } : undefined;
    },
  },
});
await tracking.startWorkers({ messengers: { console: messenger }, render: trackingRenderer });
process.on('SIGTERM', () => {
  void tracking.close().then(() => process.exit(0));
});
process.stdout.write('ready\n');

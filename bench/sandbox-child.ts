import { startSandbox } from '../src/sandbox/server.js';
import { ManualClock, type SandboxClock, type SandboxTimings, type SandboxWebhookOptions } from '../src/sandbox/types.js';
import { scaledNow, type ScaledTime } from './clock.js';
import { memoryMb, serve } from './ipc.js';
import { createServer } from 'node:http';
import { listen, readBody, type Listening } from '../src/http.js';

let apiKey = '';

/**
 * The sandbox in its own process, on a clock the parent moves: by hand (parts 1-4, 6: a status
 * change happens at the instant the parent says, so update latency is measured from a known
 * moment, and swaps the parent did not touch never change), or scaled from a common origin
 * (part 5: lifecycles of minutes to hours, with Svix-signed webhooks). Started by run.js; not
 * meant to be run alone.
 */

const manual = new ManualClock(Date.UTC(2026, 0, 1));
let clock: SandboxClock = manual;
let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;

const need = () => {
  if (!sandbox) throw new Error('sandbox not started');
  return sandbox;
};

export interface SandboxStart {
  apiKey: string;
  timings: Partial<SandboxTimings>;
  port?: number;
  /** A scaled clock instead of the hand-moved one; setTime() moves it to a new speed. */
  scaled?: ScaledTime;
  webhook?: SandboxWebhookOptions;
  /** Part 5's chain row: the EVM networks on a local node mining a block every blockMs (real ms). */
  chain?: { blockMs: number };
}

/** The chain row's readings: each block's sandbox time, each deposit's block, the bot's RPC requests. */
export interface ChainReadings {
  blocks: Array<[number, number]>;
  deposits: Record<string, number>;
  rpcRequests: number;
  rpcUrl: string;
}
const chainState: ChainReadings = { blocks: [], deposits: {}, rpcRequests: 0, rpcUrl: '' };
let miner: NodeJS.Timeout | undefined;
/**
 * The miner's blocks and the deposits' transfers one at a time, each with its block number read
 * before the next: read concurrently, a block mined in between was taken for the deposit's (a
 * confirmation then seemed shown before its block, a negative lag).
 */
let turn: Promise<unknown> = Promise.resolve();
function inTurn<T>(run: () => Promise<T>): Promise<T> {
  const next = turn.then(run, run);
  turn = next.catch(() => undefined);
  return next;
}
let proxy: Listening | undefined;

async function rpcCall(url: string, method: string, params: unknown[] = []): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: string }).result;
}

/** The bot's RPC: forwards to the node, counting JSON-RPC calls (a batch counts each call). */
async function countingProxy(target: string): Promise<Listening> {
  const server = createServer((req, res) => {
    void readBody(req, 4 * 1024 * 1024)
      .then(async (body) => {
        const parsed = JSON.parse(body.toString('utf8')) as unknown;
        chainState.rpcRequests += Array.isArray(parsed) ? parsed.length : 1;
        const up = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        res.writeHead(up.status, { 'content-type': 'application/json' }).end(Buffer.from(await up.arrayBuffer()));
      })
      .catch(() => res.destroy());
  });
  return listen(server, { port: 0, host: '127.0.0.1' });
}

serve(
  {
    async start(args: SandboxStart) {
      apiKey = args.apiKey;
      if (args.scaled) {
        let now = scaledNow(args.scaled);
        clock = { now: () => now() };
        setTime = (t) => (now = scaledNow(t));
      }
      sandbox = await startSandbox({
        apiKey: args.apiKey,
        clock,
        timings: args.timings,
        ...(args.port ? { port: args.port } : {}),
        ...(args.webhook ? { webhook: args.webhook } : {}),
        ...(args.chain ? { chain: { blockMs: 0 } } : {}),
      });
      const chain = sandbox.chain;
      if (args.chain && chain?.node) {
        const node = chain.node;
        proxy = await countingProxy(chain.url);
        chainState.rpcUrl = proxy.url;
        // Blocks on the sandbox's clock: each one's time is kept for the confirmation lags.
        miner = setInterval(
          () =>
            void inTurn(async () => {
              await node.mine();
              chainState.blocks.push([Number(await rpcCall(chain.url, 'eth_blockNumber')), clock.now()]);
            }).catch(() => undefined),
          args.chain.blockMs,
        );
      }
      return { url: sandbox.url, ...(chainState.rpcUrl ? { rpcUrl: chainState.rpcUrl } : {}) };
    },
    advance(ms: number) {
      manual.advance(ms);
      return manual.now();
    },
    setTime(t: ScaledTime) {
      setTime(t);
      return clock.now();
    },
    now: () => clock.now(),
    /** Deposits now; returns the sandbox time of each deposit. */
    async deposit(ids: string[]) {
      const at: number[] = [];
      const chain = need().chain;
      for (const id of ids) {
        if (chain) {
          // A real transfer (the sandbox's deposit endpoint on its chain), mined when this answers.
          await inTurn(async () => {
            const res = await fetch(`${need().url}/sandbox/swaps/${id}/deposit`, {
              method: 'POST',
              headers: { 'x-ls-apikey': apiKey, 'content-type': 'application/json' },
              body: '{}',
            });
            if (!res.ok) throw new Error(`deposit on chain: ${res.status}`);
            at.push(clock.now());
            const block = Number(await rpcCall(chain.url, 'eth_blockNumber'));
            chainState.deposits[id] = block;
            chainState.blocks.push([block, clock.now()]);
          });
          continue;
        }
        at.push(clock.now());
        need().deposit(id);
      }
      return at;
    },
    chainReadings: () => chainState,
    count(operation?: string) {
      return need().requestCount(operation);
    },
    webhookStats: () => need().webhookStats(),
    memory: () => memoryMb(),
  },
  async () => {
    if (miner) clearInterval(miner);
    await proxy?.close({ force: true });
    await sandbox?.close();
  },
);

let setTime: (t: ScaledTime) => void = () => {
  throw new Error('the sandbox runs on the hand-moved clock');
};

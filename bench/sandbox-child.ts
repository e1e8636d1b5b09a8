import { startSandbox } from '../src/sandbox/server.js';
import { ManualClock, type SandboxClock, type SandboxTimings, type SandboxWebhookOptions } from '../src/sandbox/types.js';
import { scaledNow, type ScaledTime } from './clock.js';
import { memoryMb, serve } from './ipc.js';

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
}

serve(
  {
    async start(args: SandboxStart) {
      if (args.scaled) {
        let now = scaledNow(args.scaled);
        clock = { now: () => now() };
        setTime = (t) => (now = scaledNow(t));
      }
      sandbox = await startSandbox({ apiKey: args.apiKey, clock, timings: args.timings, ...(args.port ? { port: args.port } : {}), ...(args.webhook ? { webhook: args.webhook } : {}) });
      return { url: sandbox.url };
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
    deposit(ids: string[]) {
      const at: number[] = [];
      for (const id of ids) {
        at.push(clock.now());
        need().deposit(id);
      }
      return at;
    },
    count(operation?: string) {
      return need().requestCount(operation);
    },
    webhookStats: () => need().webhookStats(),
    memory: () => memoryMb(),
  },
  async () => {
    await sandbox?.close();
  },
);

let setTime: (t: ScaledTime) => void = () => {
  throw new Error('the sandbox runs on the hand-moved clock');
};

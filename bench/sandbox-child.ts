import { startSandbox } from '../src/sandbox/server.js';
import { ManualClock, type SandboxTimings } from '../src/sandbox/types.js';
import { memoryMb, serve } from './ipc.js';

/**
 * The sandbox in its own process, on a clock the parent moves by hand: a status change happens
 * at the instant the parent says, so update latency is measured from a known moment, and swaps
 * the parent did not touch never change. Started by run.js; not meant to be run alone.
 */

const clock = new ManualClock(Date.UTC(2026, 0, 1));
let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;

const need = () => {
  if (!sandbox) throw new Error('sandbox not started');
  return sandbox;
};

serve(
  {
    async start(args: { apiKey: string; timings: Partial<SandboxTimings> }) {
      sandbox = await startSandbox({ apiKey: args.apiKey, clock, timings: args.timings });
      return { url: sandbox.url };
    },
    advance(ms: number) {
      clock.advance(ms);
      return clock.now();
    },
    deposit(ids: string[]) {
      for (const id of ids) need().deposit(id);
      return ids.length;
    },
    count(operation?: string) {
      return need().requestCount(operation);
    },
    memory: () => memoryMb(),
  },
  async () => {
    await sandbox?.close();
  },
);

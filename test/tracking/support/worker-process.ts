import type { ChatTarget, MessageRef, Platform } from '../../../src/contracts/incoming.js';
import { DeliveryError, type Messenger, type SendOptions } from '../../../src/contracts/messenger.js';
import type { Reply } from '../../../src/contracts/reply.js';
import { LayerswapClient } from '../../../src/layerswap/client.js';
import { createTracking } from '../../../src/tracking/engine.js';
import { testRenderer } from './card.js';

/**
 * A tracking worker in its own process (run with ts-register.mjs), delivering to the test's
 * DeliverySink over HTTP. Settings come from the environment; it prints "ready" once its workers
 * run, and drains on SIGTERM like `swapbot worker`. KILL_AFTER_SEND=n kills it (SIGKILL) right
 * after the nth new message was accepted by the sink and before it is recorded; IDEMPOTENT=1 makes
 * its messenger pass idempotency keys (the sink then deduplicates like Discord's enforce_nonce).
 */

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`worker-process needs ${name}`);
  return v;
};
const sink = env('SINK_URL');

class HttpMessenger implements Messenger {
  readonly idempotentSends = process.env.IDEMPOTENT === '1';
  constructor(readonly platform: Platform) {}
  private async post(path: string, body: unknown): Promise<MessageRef> {
    let res: Response;
    try {
      res = await fetch(`${sink}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    } catch (err) {
      throw new DeliveryError(this.platform, 'transient', 'sink unreachable', { cause: err });
    }
    if (!res.ok) throw new DeliveryError(this.platform, 'transient', `sink answered ${res.status}`);
    return (await res.json()) as MessageRef;
  }
  send(target: ChatTarget, reply: Reply, options?: SendOptions): Promise<MessageRef> {
    return this.post('/send', {
      target,
      reply,
      ...(this.idempotentSends && options?.idempotencyKey ? { key: options.idempotencyKey } : {}),
    });
  }
  edit(ref: MessageRef, reply: Reply): Promise<MessageRef> {
    return this.post('/edit', { ref, reply });
  }
}

// The test's sandbox clock, mirrored: a poll stamped with time t always fetched data at or after t.
let clock = 0;
const syncClock = async () => {
  clock = Number(await (await fetch(`${sink}/clock`)).text());
};
await syncClock();
setInterval(() => void syncClock().catch(() => undefined), 10).unref();

const killAfter = Number(process.env.KILL_AFTER_SEND ?? 0);
let sends = 0;

const tracking = createTracking({
  redis: env('REDIS_URL'),
  prefix: env('PREFIX'),
  api: new LayerswapClient({ baseUrl: env('SANDBOX_URL'), apiKey: env('SANDBOX_KEY'), maxRetries: 0 }),
  limits: { maxPerChat: 1000, maxPerUser: 1000 },
  cadence: { fastMs: 100, slowMs: 200, stuckFactor: 4 },
  now: () => clock,
  apiRate: { max: 100_000, duration: 1000 },
  // One delivery at a time: a kill at a delivery leaves no other delivery half-recorded.
  ...(killAfter > 0
    ? {
        faults: {
          afterSend: () => {
            if (++sends === killAfter) process.kill(process.pid, 'SIGKILL');
          },
        },
      }
    : {}),
  workers: { lockDurationMs: 1000, stalledIntervalMs: 500, notifyConcurrency: 1, notifyBackoffMs: 100 },
});
await tracking.startWorkers({ messengers: { console: new HttpMessenger('console') }, render: testRenderer, concurrency: 5 });
process.on('SIGTERM', () => {
  void tracking.close().then(() => process.exit(0));
});
process.stdout.write('ready\n');

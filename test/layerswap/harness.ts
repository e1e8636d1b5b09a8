import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.js';
import { LayerswapClient, type LayerswapClientOptions } from '../../src/layerswap/client.js';

export const API_KEY = 'sk_test_7f3c9d2e1b4a5f60';

/** A client whose waits are recorded instead of slept, with jitter pinned to none. */
export function testClient(baseUrl: string, options: Partial<LayerswapClientOptions> = {}) {
  const waits: number[] = [];
  const client = new LayerswapClient({
    baseUrl,
    apiKey: API_KEY,
    random: () => 0,
    sleep: async (ms) => void waits.push(ms),
    ...options,
  });
  return { client, waits };
}

/** A pino logger whose lines tests can read; no secrets configured, so leaks would show. */
export function captureLogger(): { logger: Logger; lines: () => string[] } {
  const out: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      out.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  return { logger: createLogger({ destination, level: 'debug' }), lines: () => out };
}

/** Resolves once the condition holds; generous timeout, no timing asserted. */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The rejection of a promise that must reject. */
export async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

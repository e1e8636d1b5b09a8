import { LayerswapClient } from '../../src/layerswap/client.js';
import type { LayerswapClientOptions } from '../../src/layerswap/request-loop.js';
import { setUp } from '../support/set-up.js';
import { startFaultServer, type FaultServer } from './fault-server.js';

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

/** A fresh fault server for each test of the file, closed after it. */
export const useFaultServer = (): FaultServer => setUp(() => startFaultServer(), { each: true });

/** The rejection of a promise that must reject. */
export async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { startHarness, type Harness } from '../tracking/support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * A chain sighting (or a webhook) that asks for a poll while the swap's poll run is between its
 * commit and its rescheduling: pollNow finds the job active, only marks the hint, and the run had
 * already read "no hint" at its commit. The run must answer that hint at once, not at its next
 * slow poll (the chain watcher's first test once waited 20 s for its sighting this way).
 */

const chat: ChatTarget = { platform: 'console', chatId: 'race', chatKind: 'private' };

describe('a poll asked for during a poll run', () => {
  let h: Harness;
  let during: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    h = await startHarness({
      // Slow polls: a second poll within the test's wait can only be the hint's.
      fastMs: 600_000,
      slowMs: 600_000,
      tracking: {
        chain: {
          // An RPC that never answers: the watch registers, the watcher stays unhealthy.
          evmRpcs: new Map([['ARBITRUM_MAINNET', 'http://127.0.0.1:9']]),
          pollMs: 600_000,
          // Called by the first poll's run after its commit, before it reschedules.
          network: async () => {
            const hook = during;
            during = undefined;
            await hook?.();
            return { required: 3, tokens: [] };
          },
        },
      },
    });
    await h.startWorkers();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('polls again at once when the hint came after the run read it', async () => {
    const id = await h.createSwap();
    during = () => h.tracking.service.pollNow(id);
    await h.tracking.service.follow(id, chat, { userId: 'u', creator: true });
    await waitFor(() => h.api.pollsOf(id).length >= 2, 'the poll the hint asked for');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { POLL_QUEUE, pollJobId } from '../../src/tracking/keys.js';
import { startHarness, type Harness } from './support/harness.js';

/**
 * With webhooks trusted, a waiting swap is polled only at the safety interval; a webhook hint
 * polls it at once; confirmations are then polled at the source network's block pace. Without
 * webhooks, the adaptive cadence stays. The sandbox runs on an injected clock; what is asserted is
 * when the poll job is scheduled (the delayed set), so nothing waits for time to pass.
 */

const chat: ChatTarget = { platform: 'console', chatId: 'hooked', chatKind: 'private' };
const SAFETY_MS = 120_000;

/** When the swap's poll job is due (ms since epoch), while it is delayed. */
async function dueAt(h: Harness, swapId: string): Promise<number | undefined> {
  const score = await h.redis.zscore(`${h.keys.bull}:${POLL_QUEUE}:delayed`, pollJobId(swapId));
  return score === null ? undefined : Math.floor(Number(score) / 0x1000);
}

describe('poll cadence with webhooks', () => {
  let hooked: Harness;
  let plain: Harness;
  beforeAll(async () => {
    const cadence = { fastMs: 50, slowMs: 100, stuckFactor: 4 };
    hooked = await startHarness({ tracking: { cadence: { ...cadence, webhooks: { safetyMs: SAFETY_MS, tailMs: 0 } } } });
    plain = await startHarness({ tracking: { cadence } });
    await hooked.startWorkers();
    await plain.startWorkers();
  });
  afterAll(async () => {
    await hooked?.close();
    await plain?.close();
  });

  it('polls a long-waiting swap at the safety interval only, and at once on a webhook', async () => {
    const id = await hooked.createSwap();
    await hooked.tracking.service.follow(id, chat, { userId: 'u' });
    await hooked.settle([id]);
    // In the usual deposit window the swap is still polled at the slow cadence (no webhook
    // announces a deposit that is only seen); past it, only the safety net remains.
    await expect.poll(() => hooked.api.pollsOf(id).length).toBeGreaterThanOrEqual(2);
    hooked.clock.advance(11 * 60_000);
    await hooked.tracking.pollNow(id);
    await expect.poll(async () => ((await dueAt(hooked, id)) ?? 0) - Date.now()).toBeGreaterThan(SAFETY_MS - 10_000);
    const polled = hooked.api.pollsOf(id).length;

    // The deposit arrives and Layerswap says so: the poll runs now, not in two minutes.
    hooked.clock.advance(1_000);
    hooked.sandbox.deposit(id);
    await hooked.tracking.pollNow(id);
    await expect.poll(() => hooked.api.pollsOf(id).length).toBe(polled + 1);
    await hooked.settle([id]);
    expect((await hooked.tracking.swapState(id))?.depositSeenAt).toBeDefined();
    // Confirming on Arbitrum: the next poll comes at its block pace, well before the safety poll.
    await expect.poll(async () => ((await dueAt(hooked, id)) ?? Infinity) - Date.now()).toBeLessThan(2_000);
  });

  it('keeps the adaptive cadence without webhooks', async () => {
    const id = await plain.createSwap();
    await plain.tracking.service.follow(id, chat, { userId: 'u' });
    await plain.settle([id]);
    await expect.poll(() => plain.api.pollsOf(id).length).toBeGreaterThanOrEqual(3);
  });
});

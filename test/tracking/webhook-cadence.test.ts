import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { POLL_QUEUE, pollJobId } from '../../src/tracking/keys.js';
import { startHarness, type Harness } from './support/harness.js';
import { WAIT_MS } from '../support/wait.js';

/**
 * With webhooks trusted, a waiting swap is polled every POLL_WAITING_MS for its first 30 min, then
 * only at the safety interval; a webhook hint or "I've sent it" (TrackingService.pollNow) polls it
 * at once; confirmations are then polled at the swap's block pace (cadence.ts). Without webhooks,
 * the adaptive cadence stays. The sandbox runs on an injected clock; what is asserted is
 * when the poll job is scheduled (the delayed set), so nothing waits for time to pass.
 */

const chat: ChatTarget = { platform: 'console', chatId: 'hooked', chatKind: 'private' };
const SAFETY_MS = 600_000;
const WAITING_MS = 120_000;

/** When the swap's poll job is due (ms since epoch), while it is delayed. */
async function dueAt(h: Harness, swapId: string): Promise<number | undefined> {
  const score = await h.redis.zscore(`${h.keys.queuePrefix(POLL_QUEUE)}:${POLL_QUEUE}:delayed`, pollJobId(swapId));
  return score === null ? undefined : Math.floor(Number(score) / 0x1000);
}

describe('poll cadence with webhooks', () => {
  let hooked: Harness;
  let plain: Harness;
  beforeAll(async () => {
    const cadence = { fastMs: 50, slowMs: 100, stuckFactor: 4 };
    hooked = await startHarness({
      tracking: { cadence: { ...cadence, webhooks: { safetyMs: SAFETY_MS, waitingPollMs: WAITING_MS, tailMs: 0 } } },
    });
    plain = await startHarness({ tracking: { cadence } });
    await hooked.startWorkers();
    await plain.startWorkers();
  });
  afterAll(async () => {
    await hooked?.close();
    await plain?.close();
  });

  /** How long until the swap's next poll, once it is scheduled. */
  const dueIn = async (h: Harness, id: string) => ((await dueAt(h, id)) ?? Infinity) - Date.now();

  it('polls a waiting swap every POLL_WAITING_MS in its first 30 min, then at the safety interval only', async () => {
    const id = await hooked.createSwap();
    await hooked.tracking.service.follow(id, chat, { userId: 'u' });
    await hooked.settle([id]);
    // The deposit window: the waiting poll, well before the safety poll.
    await expect.poll(() => dueIn(hooked, id), { timeout: WAIT_MS }).toBeGreaterThan(WAITING_MS - 10_000);
    expect(await dueIn(hooked, id)).toBeLessThan(SAFETY_MS / 2);
    expect(hooked.api.pollsOf(id)).toHaveLength(1);

    // Nobody paid for 31 minutes (the clock jumps; pollNow stands for the poll coming due).
    hooked.clock.advance(31 * 60_000);
    await hooked.tracking.service.pollNow(id);
    await expect.poll(() => hooked.api.pollsOf(id).length, { timeout: WAIT_MS }).toBe(2);
    await hooked.settle([id]);
    // From now on only the safety poll: the webhook reports whatever happens next.
    await expect.poll(() => dueIn(hooked, id), { timeout: WAIT_MS }).toBeGreaterThan(SAFETY_MS - 10_000);
  });

  it("polls at once when the user says the deposit is sent (I've sent it), then at the block pace", async () => {
    const id = await hooked.createSwap();
    await hooked.tracking.service.follow(id, chat, { userId: 'u' });
    await hooked.settle([id]);
    await expect.poll(() => dueIn(hooked, id), { timeout: WAIT_MS }).toBeGreaterThan(WAITING_MS - 10_000);
    const polled = hooked.api.pollsOf(id).length;

    // The deposit is seen by the service, which sends no webhook for that: the button's poll runs now.
    hooked.clock.advance(1_000);
    hooked.sandbox.deposit(id);
    await hooked.tracking.service.pollNow(id);
    await expect.poll(() => hooked.api.pollsOf(id).length, { timeout: WAIT_MS }).toBe(polled + 1);
    await hooked.settle([id]);
    expect((await hooked.tracking.swapState(id))?.depositSeenAt).toBeDefined();
    // Confirming: the next poll comes at the swap's block pace, sooner than the waiting poll.
    await expect.poll(() => dueIn(hooked, id), { timeout: WAIT_MS }).toBeLessThan(WAITING_MS);
  });

  it("keeps each confirmation count's first and last poll in Redis and aims the next poll by them", async () => {
    const id = await hooked.createSwap();
    await hooked.tracking.service.follow(id, chat, { userId: 'u' });
    await hooked.settle([id]);
    hooked.sandbox.deposit(id);
    const t0 = hooked.clock.now();
    // One poll per block, right on each (the sandbox confirms every 10 s of its clock).
    for (let k = 0; k <= 2; k++) {
      if (k > 0) hooked.clock.advance(10_000);
      const polled = hooked.api.pollsOf(id).length;
      await hooked.tracking.service.pollNow(id);
      await expect.poll(() => hooked.api.pollsOf(id).length, { timeout: WAIT_MS }).toBe(polled + 1);
      await hooked.settle([id]);
    }
    const state = await hooked.tracking.swapState(id);
    expect(state?.confirmationPolls).toEqual([
      [0, t0, t0],
      [1, t0 + 10_000, t0 + 10_000],
      [2, t0 + 20_000, t0 + 20_000],
    ]);
    // Blocks 5-20 s apart fit that evidence, so the 3rd confirmation comes within 20 s of the
    // last poll. It is the last one (it turns the status, and that webhook pulls the poll): the
    // next poll is a backstop just after that window, not the 50-ms fast cadence.
    expect(state?.blockMs).toBeGreaterThan(6_000);
    const dueMs = await dueIn(hooked, id);
    expect(dueMs).toBeGreaterThan(20_000 - 1_000);
    expect(dueMs).toBeLessThanOrEqual(25_000);
  });

  it('keeps the adaptive cadence without webhooks', async () => {
    const id = await plain.createSwap();
    await plain.tracking.service.follow(id, chat, { userId: 'u' });
    await plain.settle([id]);
    await expect.poll(() => plain.api.pollsOf(id).length, { timeout: WAIT_MS }).toBeGreaterThanOrEqual(3);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { targetKey } from '../../src/tracking/keys.js';
import { startHarness, type Harness } from './support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * SIGTERM in `swapbot worker` calls close(): the job in hand finishes (its chat gets everything
 * that job owed it), no other job starts, connections close; what is left waits in Redis for
 * the next worker.
 */

/** Whether close() has reached every BullMQ worker (Worker.closing is set the moment it does). */
function workersClosing(h: Harness): boolean {
  const { workers } = h.tracking as unknown as { workers: Array<{ closing?: Promise<void> }> };
  return workers.length > 0 && workers.every((w) => w.closing !== undefined);
}

describe('closing the engine', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ tracking: { workers: { notifyConcurrency: 1 } } });
    await h.startWorkers();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('finishes the delivery in hand and starts nothing new', async () => {
    const chats: ChatTarget[] = ['d1', 'd2', 'd3'].map((chatId) => ({ platform: 'console', chatId, chatKind: 'private' }));
    const ids: string[] = [];
    for (const c of chats) {
      const id = await h.createSwap();
      ids.push(id);
      await h.tracking.service.follow(id, c, { userId: c.chatId });
    }
    await h.settle(ids);

    const m = h.messengers.console;
    // The platform holds the first delivery until close() has reached the workers: close() lands
    // mid-delivery however slow the machine (a 300 ms delay here raced a loaded machine).
    const release = m.hold();
    const startedBefore = m.started.length;
    h.clock.advance(1_000);
    for (const id of ids) h.sandbox.deposit(id);
    await waitFor(() => m.started.length > startedBefore, 'a delivery in flight');
    const inHand = m.started.at(-1)?.chatId as string;
    const i = chats.findIndex((c) => c.chatId === inHand);
    const id = ids[i] as string;
    // What the job in hand is delivering: the swap's state as it read it (a poll job in hand at
    // close() may still commit a newer one, which waits for the next worker like the others).
    const owed = { version: (await h.store.load(id))?.version ?? 0, moments: (await h.store.snapshotFor(id, '')).moments.length };
    const closed = h.tracking.close();
    await waitFor(() => workersClosing(h), 'close() to stop the workers taking new jobs');
    release();
    await closed;

    // The chat whose job was in hand got its card and its key message.
    const got = (await h.deliveries(id)).get(targetKey(chats[i] as ChatTarget));
    expect(got?.version).toBeGreaterThanOrEqual(owed.version);
    expect(got?.moments).toBeGreaterThanOrEqual(owed.moments);
    expect(owed.moments).toBeGreaterThan(0);
    // No other chat's job was started: they wait for the next worker.
    expect(new Set(m.started.slice(startedBefore).map((s) => s.chatId))).toEqual(new Set([inHand]));
    const behind = await Promise.all(ids.filter((_, k) => k !== i).map((id) => h.isSettled(id)));
    expect(behind).toEqual([false, false]);
  });
});

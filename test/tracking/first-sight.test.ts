import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import { CARD_TITLE, startHarness, type Harness } from './support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * A swap whose first successful poll comes late (workers restarting or deployed, the poll queue
 * paused by an outage, a 404 streak right after creation): the creator was handed only the deposit
 * card, so whatever the swap did meanwhile is news to them. Here the workers start only after the
 * swaps ended: the creator gets the status card and the outcome, once.
 */

describe('the first poll comes after the swap ended', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('tells the creator the outcome: the status card and the final key moment', async () => {
    const done: ChatTarget = { platform: 'console', chatId: 'creator-done', chatKind: 'private' };
    const lapsed: ChatTarget = { platform: 'console', chatId: 'creator-expired', chatKind: 'private' };
    const waiting: ChatTarget = { platform: 'console', chatId: 'creator-waiting', chatKind: 'private' };
    const completed = await h.createSwap();
    const expired = await h.createSwap();
    await h.tracking.service.follow(completed, done, { userId: 'u-done', creator: true });
    await h.tracking.service.follow(expired, lapsed, { userId: 'u-expired', creator: true });
    // Deposited and completed, and the other one expired, while no worker ran.
    h.sandbox.deposit(completed);
    for (let k = 0; k < 40; k++) h.clock.advance(10_000);
    h.clock.advance(3_600_000);
    // A swap created now and still waiting: its creator has the deposit card, nothing else is news.
    const fresh = await h.createSwap();
    await h.tracking.service.follow(fresh, waiting, { userId: 'u-waiting', creator: true });

    await h.startWorkers();
    await h.settle([completed, expired, fresh]);
    expect((await h.tracking.swapState(completed))?.status).toBe('completed');
    expect((await h.tracking.swapState(expired))?.status).toBe('expired');

    const titles = (c: ChatTarget) => h.messengers.console.forChat(c.chatId).map((r) => r.reply.title);
    expect(titles(done)).toEqual([CARD_TITLE, MOMENT_TITLES.completed]);
    expect(replyText(h.messengers.console.forChat(done.chatId)[0]!.reply)).toContain('status completed');
    expect(titles(lapsed)).toEqual([CARD_TITLE, MOMENT_TITLES.expired]);
    expect(titles(waiting)).toEqual([]);
  });

  it('after a "not found" streak right after creation, during which the swap completed', async () => {
    const c: ChatTarget = { platform: 'console', chatId: 'creator-404', chatKind: 'private' };
    const id = await h.createSwap();
    h.sandbox.injectFault({ status: 404, count: 3, pathPrefix: `/api/v2/swaps/${id}` });
    await h.tracking.service.follow(id, c, { userId: 'u-404', creator: true });
    h.sandbox.deposit(id);
    for (let k = 0; k < 40; k++) h.clock.advance(10_000);
    await waitFor(() => h.api.polls.filter((p) => p.swapId === id && p.status === 404).length === 3, 'three "not found" answers');
    await h.settle([id]);

    expect((await h.tracking.swapState(id))?.status).toBe('completed');
    expect(h.messengers.console.forChat(c.chatId).map((r) => r.reply.title)).toEqual([CARD_TITLE, MOMENT_TITLES.completed]);
  });
});

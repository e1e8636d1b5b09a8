import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { CARD_TITLE, startHarness, type Harness } from './support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * Polls that find nothing new: they keep the stored state and card data as they are (only the
 * poll time moves), yet a chat left behind (its notification lost) still gets its card at the
 * next poll.
 */

describe('polls that change nothing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.startWorkers();
  });
  afterAll(async () => {
    await h?.close();
  });

  const chat = (chatId: string): ChatTarget => ({ platform: 'console', chatId, chatKind: 'private' });
  const cards = (chatId: string) => h.messengers.console.forChat(chatId).filter((r) => r.reply.title === CARD_TITLE);

  it('record the poll time, and leave the state and the card data untouched', async () => {
    const id = await h.createSwap();
    await h.tracking.service.follow(id, chat('quiet'), { userId: 'u1' });
    await h.settle([id]);
    const fields = async () => {
      const [state, details] = await h.redis.hmgetBuffer(h.keys.swap(id), 's', 'd');
      return { state, details };
    };
    const before = await fields();
    const was = await h.tracking.swapState(id);

    h.clock.advance(5_000);
    await h.settle([id]);
    const state = await h.tracking.swapState(id);
    expect(state?.lastPolledAt).toBe(h.clock.now());
    expect(state?.lastPolledAt).toBeGreaterThan(was?.lastPolledAt ?? Infinity);
    expect({ ...state, lastPolledAt: 0 }).toEqual({ ...was, lastPolledAt: 0 });
    // The stored state and card data are the very same bytes: only the poll time field moved.
    expect(await fields()).toEqual(before);
    expect(cards('quiet')).toHaveLength(1);
  });

  it('still bring a chat whose notification was lost up to date', async () => {
    const id = await h.createSwap();
    await h.tracking.service.follow(id, chat('lost-a'), { userId: 'u1' });
    await h.tracking.service.follow(id, chat('lost-b'), { userId: 'u1' });
    await h.settle([id]);
    expect(cards('lost-b')).toHaveLength(1);

    // As if lost-b's first card had never gone out (its notify job used up its attempts).
    const sent = h.messengers.console.log.length;
    await h.redis.hset(h.keys.swap(id), 'r:console:lost-b', JSON.stringify({ v: 0, m: 0 }));
    await waitFor(() => cards('lost-b').length === 2, 'the card sent again');
    expect(cards('lost-b')[1]?.op).toBe('send');
    // Nothing changed on the swap: the other chat got nothing new.
    expect(h.messengers.console.log.slice(sent).map((r) => r.chatId)).toEqual(['lost-b']);
  });
});

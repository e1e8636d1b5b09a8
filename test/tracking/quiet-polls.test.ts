import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { decodeState } from '../../src/tracking/state-codec.js';
import { CARD_TITLE, startHarness, waitFor, type Harness } from './support/harness.js';

/**
 * Polls that find nothing new: they keep the stored state and card data as they are (only the
 * poll time moves), yet a chat left behind (its notification lost) still gets its card at the
 * next poll, and a state stored in the earlier format is read and carried on.
 */

describe('polls that change nothing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.tracking.startWorkers();
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
    const before = { state: await h.redis.get(h.keys.state(id)), details: await h.redis.getBuffer(h.keys.details(id)) };

    h.clock.advance(5_000);
    await h.settle([id]);
    const state = await h.tracking.swapState(id);
    expect(state?.lastPolledAt).toBe(h.clock.now());
    const { lastPolledAt: _a, ...was } = decodeState(before.state as string);
    const { lastPolledAt: _b, ...now } = state as NonNullable<typeof state>;
    expect(now).toEqual(was);
    expect((await h.redis.get(h.keys.state(id)))?.length).toBe(before.state?.length);
    expect(await h.redis.getBuffer(h.keys.details(id))).toEqual(before.details);
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
    await h.redis.hset(h.keys.deliveries(id), 'console:lost-b', JSON.stringify({ version: 0, moments: 0 }));
    await waitFor('the card sent again', () => cards('lost-b').length === 2);
    expect(cards('lost-b')[1]?.op).toBe('send');
    // Nothing changed on the swap: the other chat got nothing new.
    expect(h.messengers.console.log.slice(sent).map((r) => r.chatId)).toEqual(['lost-b']);
  });

  it('read a state and card data stored in the earlier format, and carry on', async () => {
    const id = await h.createSwap();
    await h.tracking.service.follow(id, chat('old-a'), { userId: 'u1' });
    await h.settle([id]);
    // The earlier format: plain JSON for both.
    const state = await h.tracking.swapState(id);
    const details = await h.client.getSwap(id, { exclude_deposit_actions: true });
    await h.redis.set(h.keys.state(id), JSON.stringify(state));
    await h.redis.set(h.keys.details(id), JSON.stringify(details));

    // A new follower's card is rendered from the old card data.
    await h.tracking.service.follow(id, chat('old-b'), { userId: 'u1' });
    await waitFor('the new follower card', () => cards('old-b').length === 1);
    expect(cards('old-b')[0]?.reply).toEqual(cards('old-a')[0]?.reply);

    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    await h.settle([id]);
    expect((await h.tracking.swapState(id))?.status).toBe('ls_transfer_pending');
    for (const c of ['old-a', 'old-b']) expect(cards(c).at(-1)?.reply.lines.map((l) => JSON.stringify(l)).join()).toContain('input');
    expect(await h.redis.get(h.keys.state(id))).toMatch(/^\{"lastPolledAt": +\d+,/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { CARD_TITLE, startHarness, type Harness } from './support/harness.js';

/**
 * The creator's deposit card in tracking: once the adapter reports where it landed, the chat's
 * status card is due at once (below it) and the deposit card is edited in place as the swap moves
 * on, never sent again; until then tracking says the chat has no card (so no word points at one).
 */
describe("the creator's deposit card, kept by tracking", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await h.startWorkers();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('no card claimed before the report; after it the status card at once and the deposit card edited, never re-sent', async () => {
    const chat: ChatTarget = { platform: 'console', chatId: 'creator-dc', chatKind: 'private' };
    const id = await h.createSwap();
    await h.tracking.service.follow(id, chat, { userId: 'u-dc', creator: true });
    await h.settle([id]);
    // Not reported: the first status card waits for the first change, and tracking says so.
    expect(h.messengers.console.forChat(chat.chatId)).toEqual([]);
    expect(await h.tracking.service.hasCard?.(id, chat)).toBe(false);

    await h.tracking.service.depositCardSent?.(id, chat, { platform: 'console', chatId: chat.chatId, messageId: 'deposit-1' });
    expect(await h.tracking.service.hasCard?.(id, chat)).toBe(true);
    await h.settle([id]);
    const sent = () => h.messengers.console.forChat(chat.chatId).filter((r) => r.op === 'send');
    expect(sent().map((r) => r.reply.title)).toEqual([CARD_TITLE]);

    h.clock.advance(1_000);
    h.sandbox.deposit(id);
    await h.settle([id]);
    const depositEdits = () => h.messengers.console.forChat(chat.chatId).filter((r) => r.op === 'edit' && r.messageId === 'deposit-1');
    expect(
      depositEdits()
        .map((r) => replyText(r.reply))
        .join('\n'),
    ).toMatch(/Deposit seen: .* Do not send again\./);
    for (const r of depositEdits()) expect(JSON.stringify(r.reply.buttons ?? [])).not.toMatch(/"copy"/);
    // Only the status card and key moments were sent: never a second deposit card.
    for (const r of sent()) expect(replyText(r.reply)).not.toMatch(/Send exactly/);
  });

  it('a chat that does not follow the swap keeps nothing', async () => {
    const chat: ChatTarget = { platform: 'console', chatId: 'stranger-dc', chatKind: 'private' };
    const id = await h.createSwap();
    await h.tracking.service.depositCardSent?.(id, chat, { platform: 'console', chatId: chat.chatId, messageId: 'x' });
    expect(await h.tracking.service.hasCard?.(id, chat)).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Incoming } from '../../../src/contracts/incoming.js';
import { line } from '../../../src/contracts/reply.js';
import { testRedis, uniquePrefix } from '../../support/redis.js';
import { ScriptedCore, newUser, startHarness, type Harness } from './harness.js';
import { waitFor } from '../../support/wait.js';

/**
 * Long polling on grammY's runner: many people are answered at once, while each chat's updates
 * stay in order, one after the other (an answer to a prompt never overtakes the prompt).
 */
const prefix = uniquePrefix('tg-concurrency');
const redis = testRedis(prefix);

const entered: Array<{ chatId: string; text: string; at: number }> = [];
const core = new ScriptedCore((i: Incoming) => {
  entered.push({ chatId: i.chatId, text: i.text ?? '', at: Date.now() });
  return [{ lines: [line(`answer to ${i.text ?? ''}`)], target: 'here' }];
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness(core, redis, prefix);
  // Each Bot API call takes 100 ms, as Telegram does from far away.
  h.fake.latencyMs = 100;
});
afterAll(async () => {
  await h?.close();
});

describe('long polling concurrency', () => {
  it('handles different chats at once and one chat in order', async () => {
    const users = Array.from({ length: 8 }, (_, n) => newUser(`U${n}`));
    for (let k = 1; k <= 3; k++) for (const u of users) h.fake.sendText(h.fake.privateChat(u), u, `/help ${k}`);
    await waitFor(() => users.every((u) => h.fake.botMessages(u.id).length === 3), 'every answer');

    // When each update's answer was delivered (its sendMessage answered by Telegram).
    const doneAt = (chatId: string, text: string) =>
      h.fake
        .callsTo('sendMessage')
        .find((c) => String(c.payload.chat_id) === chatId && String(c.payload.text).includes(`answer to ${text}`))!.doneAt!;
    const spans = entered.map((e) => ({ ...e, end: doneAt(e.chatId, e.text) }));

    for (const u of users) {
      const mine = spans.filter((s) => s.chatId === String(u.id));
      expect(mine.map((s) => s.text)).toEqual(['/help 1', '/help 2', '/help 3']);
      // One chat: the next update starts only once the previous one's answer is out.
      for (let k = 1; k < mine.length; k++) expect(mine[k]!.at).toBeGreaterThanOrEqual(mine[k - 1]!.end);
      expect(h.fake.botMessages(u.id).map((m) => m.text)).toEqual(['answer to /help 1', 'answer to /help 2', 'answer to /help 3']);
    }
    // Different chats: several updates were in flight at the same moment.
    const overlapping = Math.max(...spans.map((s) => spans.filter((o) => o.at <= s.at && s.at < o.end).length));
    expect(overlapping).toBeGreaterThan(3);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { Incoming } from '../../../src/contracts/incoming.js';
import { CoreKeys } from '../../../src/contracts/keys.js';
import { line, type Reply } from '../../../src/contracts/reply.js';
import { createTelegramBot, type TelegramBot } from '../../../src/platforms/telegram/bot.js';
import { testRedis, uniquePrefix } from '../../support/redis.js';
import { FakeBotApi } from './fake-bot-api.js';
import { memoryLogger } from '../../support/log.js';
import { ScriptedCore, newUser } from './harness.js';
import { waitFor, WAIT_MS } from '../../support/wait.js';

/**
 * An update in hand when its process dies is still answered, once: by a later delivery of it, or
 * by another process taking it over once the dead one's claim lapsed. The "crash": the handler
 * never finishes and the process stops renewing its claim (stop() with no grace).
 */
const prefix = uniquePrefix('tg-crash');
const redis = testRedis(prefix);
const LEASE = { leaseMs: 300 };

const answer = (i: Incoming): Reply[] => [{ lines: [line(`answer to ${i.text ?? ''}`)], target: 'here' }];
const never = new Promise<Reply[]>(() => undefined);

let fake: FakeBotApi;
const bots: TelegramBot[] = [];
const logs: string[][] = [];
function startBot(core: ScriptedCore): TelegramBot {
  const { logger, lines } = memoryLogger();
  logs.push(lines);
  const bot = createTelegramBot({ token: fake.token, apiRoot: fake.apiRoot, core, redis, keyPrefix: prefix, logger, updateLease: LEASE });
  bots.push(bot);
  return bot;
}
afterEach(async () => {
  for (const b of bots.splice(0)) await b.stop({ graceMs: 0 });
  logs.splice(0);
  await fake?.close();
});

/** Nothing of this bot's is in hand in Redis any more (every claim is done). */
async function settled(): Promise<boolean> {
  const keys = await redis.keys(`${prefix}:tg:*:inflight`);
  for (const k of keys) if ((await redis.zcard(k)) > 0) return false;
  return true;
}

describe('an update in hand when its process dies', () => {
  it('is answered by the next process (long polling had already confirmed it)', async () => {
    fake = await FakeBotApi.start();
    const hung = new ScriptedCore(() => never);
    const first = startBot(hung);
    await first.start();
    const alice = newUser();
    const chat = fake.privateChat(alice);
    fake.sendText(chat, alice, '/quote 1 eth');
    await waitFor(() => hung.seen.length === 1, 'the first process to take the update');
    // The runner fetched the next batch, which confirms this update to Telegram: it is not sent again.
    await waitFor(
      () => fake.callsTo('getUpdates').some((c) => Number(c.payload.offset) > 0),
      'the next getUpdates (which confirms the update)',
    );
    await first.stop({ graceMs: 0 });

    const healthy = new ScriptedCore(answer);
    await startBot(healthy).start();
    const msg = await waitFor(() => fake.botMessages(chat.id)[0], 'the answer from the second process');
    expect(msg.text).toBe('answer to /quote 1 eth');
    await expect.poll(settled, { timeout: WAIT_MS }).toBe(true);
    expect(fake.botMessages(chat.id)).toHaveLength(1);
    expect(healthy.seen.map((s) => s.text)).toEqual(['/quote 1 eth']);
  });

  it('a redelivery while the claim is alive is skipped; after it lapsed, it is answered once', async () => {
    // Another bot (update ids start over in each fake).
    fake = await FakeBotApi.start({ token: '654321:TEST-other-abcdefghijklmnopqrstuvwxyz' });
    const hung = new ScriptedCore(() => never);
    const first = startBot(hung);
    await first.start();
    const bob = newUser('Bob');
    const chat = fake.privateChat(bob);
    fake.sendText(chat, bob, '/quote 2 eth');
    await waitFor(() => hung.seen.length === 1, 'the first process to take the update');
    // Telegram redelivers the same update (a webhook retry): the live claim turns it away.
    const id = (await redis.keys(new CoreKeys(prefix).telegramUpdate(fake.bot.id, '*'))).map((k) => Number(k.split(':').pop()))[0]!;
    fake.pushUpdate({ update_id: id, message: { message_id: 1, date: 1, chat, from: bob, text: '/quote 2 eth' } });
    await waitFor(() => logs[0]!.some((l) => l.includes('duplicate update skipped')), 'the redelivery to be turned away');
    expect(hung.seen).toHaveLength(1);
    await first.stop({ graceMs: 0 });

    const healthy = new ScriptedCore(answer);
    await startBot(healthy).start();
    // And once more after the process died: whichever comes first answers, only once.
    fake.pushUpdate({ update_id: id, message: { message_id: 1, date: 1, chat, from: bob, text: '/quote 2 eth' } });
    await waitFor(() => fake.botMessages(chat.id)[0], 'the answer');
    await expect.poll(settled, { timeout: WAIT_MS }).toBe(true);
    expect(fake.botMessages(chat.id).map((m) => m.text)).toEqual(['answer to /quote 2 eth']);
    expect(healthy.seen).toHaveLength(1);
  });
});

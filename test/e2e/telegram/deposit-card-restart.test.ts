import { afterAll, describe, expect, it } from 'vitest';
import { createTelegramBot, type TelegramBot } from '../../../src/platforms/telegram/bot.js';
import { coreOver, startHarness, type Harness } from '../../tracking/support/harness.js';
import { testRedis } from '../../support/redis.js';
import { memoryLogger } from '../../support/log.js';
import { waitFor } from '../../support/wait.js';
import { FakeBotApi } from './fake-bot-api.js';
import { newUser } from './harness.js';
import { TgUser } from './world.js';

/**
 * The deposit card in flight when `web` dies (issue 33: after the restart only a second Confirm
 * pointed to /status, and the card never came). The first process handles Confirm and is killed
 * while Telegram has not answered its sendPhoto; the next process takes the update over and sends
 * the card: exactly one deposit card arrives, and no "already sent" note.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
/** The card's lease is shorter than the update's, as in production (5 s and 10 s). */
const UPDATE_LEASE = { leaseMs: 1_000 };
const CARD_LEASE_MS = 300;

let h: Harness | undefined;
let fake: FakeBotApi | undefined;
const bots: TelegramBot[] = [];
afterAll(async () => {
  for (const b of bots) await b.stop({ graceMs: 0 }).catch(() => undefined);
  await fake?.close();
  await h?.close();
});

describe('a deposit card in flight when the web process dies', () => {
  it('is sent by the next process, once', async () => {
    h = await startHarness();
    await h.startWorkers();
    fake = await FakeBotApi.start();
    const core = coreOver(h, { limits: { commandsPerMinute: 1000, draftTtlSeconds: 600, depositCardLeaseMs: CARD_LEASE_MS } });
    const bot = () => {
      const b = createTelegramBot({
        token: fake!.token,
        apiRoot: fake!.apiRoot,
        core,
        redis: testRedis(h!.prefix),
        keyPrefix: h!.prefix,
        logger: memoryLogger().logger,
        updateLease: UPDATE_LEASE,
      });
      bots.push(b);
      return b;
    };
    const first = bot();
    await first.start();
    const alice = newUser('Alice');
    const u = new TgUser(fake, alice, fake.privateChat(alice));
    u.says('/swap 100 USDC arbitrum base');
    await u.toConfirmation(EVM);

    // Telegram takes the deposit card but never answers: the process dies with it in flight.
    fake.hold({ method: 'sendPhoto' });
    const { message, button } = u.button('Confirm');
    fake.press(alice, u.chat.id, message.message_id, String(button.callback_data));
    await waitFor(() => fake!.callsTo('sendPhoto').find((c) => c.held), 'the deposit card in flight');
    await first.stop({ graceMs: 0 });
    fake.releaseHolds();

    await bot().start();
    const card = await waitFor(
      () => u.messages().find((m) => m.photoSize && /Swap id: [0-9a-f-]{36}/.test(m.caption ?? '')),
      'the deposit card',
    );
    expect(card.caption).toContain('Send exactly');
    await waitFor(
      () => fake!.callsTo('answerCallbackQuery').length > 0 && fake!.callsTo('sendPhoto').filter((c) => !c.held).length === 1,
      'the press answered',
    );
    expect(u.messages().filter((m) => m.photoSize)).toHaveLength(1);
    expect(u.messages().map((m) => m.text ?? '')).not.toContainEqual(expect.stringMatching(/already sent/i));
  });
});

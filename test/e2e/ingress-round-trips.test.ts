import { randomInt } from 'node:crypto';
import type { User } from 'grammy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordMessenger } from '../../src/platforms/discord/messenger.js';
import type { TelegramBot } from '../../src/platforms/telegram/bot.js';
import { telegramAdapter, type TelegramAdapter } from '../../src/platforms/telegram/adapter.js';
import { telegramSettings } from '../../src/app/platform-settings.js';
import { serveHttp, type WebServer } from '../../src/app/http-server.js';
import { loadConfig } from '../../src/config.js';
import { TelegramMessenger } from '../../src/platforms/telegram/messenger.js';
import { startHttpDiscord, type HttpDiscord } from '../discord-http/harness.js';
import { answerOf, buttonId, startDiscordWorld } from './discord/harness.js';
import { startLiveStack, type LiveStack } from './live-stack.js';
import { FakeBotApi } from './telegram/fake-bot-api.js';
import { startTelegramBot } from './telegram/world.js';
import { testRedisUrl } from '../support/redis.js';
import { monitorRedis } from '../support/redis-monitor.js';
import { waitFor } from '../support/wait.js';

/**
 * What one update costs in Redis, as an operator sees it with MONITOR: the commands the process
 * sends for a Telegram /help and a press of its "Where is my swap?" button, and the same on
 * Discord over HTTP interactions (the web process's mixed load, bench part 13). Each is its own
 * round trip. Before the core's first round trip became one script (bot/kernel/admission.ts) a
 * Telegram update took six (claim, language, rate, open question, welcome back, done) and a Discord
 * one five. A redelivered Telegram update costs its refused claim only, and is answered once.
 * Real grammY, the fake Bot API and Discord, the core and tracking on real Redis.
 */

interface Seen {
  args: string[];
}

let live: LiveStack;
let fake: FakeBotApi;
let telegram: TelegramBot;
let discord: HttpDiscord;
let monitor: { close(): void } | undefined;
/** A second bot in webhook mode, as `swapbot web` runs it: a retried webhook can deliver an update twice at once. */
let hookFake: FakeBotApi;
let hook: TelegramAdapter;
let hookServer: WebServer;
const SECRET = 'round_trips-0123456789abcdefghijklmn';
const seen: Seen[] = [];

beforeAll(async () => {
  fake = await FakeBotApi.start();
  const world = await startDiscordWorld();
  live = await startLiveStack('round-trips', {
    telegram: new TelegramMessenger({ token: fake.token, apiRoot: fake.apiRoot }),
    discord: new DiscordMessenger({ token: world.token, api: world.fake.apiUrl }),
  });
  telegram = await startTelegramBot(fake, live);
  discord = await startHttpDiscord(live.core, {}, world);
  hookFake = await FakeBotApi.start();
  const config = loadConfig({
    TELEGRAM_BOT_TOKEN: hookFake.token,
    TELEGRAM_API_ROOT: hookFake.apiRoot,
    TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/telegram/hook',
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    PORT: '0',
  });
  hook = telegramAdapter(telegramSettings(config), { core: live.core, redis: live.redis, logger: live.logger, keyPrefix: live.prefix });
  hookServer = await serveHttp(new Map(hook.webhook ? [[hook.webhook.path, hook.webhook.handler]] : []), {
    port: 0,
    host: '127.0.0.1',
    health: async () => true,
  });
  await hook.start();
  // Commands sent by clients (a script's own calls come from "lua").
  monitor = await monitorRedis(testRedisUrl(), ({ source, args }) => {
    if (source !== 'lua') seen.push({ args });
  });
});

afterAll(async () => {
  monitor?.close();
  await hookServer?.close();
  await hook?.stop();
  await hookFake?.close();
  await telegram?.stop();
  await discord?.close();
  await live?.close();
  await fake?.close();
});

/** A key-like argument naming this id as a whole part (`…:123`, `{telegram:123}`, `…:123:…`). */
function names(arg: string, id: string): boolean {
  return new RegExp(`[:{]${id}(?:[:}]|$)`).test(arg);
}

/**
 * Commands from `from` on whose keys (under this file's prefix) one of `ids` appears as a key part,
 * or that claim one of the Discord interactions `claims` (the HTTP harness's replay guard has a prefix of its own).
 */
function commandsAbout(from: number, ids: string[], claims: string[] = []): Seen[] {
  return seen
    .slice(from)
    .filter((s) =>
      s.args.some(
        (a) =>
          (a.startsWith(`${live.prefix}:`) && ids.some((id) => names(a, id))) ||
          (a.startsWith('test-discord-http-') && claims.some((c) => a.endsWith(`:trk:webhook:${c}`))),
      ),
    );
}

/** The key of the Discord replay guard's claim on one interaction (tracking/webhook.ts). */
const discordClaim = (interactionId: string) => Buffer.from(`discord-interaction:${interactionId}`).toString('base64url');

const bigId = () => String(randomInt(7_000_000_000, 8_000_000_000));

function tgUser(): User {
  return { id: Number(bigId()), is_bot: false, first_name: 'Rita' };
}

/**
 * A Telegram /help, delivered `times` times under one update id (a retried webhook, two processes
 * in a deploy), and the wait until the ledger marked it done (its last command). Returns its id.
 */
async function tgHelp(user: User, times = 1): Promise<number> {
  const chat = fake.openDm(user);
  const message = {
    message_id: randomInt(1, 1_000_000),
    date: 1,
    chat,
    from: user,
    text: '/help',
    entities: [{ type: 'bot_command', offset: 0, length: 5 }],
  };
  const updateId = fake.pushUpdate({ message });
  for (let n = 1; n < times; n++) fake.pushUpdate({ update_id: updateId, message });
  await waitForDone(updateId);
  return updateId;
}

function waitForDone(updateId: number): Promise<unknown> {
  return waitFor(
    () =>
      seen.some(
        (s) => s.args.includes('86400') && s.args.some((a) => a.startsWith(`${live.prefix}:`) && a.endsWith(`:update:${updateId}`)),
      ),
    `update ${updateId} marked done`,
  );
}

describe('Redis round trips per update', () => {
  it('Telegram: a /help costs at most 3, a button press at most 4', async () => {
    const user = tgUser();
    let from = seen.length;
    const helpId = await tgHelp(user);
    const help = commandsAbout(from, [String(user.id), String(helpId)]);
    expect(fake.botMessages(user.id)).toHaveLength(1);
    expect(help.length, help.map((s) => s.args.slice(0, 4).join(' ')).join('\n')).toBeLessThanOrEqual(3);

    from = seen.length;
    const card = fake.botMessages(user.id)[0]!;
    const button = ((card.markup?.inline_keyboard ?? []) as Array<Array<{ text: string; callback_data?: string }>>)
      .flat()
      .find((b) => b.text === 'Where is my swap?');
    expect(button?.callback_data).toBeDefined();
    const query = fake.press(user, user.id, card.message_id, button!.callback_data!);
    // The press's update id, from its claim (the update's JSON travels with it).
    const claim = await waitFor(() => seen.slice(from).find((s) => s.args.some((a) => a.includes(`"id":"${query}"`))), 'the press claimed');
    const pressId = Number(/:update:(\d+)$/.exec(claim.args.find((a) => /:update:\d+$/.test(a))!)![1]);
    await waitForDone(pressId);
    const press = commandsAbout(from, [String(user.id), String(pressId)]);
    expect(fake.callsTo('answerCallbackQuery').some((c) => c.payload.callback_query_id === query)).toBe(true);
    expect(press.length, press.map((s) => s.args.slice(0, 4).join(' ')).join('\n')).toBeLessThanOrEqual(4);
  });

  it('Discord over HTTP: a /help costs at most 2, a button press at most 3', async () => {
    const user = discord.fake.world.addUser({ id: `21${bigId()}0000000`, username: 'rita' });
    const where = { user };
    let from = seen.length;
    const slash = discord.fake.slashCommand(where, 'help');
    const card = await answerOf(discord.fake, slash);
    const help = commandsAbout(from, [user.id], [discordClaim(slash.id)]);
    expect(help.length, help.map((s) => s.args.slice(0, 4).join(' ')).join('\n')).toBeLessThanOrEqual(2);

    from = seen.length;
    const press = discord.fake.pressButton(where, card, buttonId(card, 'Where is my swap?'));
    const answer = await waitFor(() => discord.delivery.answers.get(press.id), 'the answer to the press');
    expect(answer.status).toBe(200);
    const pressed = commandsAbout(from, [user.id], [discordClaim(press.id)]);
    expect(pressed.length, pressed.map((s) => s.args.slice(0, 4).join(' ')).join('\n')).toBeLessThanOrEqual(3);
  });

  it('a Telegram update POSTed twice at once (a retried webhook) is answered once, the second costing its refused claim only', async () => {
    const user = tgUser();
    const chat = hookFake.openDm(user);
    const updateId = Number(bigId());
    const body = JSON.stringify({
      update_id: updateId,
      message: { message_id: 1, date: 1, chat, from: user, text: '/help', entities: [{ type: 'bot_command', offset: 0, length: 5 }] },
    });
    const from = seen.length;
    const post = () =>
      fetch(`http://127.0.0.1:${hookServer.port}${hook.webhook!.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
        body,
      });
    const answers = await Promise.all([post(), post()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    await waitForDone(updateId);
    await waitFor(
      () =>
        seen
          .slice(from)
          .filter(
            (s) => s.args.includes('10000') && s.args.some((a) => a.startsWith(`${live.prefix}:`) && a.endsWith(`:update:${updateId}`)),
          ).length >= 2,
      'both deliveries claimed',
    );
    expect(hookFake.botMessages(user.id)).toHaveLength(1);
    const spent = commandsAbout(from, [String(user.id), String(updateId)]);
    expect(spent.length, spent.map((s) => s.args.slice(0, 4).join(' ')).join('\n')).toBeLessThanOrEqual(4);
    // Delivered again once done (Telegram retrying a webhook it saw time out): refused, still one answer.
    expect((await post()).status).toBe(200);
    expect(hookFake.botMessages(user.id)).toHaveLength(1);
  });
});

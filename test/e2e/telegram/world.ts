import type { Chat, User } from 'grammy/types';
import type { Redis } from 'ioredis';
import { createCore } from '../../../src/bot/create-core.js';
import { trackingRenderer } from '../../../src/bot/cards/moments.js';
import { CatalogCache } from '../../../src/layerswap/catalog-cache.js';
import { LayerswapClient } from '../../../src/layerswap/client.js';
import { createTelegramBot, type TelegramBot } from '../../../src/platforms/telegram/bot.js';
import { TelegramMessenger } from '../../../src/platforms/telegram/messenger.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import { ManualClock, type SandboxServer } from '../../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../../src/tracking/engine.js';
import { testRedisUrl } from '../../support/redis.js';
import type { FakeBotApi } from './fake-bot-api.js';
import type { StoredMessage } from './fake-rules.js';
import { memoryLogger } from './harness.js';

/**
 * The whole product on Telegram: the real core, the sandbox on a ManualClock, real Redis, the
 * tracking engine (BullMQ) pushing through a TelegramMessenger, and the grammY bot long-polling
 * the fake Bot API.
 */
export interface World {
  clock: ManualClock;
  sandbox: SandboxServer;
  tracking: Tracking;
  telegram: TelegramBot;
  logLines: string[];
  close(): Promise<void>;
}

/** The status card as the worker renders it: masked in groups and channels. */

export async function startWorld(fake: FakeBotApi, redis: Redis, prefix: string): Promise<World> {
  const clock = new ManualClock();
  const sandbox = await startSandbox({ clock, timings: { depositDelayMs: 'off', confirmationIntervalMs: 10_000, payoutDelayMs: 10_000, expiryMs: 3_600_000 } });
  const api = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: 5_000 });
  const catalog = new CatalogCache(api, { ttlMs: 60_000, now: () => clock.now() });
  const { logger, lines } = memoryLogger([]);
  const tracking = createTracking({
    redis: testRedisUrl(),
    prefix,
    api,
    limits: { maxPerChat: 100, maxPerUser: 100 },
    cadence: { fastMs: 100, slowMs: 200, stuckFactor: 4 },
    now: () => clock.now(),
    apiRate: { max: 100_000, duration: 1000 },
    platformRates: { telegram: { max: 100_000, duration: 1000 } },
    workers: { notifyBackoffMs: 100 },
    logger,
  });
  await tracking.startWorkers({ messengers: { telegram: new TelegramMessenger({ token: fake.token, apiRoot: fake.apiRoot }) }, render: trackingRenderer });
  const core = createCore({ api, catalog, redis, keyPrefix: prefix, tracking: tracking.service, limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 }, now: () => clock.now(), logger });
  const telegram = createTelegramBot({ token: fake.token, apiRoot: fake.apiRoot, core, redis, keyPrefix: prefix, logger });
  await telegram.start();
  return {
    clock, sandbox, tracking, telegram, logLines: lines,
    async close() {
      await telegram.stop();
      await tracking.close();
      await sandbox.close();
    },
  };
}

/** A person in one chat: says things, presses buttons on the bot's messages, reads them. */
export class TgUser {
  constructor(
    readonly fake: FakeBotApi,
    readonly user: User,
    readonly chat: Chat,
  ) {}

  /** Bot messages in this chat, oldest first. */
  messages(): StoredMessage[] {
    return this.fake.botMessages(this.chat.id);
  }

  says(text: string, opts: { replyTo?: number; threadId?: number } = {}): void {
    this.fake.sendText(this.chat, this.user, text, opts);
  }

  /** Waits for a bot message (new or edited) whose visible text matches. */
  async sees(match: string | RegExp, what = String(match)): Promise<StoredMessage> {
    const test = (m: StoredMessage) => {
      const t = m.text ?? m.caption ?? '';
      return typeof match === 'string' ? t.includes(match) : match.test(t);
    };
    return this.fake.waitFor(() => [...this.messages()].reverse().find(test), `"${what}" in chat ${this.chat.id}`);
  }

  /** The newest bot message carrying a button with this label, and the button. */
  button(label: string): { message: StoredMessage; button: Record<string, unknown> } {
    for (const m of [...this.messages()].reverse()) {
      const rows = (m.markup?.inline_keyboard ?? []) as Array<Array<Record<string, unknown>>>;
      const b = rows.flat().find((x) => x.text === label);
      if (b) return { message: m, button: b };
    }
    throw new Error(`no button "${label}" in chat ${this.chat.id}: ${this.messages().map((m) => JSON.stringify(m.markup)).join(' | ')}`);
  }

  /** Presses an action button and waits until the press is answered. */
  async presses(label: string): Promise<StoredMessage> {
    const { message, button } = this.button(label);
    const id = this.fake.press(this.user, this.chat.id, message.message_id, String(button.callback_data));
    await this.fake.waitFor(() => this.fake.callsTo('answerCallbackQuery').some((c) => c.payload.callback_query_id === id), `the answer to "${label}"`);
    return message;
  }
}

import type { Chat, User } from 'grammy/types';
import type { Redis } from 'ioredis';
import type { BotCore, InlineAnswer, Suggestion } from '../../../src/bot/core.js';
import type { Incoming } from '../../../src/contracts/incoming.js';
import type { Reply } from '../../../src/contracts/reply.js';
import { createTelegramBot, type TelegramBot } from '../../../src/platforms/telegram/bot.js';
import { memoryLogger } from '../../support/log.js';
import { FakeBotApi } from './fake-bot-api.js';

/** A core that answers from a script and remembers what it was asked (for adapter-only tests). */
export class ScriptedCore implements BotCore {
  readonly seen: Incoming[] = [];
  constructor(private readonly script: (i: Incoming) => Reply[] | Promise<Reply[]>) {}
  async handle(incoming: Incoming): Promise<Reply[]> {
    this.seen.push(incoming);
    return this.script(incoming);
  }
  async suggest(): Promise<Suggestion[]> {
    return [];
  }
  async inlineQuote(): Promise<InlineAnswer> {
    return { results: [], personal: false, cacheSeconds: 0 };
  }
}

export interface Harness {
  fake: FakeBotApi;
  telegram: TelegramBot;
  logLines: string[];
  close(): Promise<void>;
}

/** The fake Bot API plus the real grammY bot long-polling it. */
export async function startHarness(core: BotCore, redis: Redis, keyPrefix: string, opts: { poll?: boolean } = {}): Promise<Harness> {
  const fake = await FakeBotApi.start();
  // The token is deliberately not given to the logger's redaction: nothing may log it at all.
  const { logger, lines } = memoryLogger();
  const telegram = createTelegramBot({ token: fake.token, apiRoot: fake.apiRoot, core, redis, keyPrefix, logger });
  if (opts.poll !== false) await telegram.start();
  return {
    fake,
    telegram,
    logLines: lines,
    async close() {
      await telegram.stop();
      await fake.close();
    },
  };
}

let nextUser = 5000;
export function newUser(first_name = 'Alice'): User {
  return { id: nextUser++, is_bot: false, first_name };
}

let nextGroup = -1001000;
export function newGroup(title = 'Swappers'): Chat {
  return { id: nextGroup--, type: 'supergroup', title } as Chat;
}

/** A supergroup with topics (FakeBotApi.createTopic opens one). */
export function newForum(title = 'Swap desk'): Chat {
  return { id: nextGroup--, type: 'supergroup', title, is_forum: true } as Chat;
}

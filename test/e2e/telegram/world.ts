import type { Chat, User } from 'grammy/types';
import { createTelegramBot, type TelegramBot } from '../../../src/platforms/telegram/bot.js';
import { TelegramMessenger } from '../../../src/platforms/telegram/messenger.js';
import { setUp } from '../../support/set-up.js';
import { waitFor } from '../../support/wait.js';
import { startLiveStack, type LiveStack } from '../live-stack.js';
import { FakeBotApi } from './fake-bot-api.js';
import type { StoredMessage } from './fake-rules.js';

/**
 * The whole product on Telegram: the live stack (real core, sandbox on a ManualClock, real Redis,
 * the tracking engine pushing through a TelegramMessenger) and the grammY bot long-polling the
 * fake Bot API.
 */
export interface World extends LiveStack {
  fake: FakeBotApi;
  telegram: TelegramBot;
}

/** The real grammY adapter (long polling) on the fake Bot API, serving the live stack's core; started. */
export async function startTelegramBot(fake: FakeBotApi, live: LiveStack): Promise<TelegramBot> {
  const telegram = createTelegramBot({
    token: fake.token,
    apiRoot: fake.apiRoot,
    core: live.core,
    redis: live.redis,
    keyPrefix: live.prefix,
    logger: live.logger,
  });
  await telegram.start();
  return telegram;
}

async function startWorld(name: string): Promise<World> {
  const fake = await FakeBotApi.start();
  const live = await startLiveStack(name, { telegram: new TelegramMessenger({ token: fake.token, apiRoot: fake.apiRoot }) });
  const telegram = await startTelegramBot(fake, live);
  return {
    ...live,
    fake,
    telegram,
    async close() {
      await telegram.stop();
      await live.close();
      await fake.close();
    },
  };
}

/** One world for a test file: started before its tests, closed after them. */
export const useWorld = (name: string): World => setUp(() => startWorld(name));

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
    return waitFor(() => [...this.messages()].reverse().find(test), `"${what}" in chat ${this.chat.id}`);
  }

  /** The newest bot message carrying a button with this label, and the button. */
  button(label: string): { message: StoredMessage; button: Record<string, unknown> } {
    for (const m of [...this.messages()].reverse()) {
      const rows = (m.markup?.inline_keyboard ?? []) as Array<Array<Record<string, unknown>>>;
      const b = rows.flat().find((x) => x.text === label);
      if (b) return { message: m, button: b };
    }
    throw new Error(
      `no button "${label}" in chat ${this.chat.id}: ${this.messages()
        .map((m) => JSON.stringify(m.markup))
        .join(' | ')}`,
    );
  }

  /** The newest message asking for free text (a ForceReply prompt). */
  prompt(): Promise<StoredMessage> {
    return waitFor(
      () => [...this.messages()].reverse().find((m) => m.markup !== undefined && 'force_reply' in m.markup),
      'a ForceReply prompt',
    );
  }

  /** Replies `text` to the newest ForceReply prompt. */
  async answers(text: string): Promise<void> {
    this.says(text, { replyTo: (await this.prompt()).message_id });
  }

  /**
   * The English swap wizard after `/swap …`, up to its confirmation: answers the address, gives
   * the refund address (or skips it) and skips refuel (when asked). Returns the refund question and the confirmation.
   */
  async toConfirmation(address: string, refund?: string): Promise<{ question: StoredMessage; confirm: StoredMessage }> {
    await this.answers(address);
    const question = await this.sees('for refunds');
    if (refund) this.says(refund, { replyTo: question.message_id });
    else await this.presses('Skip (no refund address)');
    let confirm = await this.sees(/Confirm your swap|Refuel/);
    if (!/Confirm your swap/.test(confirm.text ?? '')) {
      await this.presses('No refuel');
      confirm = await this.sees('Confirm your swap');
    }
    return { question, confirm };
  }

  /** Presses an action button and waits until the press is answered. */
  async presses(label: string): Promise<StoredMessage> {
    const { message, button } = this.button(label);
    const id = this.fake.press(this.user, this.chat.id, message.message_id, String(button.callback_data));
    await waitFor(
      () => this.fake.callsTo('answerCallbackQuery').some((c) => c.payload.callback_query_id === id),
      `the answer to "${label}"`,
    );
    return message;
  }
}

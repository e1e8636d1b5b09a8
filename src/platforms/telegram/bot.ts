import { autoRetry } from '@grammyjs/auto-retry';
import { run, sequentialize, type RunnerHandle } from '@grammyjs/runner';
import { Bot, GrammyError, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Redis } from 'ioredis';
import type { BotCore } from '../../bot/core.js';
import { silentLogger, type Logger } from '../../log.js';
import { createAdminCheck } from './admin.js';
import { buttonPresses } from './callbacks.js';
import { connectBot, pause, retrying } from './connect.js';
import { createUpdateLedger, DEFAULT_UPDATE_LEASE, type UpdateLeaseOptions } from './dedup.js';
import { adapterWords } from '../words.js';
import { chatKind } from './incoming.js';
import { telegramError } from './errors.js';
import { guestMode } from './guest.js';
import { inlineMode } from './inline.js';
import { textMessages } from './messages.js';
import { chatMigrations } from './migrations.js';
import { TelegramMessenger } from './messenger.js';
import { createWebhookHandler, type WebhookHandler } from './webhook.js';

/**
 * The Telegram bot: grammY with one Composer per feature (claims, text, buttons), replies through
 * the TelegramMessenger, and 429/5xx retries capped so a user never waits minutes. Long polling
 * runs on grammY's runner: updates of different chats are handled concurrently (bounded), those
 * of one chat in order.
 */

export interface TelegramBotOptions {
  token: string;
  /** Another Bot API server (local, or a test fake). No trailing slash. */
  apiRoot?: string;
  core: BotCore;
  redis: Redis;
  keyPrefix: string;
  logger?: Logger;
  /** Skips getMe at start (tests, or a known bot). */
  botInfo?: UserFromGetMe;
  /** Called when long polling stops for good (revoked token). Default: logged. */
  onFatalError?: (err: Error) => void;
  /** Updates handled at once in long polling (one chat's are always in order). Default 100. */
  concurrency?: number;
  /** How long a claimed update stays claimed without renewal (tests shorten it). */
  updateLease?: UpdateLeaseOptions;
}

export interface TelegramBot {
  readonly bot: Bot;
  /** Sends and edits through the bot's own (auto-retrying) Api. */
  readonly messenger: TelegramMessenger;
  /** getMe until Telegram answers (bounded backoff); rejects only if the token is refused or on stop. */
  connect(): Promise<void>;
  /** Long polling. Resolves once polling runs; rejects if the token is refused or stop() came first. */
  start(): Promise<void>;
  /**
   * Stops polling, waits up to `graceMs` for the updates in hand, then lets their claims lapse
   * (another process, or the next start, answers them).
   */
  stop(opts?: { graceMs?: number }): Promise<void>;
  /** A node:http handler for webhook mode; 401 unless the secret header matches. */
  webhookHandler(secret: string): WebhookHandler;
  /** Webhook mode: connect, then setWebhook, retried (bounded backoff) until Telegram takes it or stop(). */
  setWebhook(url: string, secret: string, maxConnections?: number): Promise<void>;
}

const ALLOWED_UPDATES = ['message', 'callback_query', 'channel_post', 'inline_query', 'chosen_inline_result', 'guest_message'] as const;
/** Interactive replies: wait out short 429s only; 3 tries for 5xx. */
const INTERACTIVE_RETRY = { maxDelaySeconds: 5, maxRetryAttempts: 3, rethrowHttpErrors: true } as const;
const CONFLICT_RETRY_MS = 5_000;
const DEFAULT_GRACE_MS = 10_000;
/** getUpdates retries at this pace while Telegram is unreachable (the runner's own is unbounded). */
const FETCH_RETRY_MS = 2_000;

/** One chat's updates run in order; a press without a chat is ordered by its user. */
const chatOf = (ctx: Context) => String(ctx.chat?.id ?? ctx.from?.id ?? '');

export function createTelegramBot(opts: TelegramBotOptions): TelegramBot {
  const logger = opts.logger ?? silentLogger;
  const token = opts.token;
  const bot = new Bot(token, {
    client: { apiRoot: opts.apiRoot ?? 'https://api.telegram.org', timeoutSeconds: 60 },
    ...(opts.botInfo ? { botInfo: opts.botInfo } : {}),
  });
  // A network failure is not retried: the request may have reached Telegram (a double message).
  bot.api.config.use(autoRetry(INTERACTIVE_RETRY));
  // The runner retries getUpdates quietly: say once that Telegram is out of reach, and when it is back.
  let fetchFailing = false;
  bot.api.config.use(async (prev, method, payload, signal) => {
    if (method !== 'getUpdates') return prev(method, payload, signal);
    try {
      const res = await prev(method, payload, signal);
      if (fetchFailing) logger.info('telegram: fetching updates again');
      fetchFailing = false;
      return res;
    } catch (err) {
      if (!fetchFailing && !signal?.aborted)
        logger.warn({ err: telegramError(err, token) }, `telegram: cannot fetch updates; retrying every ${FETCH_RETRY_MS / 1000} s`);
      fetchFailing = !signal?.aborted;
      throw err;
    }
  });
  const messenger = new TelegramMessenger({ token, api: bot.api, botUsername: () => (bot.isInited() ? bot.botInfo.username : undefined) });
  const isAdmin = createAdminCheck({ api: bot.api, redis: opts.redis, keyPrefix: opts.keyPrefix, logger, token });
  const deps = { core: opts.core, api: bot.api, messenger, isAdmin, logger, token };
  const lease = opts.updateLease ?? DEFAULT_UPDATE_LEASE;
  const ledger = createUpdateLedger({ redis: opts.redis, keyPrefix: opts.keyPrefix, logger, lease });

  // The claim comes first, so an update waiting for its chat's turn is already safe in Redis.
  bot.use(ledger.middleware);
  bot.use(sequentialize(chatOf));
  bot.use(textMessages(deps));
  bot.use(chatMigrations(deps));
  bot.use(buttonPresses(deps));
  bot.use(inlineMode(deps));
  bot.use(guestMode(deps));

  bot.catch(async (err) => {
    // Never the error object itself: a wrapped network error may quote the URL with the token.
    logger.error(
      { err: telegramError(err.error, token), updateId: err.ctx.update.update_id, chatId: err.ctx.chat?.id, userId: err.ctx.from?.id },
      'telegram: update failed',
    );
    const ctx = err.ctx;
    try {
      const from = ctx.from;
      const userId = String(from?.id ?? ctx.chat?.id ?? '');
      // An alert is the presser's alone; a message in a group is read by the group.
      const sorry = async (to: 'person' | 'chat') => {
        const chat = to === 'chat' && ctx.chat && ctx.chat.type !== 'private' ? ctx.chat : undefined;
        const who = {
          platform: 'telegram' as const,
          userId,
          chatId: chat ? String(chat.id) : userId,
          chatKind: chat ? chatKind(chat) : ('private' as const),
          ...(from?.language_code ? { locale: from.language_code } : {}),
        };
        return (await adapterWords(opts.core.localeOf?.bind(opts.core), who))('error.bug.reason');
      };
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: await sorry('person'), show_alert: true });
      else if (ctx.inlineQuery) await ctx.answerInlineQuery([], { cache_time: 0, is_personal: true });
      // A guest mention comes from a chat the bot is not in: nothing can be sent there.
      else if (ctx.update.guest_message) return;
      else if (ctx.chat) await ctx.api.sendMessage(ctx.chat.id, await sorry('chat'));
    } catch {
      // Telegram itself is failing: the log line above is all we can do.
    }
  });

  let life = new AbortController();
  let connecting: Promise<void> | undefined;
  let polling: Promise<void> | undefined;
  let runner: RunnerHandle | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  const onFatal = opts.onFatalError ?? ((e: Error) => logger.error({ err: telegramError(e, token) }, 'telegram: long polling stopped'));

  function connect(): Promise<void> {
    if (bot.isInited()) return Promise.resolve();
    connecting ??= connectBot(bot, { logger, token, signal: life.signal }).finally(() => (connecting = undefined));
    return connecting;
  }

  /** Takes over the updates of processes that died while handling them (every half lease). */
  function startSweeping(): void {
    if (sweeper) return;
    const sweep = () => {
      if (!bot.isInited()) return;
      ledger
        .sweep(bot.botInfo.id, (u) => bot.handleUpdate(u))
        .catch((err: unknown) => logger.debug({ err: telegramError(err) }, 'telegram: update sweep failed'));
    };
    sweeper = setInterval(sweep, Math.max(50, Math.floor(lease.leaseMs / 2)));
    sweeper.unref();
    sweep();
  }

  async function poll(started: () => void): Promise<void> {
    const { signal } = life;
    while (!signal.aborted) {
      runner = run(bot, {
        runner: {
          fetch: { allowed_updates: [...ALLOWED_UPDATES], timeout: 30 },
          silent: true,
          retryInterval: FETCH_RETRY_MS,
          maxRetryTime: Number.MAX_SAFE_INTEGER,
        },
        sink: { concurrency: opts.concurrency ?? 100 },
      });
      started();
      try {
        await runner.task();
        return;
      } catch (err) {
        if (signal.aborted) return;
        // 409: another poller (the old process during a deploy). Wait for it to go away.
        if (err instanceof GrammyError && err.error_code === 409) {
          logger.warn('telegram: another process is polling this bot; retrying in a few seconds');
          await pause(CONFLICT_RETRY_MS, signal);
          continue;
        }
        onFatal(telegramError(err, token));
        return;
      }
    }
  }

  return {
    bot,
    messenger,
    connect,
    async start() {
      if (polling) return;
      if (life.signal.aborted) life = new AbortController();
      ledger.resume();
      await connect();
      if (life.signal.aborted) throw new Error('telegram: stopped before polling began');
      startSweeping();
      await new Promise<void>((resolve) => {
        polling = poll(resolve);
      });
    },
    async stop(stopOpts = {}) {
      life.abort();
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      // The runner aborts the pending getUpdates; it does not confirm the offset, so Telegram
      // sends the last batch again at the next start, and the claims skip what was done.
      await runner?.stop();
      await polling;
      polling = undefined;
      runner = undefined;
      const left = await ledger.drain(stopOpts.graceMs ?? DEFAULT_GRACE_MS);
      if (left > 0) {
        ledger.abandon();
        logger.warn(
          { updates: left },
          'telegram: updates still in hand at shutdown (Telegram slow?); their claims lapse and another process or the next start answers them',
        );
      }
    },
    webhookHandler(secret: string) {
      ledger.resume();
      startSweeping();
      return createWebhookHandler(bot, secret, logger);
    },
    async setWebhook(url, secret, maxConnections) {
      await connect();
      // max_connections: how many updates Telegram sends at once (1-100; TELEGRAM_WEBHOOK_MAX_CONNECTIONS).
      const options = {
        secret_token: secret,
        allowed_updates: [...ALLOWED_UPDATES],
        ...(maxConnections ? { max_connections: maxConnections } : {}),
      };
      await retrying('setWebhook', () => bot.api.setWebhook(url, options), {
        logger,
        token,
        signal: life.signal,
      });
    },
  };
}

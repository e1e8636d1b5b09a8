import { GrammyError, type Bot } from 'grammy';
import type { Logger } from '../../log.js';
import { telegramError } from './errors.js';

/**
 * Reaching Telegram at start: getMe until it answers, with a bounded backoff, so a process started
 * while Telegram (or the network) is down says so, keeps serving /health as not ready, and comes
 * up on its own. grammY's own init backs off up to 20 minutes; this caps at 30 s.
 */

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** One getMe attempt; a hanging Telegram must not hold the retries up for a minute. */
const ATTEMPT_MS = 10_000;

class TokenRefused extends Error {
  override name = 'TokenRefused';
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/** Runs `fn` until it succeeds (bounded backoff; one warning per outage); rejects on stop. */
export async function retrying<T>(
  what: string,
  fn: () => Promise<T>,
  opts: { logger: Logger; token: string; signal: AbortSignal },
): Promise<T> {
  let wait = FIRST_RETRY_MS;
  let failing = false;
  for (;;) {
    if (opts.signal.aborted) throw new Error(`telegram: stopped before ${what} succeeded`);
    try {
      const v = await fn();
      if (failing) opts.logger.info(`telegram: ${what} succeeded`);
      return v;
    } catch (err) {
      if (!failing)
        opts.logger.warn(
          { err: telegramError(err, opts.token) },
          `telegram: ${what} failed; retrying (at most every ${MAX_RETRY_MS / 1000} s)`,
        );
      failing = true;
      await pause(wait, opts.signal);
      wait = Math.min(MAX_RETRY_MS, wait * 2);
    }
  }
}

export async function connectBot(
  bot: Bot,
  opts: { logger: Logger; token: string; signal: AbortSignal; firstRetryMs?: number },
): Promise<void> {
  let wait = opts.firstRetryMs ?? FIRST_RETRY_MS;
  let failing = false;
  while (!bot.isInited()) {
    if (opts.signal.aborted) throw new Error('telegram: stopped while connecting');
    try {
      // grammY types its signal with the abort-controller shim; Node's own is what it uses.
      const attempt = AbortSignal.any([opts.signal, AbortSignal.timeout(ATTEMPT_MS)]) as unknown as Parameters<Bot['api']['getMe']>[0];
      const me = await bot.api.getMe(attempt);
      bot.botInfo = me;
      if (failing) opts.logger.info('telegram: reached the Bot API; starting');
      return;
    } catch (err) {
      if (opts.signal.aborted) throw new Error('telegram: stopped while connecting', { cause: err });
      if (err instanceof GrammyError && (err.error_code === 401 || err.error_code === 404)) {
        throw new TokenRefused(`Telegram refused TELEGRAM_BOT_TOKEN (${err.error_code} ${err.description}): check it with @BotFather.`, {
          cause: err,
        });
      }
      if (!failing) {
        opts.logger.warn(
          { err: telegramError(err, opts.token) },
          `telegram: cannot reach the Bot API; retrying (at most every ${MAX_RETRY_MS / 1000} s), not ready until then`,
        );
      }
      failing = true;
      await pause(wait, opts.signal);
      wait = Math.min(MAX_RETRY_MS, wait * 2);
    }
  }
}

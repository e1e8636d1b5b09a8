import { Composer, type Context } from 'grammy';
import type { Redis } from 'ioredis';
import type { Logger } from '../../log.js';
import { describeError } from './errors.js';

/** Telegram keeps undelivered updates for 24 h; so do we remember the ones we handled. */
const DAY_SECONDS = 86_400;

/**
 * Each update is handled once, even when Telegram delivers it twice (a webhook retried after a
 * slow answer, long polling replayed after a crash, two processes during a deploy). The claim is
 * taken before handling, so two concurrent deliveries cannot both run.
 */
export function dedupUpdates(opts: { redis: Redis; keyPrefix: string; logger: Logger }): Composer<Context> {
  const c = new Composer<Context>();
  c.use(async (ctx, next) => {
    const key = `${opts.keyPrefix}:tg:${ctx.me.id}:update:${ctx.update.update_id}`;
    let fresh = true;
    try {
      fresh = (await opts.redis.set(key, '1', 'EX', DAY_SECONDS, 'NX')) === 'OK';
    } catch (err) {
      // Better to risk a duplicate than to drop a user's message.
      opts.logger.warn({ err: describeError(err) }, 'telegram: update dedup unavailable; handling anyway');
    }
    if (!fresh) {
      opts.logger.debug({ updateId: ctx.update.update_id }, 'telegram: duplicate update skipped');
      return;
    }
    await next();
  });
  return c;
}

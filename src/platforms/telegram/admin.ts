import type { Api } from 'grammy';
import type { Redis } from 'ioredis';
import type { Logger } from '../../log.js';
import { telegramError } from './errors.js';
import { CoreKeys } from '../../contracts/keys.js';

/**
 * "Is this user an administrator of this chat?" asked of Telegram (getChatMember) and remembered
 * for a minute in Redis, so a burst of /track commands costs one call. Any doubt means no.
 */
export interface AdminCheckOptions {
  api: Api;
  redis: Redis;
  keyPrefix: string;
  logger: Logger;
  token: string;
  ttlSeconds?: number;
}

export type AdminCheck = (chatId: number, userId: number) => Promise<boolean>;

export function createAdminCheck(opts: AdminCheckOptions): AdminCheck {
  const ttl = opts.ttlSeconds ?? 60;
  return async (chatId, userId) => {
    const key = new CoreKeys(opts.keyPrefix).telegramAdmin(chatId, userId);
    try {
      const cached = await opts.redis.get(key);
      if (cached === '1' || cached === '0') return cached === '1';
    } catch (err) {
      opts.logger.warn({ err: telegramError(err) }, 'admin cache unavailable; asking Telegram');
    }
    let admin: boolean;
    try {
      const member = await opts.api.getChatMember(chatId, userId);
      admin = member.status === 'administrator' || member.status === 'creator';
    } catch (err) {
      // Not cached: the next attempt asks again.
      opts.logger.warn({ err: telegramError(err, opts.token), chatId }, 'getChatMember failed; treating the user as not an admin');
      return false;
    }
    await opts.redis.set(key, admin ? '1' : '0', 'EX', ttl).catch(() => undefined);
    return admin;
  };
}

import type { Redis } from 'ioredis';
import { CoreKeys } from '../contracts/keys.js';
import type { ChatKind, Platform } from '../contracts/incoming.js';
import { asLocale, resolveLocale, type Locale } from './index.js';

export type LanguageScope = 'user' | 'chat';

/**
 * The language a person chose with /language (per user), or an admin chose for a group or
 * channel (per chat). Kept without expiry: a choice is a setting, not a session.
 */
export class LanguageStore {
  private readonly keys: CoreKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = new CoreKeys(prefix);
  }

  private key(scope: LanguageScope, platform: Platform, id: string): string {
    return this.keys.language(scope, platform, id);
  }

  async get(scope: LanguageScope, platform: Platform, id: string): Promise<Locale | undefined> {
    return asLocale(await this.redis.get(this.key(scope, platform, id)));
  }

  async set(scope: LanguageScope, platform: Platform, id: string, locale: Locale): Promise<void> {
    await this.redis.set(this.key(scope, platform, id), locale);
  }

  /** A chat's choice follows it to a new id (a Telegram group upgraded to a supergroup); one already there wins. */
  async move(scope: LanguageScope, platform: Platform, from: string, to: string): Promise<void> {
    const saved = await this.redis.get(this.key(scope, platform, from));
    if (saved === null) return;
    await this.redis.set(this.key(scope, platform, to), saved, 'NX');
    await this.redis.del(this.key(scope, platform, from));
  }

  /** The scope a /language choice in this chat applies to. */
  static scopeOf(chatKind: ChatKind): LanguageScope {
    return chatKind === 'private' ? 'user' : 'chat';
  }
}

/** Who a message is from and where: what decides its replies' language. */
export interface LocaleSource {
  platform: Platform;
  userId: string;
  chatId: string;
  chatKind: ChatKind;
  locale?: string | undefined;
  chatLocale?: string | undefined;
}

/**
 * The language of the replies to one message. Private chats: the user's choice, else the
 * platform's tag for the user. Groups and channels: the chat's choice (an admin's /language),
 * else the chat's own platform language (Discord guild_locale), else the default, never the
 * presser's own language: a group card is read by everyone in the chat.
 */
export async function chooseLocale(store: LanguageStore, i: LocaleSource): Promise<Locale> {
  const { scope, id } = localeChoice(i);
  return localeOr(await store.get(scope, i.platform, id), i);
}

/** Whose saved choice chooseLocale reads for this message (bot/kernel/admission.ts reads the same key). */
export function localeChoice(i: LocaleSource): { scope: LanguageScope; id: string } {
  return i.chatKind === 'private' ? { scope: 'user', id: i.userId } : { scope: 'chat', id: i.chatId };
}

/** The saved choice (as read from Redis), else the platform's tag that chooseLocale falls back to. */
export function localeOr(saved: string | null | undefined, i: LocaleSource): Locale {
  return asLocale(saved) ?? resolveLocale(i.chatKind === 'private' ? i.locale : i.chatLocale);
}

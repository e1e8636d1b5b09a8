import type { Redis } from 'ioredis';
import type { Platform } from '../../../contracts/incoming.js';
import { CoreKeys } from '../../../contracts/keys.js';
import type { Ask, AskStore } from '../../kernel/stores.js';

const TTL_SECONDS = 15 * 60;

export class RedisAskStore implements AskStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(platform: Platform, userId: string): string {
    return new CoreKeys(this.prefix).ask(platform, userId);
  }

  async set(platform: Platform, userId: string, ask: Ask): Promise<void> {
    await this.redis.set(this.key(platform, userId), JSON.stringify(ask), 'EX', TTL_SECONDS);
  }

  async get(platform: Platform, userId: string): Promise<Ask | undefined> {
    const raw = await this.redis.get(this.key(platform, userId));
    if (raw === null) return undefined;
    try {
      const a = JSON.parse(raw) as Ask;
      if (a && typeof a.chatId === 'string' && (a.kind === 'where' || (a.kind === 'sent' && typeof a.swapId === 'string'))) return a;
    } catch {
      // An unreadable question is as good as none.
    }
    return undefined;
  }

  async clear(platform: Platform, userId: string): Promise<void> {
    await this.redis.del(this.key(platform, userId));
  }
}

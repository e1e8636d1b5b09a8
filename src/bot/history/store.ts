import type { Redis } from 'ioredis';
import type { Platform } from '../../contracts/incoming.js';
import { CoreKeys } from '../../contracts/keys.js';
import type { HistoryEntry, HistoryStore } from '../kernel/stores.js';

const KEEP = 200;
const ADDRESSES = 5;
const TTL_SECONDS = 365 * 86_400;

/** Per-user list of created swaps in Redis, newest first, capped. */
export class RedisHistoryStore implements HistoryStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(platform: Platform, userId: string): string {
    return new CoreKeys(this.prefix).history(platform, userId);
  }

  /** Beside the history it belongs to (CoreKeys, in keys.ts, names the history key). */
  private addressesKey(platform: Platform, userId: string): string {
    return `${this.key(platform, userId)}:addresses`;
  }

  async add(platform: Platform, userId: string, entry: HistoryEntry): Promise<void> {
    const key = this.key(platform, userId);
    await this.redis
      .multi()
      .lpush(key, JSON.stringify(entry))
      .ltrim(key, 0, KEEP - 1)
      .expire(key, TTL_SECONDS)
      .exec();
  }

  async page(platform: Platform, userId: string, page: number, size: number): Promise<{ entries: HistoryEntry[]; total: number }> {
    const key = this.key(platform, userId);
    const start = Math.max(0, page) * size;
    const [total, raw] = await Promise.all([this.redis.llen(key), this.redis.lrange(key, start, start + size - 1)]);
    return { entries: raw.map(parse).filter((e): e is HistoryEntry => e !== undefined), total };
  }

  /**
   * The addresses this user gave as destination or refund (newest first, at most ADDRESSES), for
   * /history's "swaps to my addresses": the same address given twice is kept once.
   */
  async addAddresses(platform: Platform, userId: string, addresses: ReadonlyArray<string | undefined>): Promise<void> {
    const key = this.addressesKey(platform, userId);
    const m = this.redis.multi();
    for (const a of addresses) if (a) m.lrem(key, 0, a).lpush(key, a);
    await m
      .ltrim(key, 0, ADDRESSES - 1)
      .expire(key, TTL_SECONDS)
      .exec();
  }

  async addresses(platform: Platform, userId: string): Promise<string[]> {
    return this.redis.lrange(this.addressesKey(platform, userId), 0, ADDRESSES - 1);
  }

  /** Every entry kept (at most KEEP), newest first: the CSV export. */
  async all(platform: Platform, userId: string): Promise<HistoryEntry[]> {
    const raw = await this.redis.lrange(this.key(platform, userId), 0, KEEP - 1);
    return raw.map(parse).filter((e): e is HistoryEntry => e !== undefined);
  }

  async entry(platform: Platform, userId: string, swapId: string): Promise<HistoryEntry | undefined> {
    return (await this.all(platform, userId)).find((e) => e.swapId === swapId);
  }
}

function parse(raw: string): HistoryEntry | undefined {
  try {
    const e = JSON.parse(raw) as HistoryEntry;
    return typeof e?.swapId === 'string' && typeof e.createdAt === 'number' ? e : undefined;
  } catch {
    return undefined;
  }
}

import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script run with EVALSHA, falling back to EVAL once after a Redis restart (NOSCRIPT). */
export class LuaScript {
  private readonly sha: string;
  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }
  async run(redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number | Buffer>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('NOSCRIPT')) return redis.eval(this.source, keys.length, ...keys, ...args);
      throw err;
    }
  }
}

import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChatTarget, Platform } from '../contracts/incoming.js';
import type { TrackingKeys } from '../contracts/keys.js';
import { scripts, type ScriptRunner } from '../scripts.js';

/**
 * Message pacing: sliding windows of send times in Redis, shared by every worker, one per chat
 * where the platform has a per-chat limit (Telegram: about 20 messages a minute in one group)
 * and one per platform (Telegram ~30/s, Discord ~45/s). The platform window matters because the
 * BullMQ limiter on each notify queue counts jobs, and one job may send two messages (the card
 * and a key moment): this counts messages. The chat's window (with its hold) and the platform's
 * are keys of different hash tags, so each is taken atomically on its own (scripts/takePace-2.lua)
 * and the chat's slot is given back when the platform's window is full. A chat the platform
 * rate-limited (429) is on hold until the wait it asked for is over.
 */

export interface PaceRule {
  limit: number;
  windowMs: number;
}

/** The default rules: Telegram groups and channels 20 per minute; everything else unpaced. */
function defaultPaceRule(target: ChatTarget): PaceRule | undefined {
  if (target.platform === 'telegram' && target.chatKind !== 'private') return { limit: 20, windowMs: 60_000 };
  return undefined;
}

export class Pacer {
  private readonly run: ScriptRunner;
  constructor(
    private readonly redis: Redis,
    private readonly keys: TrackingKeys,
    private readonly rule: (target: ChatTarget) => PaceRule | undefined = defaultPaceRule,
    /** Messages per window for the whole platform; undefined: no platform window. */
    private readonly platformRule: (platform: Platform) => PaceRule | undefined = () => undefined,
  ) {
    this.run = scripts(redis);
  }

  /**
   * 0 when the chat may get a message now (and counts it), else how long to wait (ms): while the
   * chat is on hold after a 429, or while a window is full.
   */
  async take(target: ChatTarget, tk: string): Promise<number> {
    const now = Date.now();
    const member = `${now}-${randomBytes(4).toString('hex')}`;
    const chat = this.rule(target);
    const chatWindow = this.keys.pace(tk);
    const wait = Number(
      await this.run('takePace', [this.keys.chatHold(tk), chatWindow], [now, member, chat?.windowMs ?? 0, chat?.limit ?? 0]),
    );
    if (wait > 0) return wait;
    const platform = this.platformRule(target.platform);
    if (!platform) return 0;
    const pace = this.keys.platformPace(target.platform);
    const platformWait = Number(
      await this.run('takePace', [this.keys.platformHold(target.platform), pace], [now, member, platform.windowMs, platform.limit]),
    );
    if (platformWait > 0 && chat) await this.redis.zrem(chatWindow, member);
    return platformWait;
  }

  /**
   * A per-chat 429: every job for this chat (any swap, any worker) waits `ms`; other chats go on.
   * Never shortens a longer hold already in place.
   */
  async hold(tk: string, ms: number): Promise<void> {
    const key = this.keys.chatHold(tk);
    const left = await this.redis.pttl(key);
    if (left < ms) await this.redis.set(key, String(Date.now() + ms), 'PX', Math.max(1, Math.ceil(ms)));
  }
}

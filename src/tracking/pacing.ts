import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChatTarget, Platform } from '../contracts/incoming.js';
import type { TrackingKeys } from '../contracts/keys.js';
import { scripts, type ScriptRunner } from '../scripts.js';

/**
 * Message pacing, shared by every worker through Redis: a sliding window of send times per chat
 * where the platform has a per-chat limit (Telegram: about 20 messages a minute in one group),
 * and one rate per platform (Telegram ~30/s, Discord ~45/s) counted in messages, since one notify
 * job may send two (the card and a key moment). The chat's window is a check: full, the job comes
 * back later (scripts/takePace-2.lua). The platform's rate is a booking (scripts/bookSend-1.lua,
 * GCRA): each message gets the next free slot, up to one window ahead, and the job waits for it
 * in hand. Jobs told "later" each time a window filled wasted a slot's worth of time per refusal:
 * one change to 5,000 chats took 1.31x the floor the limits set. A burst below the platform's
 * own depth leaves room for sends that reach it closer together than they were booked. The two
 * are keys of different hash tags, so each is taken atomically on its own, and the chat's slot is
 * given back when the platform is booked beyond the window. A chat the platform rate-limited
 * (429) is on hold until the wait it asked for is over.
 */

export interface PaceRule {
  limit: number;
  windowMs: number;
}

/** What pacing says of one message: send it at `at` (epoch ms, booked), or come back in `retryMs`. */
export type Pace = { at: number; retryMs?: undefined } | { retryMs: number; at?: undefined };

/** Slots a platform's rate lets go at once: 80% of its window's count, the rest kept for jitter. */
export const burstOf = (rule: PaceRule): number => Math.max(1, Math.floor(rule.limit * 0.8));

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
    /** Messages per window for the whole platform; undefined: no platform rate. */
    private readonly platformRule: (platform: Platform) => PaceRule | undefined = () => undefined,
  ) {
    this.run = scripts(redis);
  }

  /**
   * One message to this chat: booked (counted in the chat's window and the platform's rate), to
   * be sent at `at`; or not now (`retryMs`), while the chat is on hold after a 429, its
   * window is full, or the platform is booked a window ahead.
   */
  async take(target: ChatTarget, tk: string): Promise<Pace> {
    const now = Date.now();
    const member = `${now}-${randomBytes(4).toString('hex')}`;
    const chat = this.rule(target);
    const chatWindow = this.keys.pace(tk);
    const wait = Number(
      await this.run('takePace', [this.keys.chatHold(tk), chatWindow], [now, member, chat?.windowMs ?? 0, chat?.limit ?? 0]),
    );
    if (wait > 0) return { retryMs: wait };
    const booked = await this.book(target.platform, now, 'window');
    if (booked >= 0) return { at: now + booked };
    if (chat) await this.redis.zrem(chatWindow, member);
    return { retryMs: -booked };
  }

  /** A new slot in the platform's rate for a call that missed its own, however far ahead: when it may go (epoch ms). */
  async rebook(platform: Platform): Promise<number> {
    const now = Date.now();
    return now + (await this.book(platform, now, 'any'));
  }

  /** How late a call may be on its slot: half the room the burst leaves below the platform's depth. */
  lateness(platform: Platform): number {
    const rule = this.platformRule(platform);
    return rule ? ((rule.limit - burstOf(rule)) * (rule.windowMs / rule.limit)) / 2 : Infinity;
  }

  /** The wait (ms) before the booked slot, or minus the wait before asking again (booked a window ahead). */
  private async book(platform: Platform, now: number, horizon: 'window' | 'any'): Promise<number> {
    const rule = this.platformRule(platform);
    if (!rule) return 0;
    const args = [now, rule.windowMs / rule.limit, burstOf(rule), horizon === 'window' ? rule.windowMs : Number.MAX_SAFE_INTEGER];
    return Number(await this.run('bookSend', [this.keys.platformRate(platform)], args));
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

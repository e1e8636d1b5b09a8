import type { Redis } from 'ioredis';
import type { Incoming } from '../../contracts/incoming.js';
import { CoreKeys } from '../../contracts/keys.js';
import type { TrackingService } from '../../contracts/tracking.js';
import { localeChoice, localeOr } from '../../i18n/store.js';
import type { Locale } from '../../i18n/index.js';
import { isCluster, scripts, type ScriptRunner } from '../../scripts.js';
import type { RateDecision } from './rate-limit.js';

/**
 * An update's first round trip: what the core needs before it dispatches, in one script
 * (scripts/admit-4.lua) instead of three to four commands. It takes the user's rate token (the
 * same bucket and logic as RateLimiter), reads the reply language (the key chooseLocale reads),
 * drops the open question when dispatch would (a command or a button that does not ask one; only
 * when allowed), and checks whether the chat has a welcome-back record (tracking's key: absent,
 * welcome back has nothing to say and is not asked).
 *
 * These keys live in different hash slots (the language is a setting kept forever, under a name
 * that cannot move), so on a Redis Cluster admit() returns undefined and the core takes the same
 * steps one by one, as it does for whatever may be group chatter (its rate is taken only once it
 * is known not to be).
 */
export interface Admitted {
  locale: Locale;
  decision: RateDecision;
  /** The open question was dropped (dispatch must not drop it again). */
  questionDropped: boolean;
  /** Whether the chat has a welcome-back record; undefined: not checked (ask tracking). */
  away: boolean | undefined;
}

export class Admission {
  private readonly run: ScriptRunner;
  private readonly keys: CoreKeys;
  private readonly single: boolean;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly perMinute: number,
    private readonly tracking: Pick<TrackingService, 'awayRecordKey'>,
  ) {
    this.run = scripts(redis);
    this.keys = new CoreKeys(prefix);
    this.single = !isCluster(redis);
  }

  /** Undefined when the steps must be taken one by one (a Redis Cluster). */
  async admit(incoming: Incoming, dropQuestion: boolean, now: number): Promise<Admitted | undefined> {
    if (!this.single) return undefined;
    const { scope, id } = localeChoice(incoming);
    const language = this.keys.language(scope, incoming.platform, id);
    const awayKey = incoming.chatKind === 'private' ? this.tracking.awayRecordKey?.(incoming) : undefined;
    const result = await this.run(
      'admit',
      [
        this.keys.rate(incoming.platform, incoming.userId),
        language,
        this.keys.ask(incoming.platform, incoming.userId),
        awayKey ?? language,
      ],
      [String(this.perMinute), String(this.perMinute / 60_000), String(Math.floor(now)), dropQuestion ? '1' : '0', awayKey ? '1' : '0'],
    );
    const [allowed, wait, saved, away] = Array.isArray(result) ? (result as [number, number, string | null, number]) : [1, 0, null, 0];
    return {
      locale: localeOr(saved, incoming),
      decision: Number(allowed) === 1 ? { allowed: true } : { allowed: false, retryAfterMs: Math.max(1, Number(wait) || 1000) },
      questionDropped: Number(allowed) === 1 && dropQuestion,
      away: awayKey ? Number(away) === 1 : undefined,
    };
  }
}

/**
 * A sliding-window limit as the fake platforms enforce it: at most `limit` accepted calls in any
 * `windowMs`. Stricter than a fixed window (no double burst across a window edge), so a sender
 * that passes here passes the real platform's fuzzier limit too.
 */
export class RateWindow {
  private readonly times: number[] = [];
  private head = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** 0 when a call at `now` fits (and counts it), else ms until one would fit. */
  take(now: number): number {
    const wait = this.peek(now);
    if (wait === 0) this.times.push(now);
    return wait;
  }

  /** 0 when a call at `now` would fit, else ms until one would; counts nothing. */
  peek(now: number): number {
    while (this.head < this.times.length && (this.times[this.head] as number) <= now - this.windowMs) this.head++;
    if (this.head > 1024) {
      this.times.splice(0, this.head);
      this.head = 0;
    }
    const inWindow = this.times.length - this.head;
    if (inWindow < this.limit) return 0;
    return Math.max(1, (this.times[this.head] as number) + this.windowMs - now);
  }
}

/** One call that reached a fake platform. */
export interface SinkEvent {
  platform: 'telegram' | 'discord';
  /** sendMessage, editMessageText, ... (Telegram) or send, edit, dm (Discord). */
  method: string;
  /** Telegram chat id; Discord channel id. */
  chatId: string;
  messageId: string;
  /** performance.now() when the request body had arrived. */
  at: number;
  /** Answered 429 (over the limit): the message was not delivered. */
  limited: boolean;
  /** Telegram text (HTML) or Discord embed titles and descriptions, for telling cards apart. */
  text: string;
}

export type SinkListener = (e: SinkEvent) => void;

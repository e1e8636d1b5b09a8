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

/** Methods that edit a message in place / send a new one, on either fake platform. */
export const EDIT_METHODS: ReadonlySet<string> = new Set(['editMessageText', 'editMessageCaption', 'edit']);
export const SEND_METHODS: ReadonlySet<string> = new Set(['sendMessage', 'sendPhoto', 'send']);

/** What both fake platforms keep: the calls that reached them, their listeners and counters. */
export interface SinkRecord {
  readonly events: SinkEvent[];
  /** 429 replies so far. */
  limited(): number;
  /** Messages accepted so far. */
  delivered(): number;
  onEvent(listener: SinkListener): () => void;
  /** Forget recorded events (counters stay). */
  clearEvents(): void;
}

/** The one recorder both sinks use: `record` each call as it arrives, `deliver` each one accepted; `view` is what the sink shows. */
export function sinkRecorder(): { view: SinkRecord; record(event: SinkEvent): void; deliver(): void } {
  const listeners = new Set<SinkListener>();
  const events: SinkEvent[] = [];
  let limitedCount = 0;
  let deliveredCount = 0;
  const view: SinkRecord = {
    events,
    limited: () => limitedCount,
    delivered: () => deliveredCount,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clearEvents: () => {
      events.length = 0;
    },
  };
  return {
    view,
    record(event) {
      events.push(event);
      for (const l of listeners) l(event);
      if (event.limited) limitedCount++;
    },
    deliver: () => {
      deliveredCount++;
    },
  };
}

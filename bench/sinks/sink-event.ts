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

import type { ChatTarget, Incoming, MessageRef, Platform } from '../contracts/incoming.js';
import type { Reply } from '../contracts/reply.js';
import type { Locale } from '../i18n/index.js';

/**
 * The platform-neutral core as the adapters see it. Adapters turn platform updates into Incoming,
 * call handle(), and render each Reply. They never look inside.
 */
export interface BotCore {
  /** Never throws on user input: every failure becomes a Reply that says what was wrong. */
  handle(incoming: Incoming): Promise<Reply[]>;
  /**
   * Suggestions for a partly typed value, from cached data only (no API request per keystroke):
   * Discord autocomplete. `network` narrows token suggestions to that network; `locale` is the
   * user's platform language tag, for the labels' words.
   */
  suggest(
    field: SuggestField,
    partial: string,
    context?: { network?: string; sourceNetwork?: string; locale?: string },
  ): Promise<Suggestion[]>;
  /**
   * Quotes typed in a chat the bot is not in (Telegram inline mode): one result per sensible
   * reading of the query, or a how-to and common routes. Never deposit details. Never throws.
   */
  inlineQuote(query: InlineQuery): Promise<InlineAnswer>;
  /**
   * The chat now has another id (a Telegram group upgraded to a supergroup): what it followed,
   * its settings and language go with it. Never throws.
   */
  chatMoved?(platform: Platform, fromChatId: string, toChatId: string): Promise<void>;
  /**
   * A mention in a chat the bot is not in (Telegram guest mode): exactly one result, public like
   * an inline one: a swap id, hash or address becomes that swap's masked card, anything else a
   * quote or a how-to. Rate limited with inline queries. Never throws.
   */
  guestQuery?(query: InlineQuery): Promise<InlineResult>;
  /**
   * A message someone pointed the bot at (Discord's "Track this swap"): the masked card of the
   * swap it names with the next actions, for that person only; a helpful note when it names none.
   * Never throws.
   */
  trackThis?(incoming: Incoming, text: string): Promise<Reply[]>;
  /**
   * A reply marked `depositCardOf` reached this private chat as `ref`: tracking keeps the ref to
   * edit the card in place as the swap moves on, and the creator's live status card follows
   * below it. Never throws.
   */
  depositCardSent?(swapId: string, chat: ChatTarget, ref: MessageRef): Promise<void>;
  /**
   * The language handle() would answer `who` in (a saved /language choice, else the platform's
   * tag): for the few words an adapter says itself (platforms/words.ts). Never throws.
   */
  localeOf?(who: Pick<Incoming, 'platform' | 'userId' | 'chatId' | 'chatKind' | 'locale' | 'chatLocale'>): Promise<Locale>;
}

export interface InlineQuery {
  platform: Platform;
  userId: string;
  userName: string;
  /** What the user typed after the bot's name. Untrusted. */
  text: string;
  /** The user's language tag as the platform gives it (Telegram language_code). */
  locale?: string;
}

/** One result: what the list shows (title, description) and the message it sends when chosen. */
export interface InlineResult {
  /** Unique within the answer, <= 64 bytes; starts with the kind ("quote:", "fix:", "help"...). */
  id: string;
  kind: 'quote' | 'fix' | 'route' | 'help' | 'problem' | 'slow' | 'status';
  title: string;
  description: string;
  /** Sent into the chat as is: public, so nothing in it is private to anyone. */
  reply: Reply;
}

export interface InlineAnswer {
  results: InlineResult[];
  /** Whether the answer depends on who asked (the platform must not show it to others). */
  personal: boolean;
  /** How long the platform may reuse this answer for the same query. */
  cacheSeconds: number;
}

export type SuggestField = 'network' | 'source_network' | 'destination_network' | 'token';

export interface Suggestion {
  /** What the user sees, e.g. "Arbitrum One (ARBITRUM_MAINNET)". <= 100 characters. */
  label: string;
  /** What goes into the command, e.g. "ARBITRUM_MAINNET". <= 100 characters. */
  value: string;
}

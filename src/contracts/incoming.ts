/**
 * What a platform adapter hands the core: one neutral message or button press. Adapters fill it;
 * handlers read it and never learn which platform they serve beyond the `platform` tag (used only
 * as part of storage keys).
 */
/** Every platform the bot serves: the one list (queues, key parsing, input checks read it). 'mcp' is an agent's bearer key (src/mcp): a subscriber kind that tracking delivers to as events, not chat messages. */
export const PLATFORMS = ['telegram', 'discord', 'console', 'mcp'] as const;
export type Platform = (typeof PLATFORMS)[number];

export function isPlatform(value: unknown): value is Platform {
  return (PLATFORMS as readonly unknown[]).includes(value);
}
export type ChatKind = 'private' | 'group' | 'channel';

/** A chat the bot can write to. For private chats chatId is the user's own id on that platform. */
export interface ChatTarget {
  platform: Platform;
  chatId: string;
  chatKind: ChatKind;
  /**
   * A topic inside the chat (Telegram forum message_thread_id) where messages go; absent: the
   * chat's main stream. Discord threads are channels of their own (their id is the chatId).
   */
  threadId?: string;
}

/** A message the bot sent, so it can be edited later (status cards, the wizard). */
export interface MessageRef {
  platform: Platform;
  chatId: string;
  messageId: string;
  /**
   * 'media': a message whose content is a picture or file with a caption (a Telegram photo), which
   * can only be edited as such (editMessageCaption/Media, never editMessageText). Absent: text or unknown.
   */
  kind?: 'media';
}

export interface Incoming {
  platform: Platform;
  userId: string;
  /** Display name as the platform gave it. Untrusted text: never markup. */
  userName: string;
  chatId: string;
  chatKind: ChatKind;
  /** The topic the message was posted in (Telegram forum message_thread_id), if any. */
  threadId?: string;
  /** A command line ("/quote 100 usdc arb base") or a plain answer to a prompt ("0xabc..."). */
  text?: string;
  /** The action string of a pressed button (see bot/kernel/actions.ts). Untrusted: may be forged. */
  action?: string;
  /** The message that carried the pressed button, when the platform knows it. */
  messageRef?: MessageRef;
  /**
   * Whether the sender administers this chat (Telegram getChatMember, Discord Manage Channels or
   * the configured role). Asked only by commands that need it; absent means "not an admin".
   */
  isChatAdmin?: () => Promise<boolean>;
  /**
   * The sender's language as the platform tags it (Telegram language_code, Discord locale, the
   * terminal chat's --lang or LANG). Untrusted; the core resolves it (src/i18n) to one it speaks.
   */
  locale?: string;
  /** The chat's own language where the platform has one (Discord guild_locale): group cards use it. */
  chatLocale?: string;
}

import type { Chat, Message, User } from 'grammy/types';
import type { ChatKind, MessageRef } from '../../contracts/incoming.js';

/**
 * Telegram updates -> the facts the core needs: who, where, and whether a command is for us.
 * Pure functions over Bot API objects, so the rules are testable without a bot.
 */

export function chatKind(chat: Pick<Chat, 'type'>): ChatKind {
  return chat.type === 'private' ? 'private' : chat.type === 'channel' ? 'channel' : 'group';
}

export type Addressing =
  /** A command for this bot (bare, or /cmd@thisbot): `text` has the @mention removed. */
  | { kind: 'ours'; text: string }
  /** /cmd@otherbot: another bot's business. */
  | { kind: 'other' }
  /** Not a command. */
  | { kind: 'none' };

const COMMAND = /^\/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{1,64}))?(?=\s|$)/;

export function commandAddressing(text: string, botUsername: string): Addressing {
  const m = COMMAND.exec(text);
  if (!m) return { kind: 'none' };
  const [whole, name, mention] = m;
  if (mention !== undefined && mention.toLowerCase() !== botUsername.toLowerCase()) return { kind: 'other' };
  return { kind: 'ours', text: `/${name}${text.slice(whole.length)}` };
}

/** Who acts: a user, or a chat acting as one (a channel, or a group's anonymous admin). */
export interface Actor {
  userId: string;
  userName: string;
  /** The id to DM: only a real user has a private chat; a chat acting as sender has none. */
  dmUserId?: number;
  /** Posting as the chat itself is only open to its admins (anonymous admins, channel posts). */
  actsAsChat: boolean;
  /** The user's app language (language_code), when Telegram sends it. */
  locale?: string;
}

export function userName(u: Pick<User, 'first_name' | 'last_name' | 'username'>): string {
  const full = [u.first_name, u.last_name].filter(Boolean).join(' ').trim();
  return full || (u.username ? `@${u.username}` : 'someone');
}

export function actorOf(msg: Pick<Message, 'from' | 'sender_chat' | 'chat'>): Actor | undefined {
  const sc = msg.sender_chat;
  if (sc) {
    // A channel post, or an anonymous admin writing as the group: the chat itself speaks.
    const title = 'title' in sc && sc.title ? sc.title : 'this chat';
    return { userId: String(sc.id), userName: title, actsAsChat: sc.id === msg.chat.id };
  }
  const u = msg.from;
  if (!u) return undefined;
  return {
    userId: String(u.id),
    userName: userName(u),
    dmUserId: u.id,
    actsAsChat: false,
    ...(u.language_code ? { locale: u.language_code } : {}),
  };
}

export type MessageRoute = { kind: 'handle'; text: string } | { kind: 'ignore' };

/**
 * Which text messages reach the core. Private: everything (commands and answers to prompts).
 * Groups and channels: commands for us, and replies to our own messages (answers to a prompt);
 * everything else is people talking among themselves.
 */
export function routeText(
  msg: Pick<Message, 'chat' | 'reply_to_message' | 'from'>,
  text: string,
  bot: { id: number; username: string },
): MessageRoute {
  if (msg.from?.is_bot && msg.from.username !== 'GroupAnonymousBot') return { kind: 'ignore' };
  const addressing = commandAddressing(text, bot.username);
  if (addressing.kind === 'other') return { kind: 'ignore' };
  if (addressing.kind === 'ours') return { kind: 'handle', text: addressing.text };
  if (msg.chat.type === 'private') return { kind: 'handle', text };
  if (msg.reply_to_message?.from?.id === bot.id) return { kind: 'handle', text };
  return { kind: 'ignore' };
}

export function messageRef(msg: Pick<Message, 'chat' | 'message_id'>): MessageRef {
  return { platform: 'telegram', chatId: String(msg.chat.id), messageId: String(msg.message_id) };
}

/** The forum topic a message belongs to (only real topic messages: a reply thread is not one). */
export function topicOf(msg: Pick<Message, 'message_thread_id' | 'is_topic_message'>): string | undefined {
  return msg.is_topic_message && msg.message_thread_id !== undefined ? String(msg.message_thread_id) : undefined;
}

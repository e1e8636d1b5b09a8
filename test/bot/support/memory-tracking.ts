import type { ChatTarget } from '../../../src/contracts/incoming.js';
import {
  DEFAULT_SETTINGS,
  type ChatSettings,
  type FollowedSwap,
  type FollowResult,
  type TrackingService,
} from '../../../src/contracts/tracking.js';

/**
 * A TrackingService kept in memory, for handler tests: the core only needs the interface; the real
 * one (Redis + BullMQ) is tested in test/tracking. It enforces the per-chat limit the same way.
 */
export class MemoryTracking implements TrackingService {
  readonly follows = new Map<string, Map<string, { since: number; userId: string; creator: boolean }>>();
  constructor(private readonly chatLimit = 100) {}

  private key(t: ChatTarget): string {
    return `${t.platform}:${t.chatKind}:${t.chatId}`;
  }

  async follow(swapId: string, target: ChatTarget, by: { userId: string; creator?: boolean }): Promise<FollowResult> {
    const chat = this.follows.get(this.key(target)) ?? new Map();
    this.follows.set(this.key(target), chat);
    if (chat.has(swapId)) return { ok: true, alreadyFollowing: true };
    if (chat.size >= this.chatLimit) return { ok: false, reason: 'chat_limit', limit: this.chatLimit };
    chat.set(swapId, { since: Date.now() + chat.size, userId: by.userId, creator: by.creator === true });
    return { ok: true, alreadyFollowing: false };
  }

  /** `chat|swapId` of chats that have the swap's live status card (tests say when one was sent). */
  readonly cards = new Set<string>();

  async hasCard(swapId: string, target: ChatTarget): Promise<boolean> {
    return this.cards.has(`${this.key(target)}|${swapId}`);
  }

  /** Swaps asked to be polled at once, in order. */
  readonly polledNow: string[] = [];

  async pollNow(swapId: string): Promise<void> {
    this.polledNow.push(swapId);
  }

  async unfollow(swapId: string, target: ChatTarget): Promise<boolean> {
    return this.follows.get(this.key(target))?.delete(swapId) ?? false;
  }

  async listFollowed(target: ChatTarget): Promise<FollowedSwap[]> {
    const chat = this.follows.get(this.key(target));
    return [...(chat?.entries() ?? [])].map(([swapId, f]) => ({ swapId, since: f.since })).sort((a, b) => b.since - a.since);
  }

  readonly muted = new Set<string>();
  readonly chatSettings = new Map<string, ChatSettings>();

  async mute(swapId: string, target: ChatTarget, muted: boolean): Promise<boolean> {
    if (!this.follows.get(this.key(target))?.has(swapId)) return false;
    if (muted) this.muted.add(`${this.key(target)}|${swapId}`);
    else this.muted.delete(`${this.key(target)}|${swapId}`);
    return true;
  }

  async isMuted(swapId: string, target: ChatTarget): Promise<boolean | undefined> {
    if (!this.follows.get(this.key(target))?.has(swapId)) return undefined;
    return this.muted.has(`${this.key(target)}|${swapId}`);
  }

  async settings(target: ChatTarget): Promise<ChatSettings> {
    return this.chatSettings.get(this.key(target)) ?? { ...DEFAULT_SETTINGS, moments: [...DEFAULT_SETTINGS.moments] };
  }

  async saveSettings(target: ChatTarget, settings: ChatSettings): Promise<void> {
    this.chatSettings.set(this.key(target), settings);
  }

  /** Who follows a swap, as "platform:kind:chat" keys. */
  followersOf(swapId: string): string[] {
    return [...this.follows.entries()].filter(([, m]) => m.has(swapId)).map(([k]) => k);
  }
}

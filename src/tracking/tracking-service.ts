import type { ChatTarget, MessageRef } from '../contracts/incoming.js';
import { isSwapId } from '../contracts/swap-id.js';
import type { ChatSettings, CreatorNotes, FollowBy, FollowedSwap, FollowResult, TrackingService } from '../contracts/tracking.js';
import type { Locale } from './locales.js';
import type { ChatMoves } from './chat-moves.js';
import type { AddressWatch } from './address-watch.js';
import { pollJobId, targetKey } from './keys.js';
import type { SettingsStore } from './settings.js';
import type { TrackingQueues } from './queues.js';
import type { Subscriptions, SubscriptionLimits } from './subscriptions.js';
import type { HintKind, SwapStore } from './swap-store.js';

/** The TrackingService the command core uses: Redis subscriptions + one poll job per swap. */

export class RedisTrackingService implements TrackingService {
  constructor(
    private readonly subs: Subscriptions,
    private readonly store: SwapStore,
    private readonly queues: TrackingQueues,
    private readonly limits: SubscriptionLimits,
    private readonly now: () => number,
    private readonly chatSettings: SettingsStore,
    private readonly moves?: ChatMoves,
    private readonly watches?: AddressWatch,
  ) {}

  async watchAddress(address: string, target: ChatTarget, by: { userId: string; locale?: Locale }, on: boolean): Promise<void> {
    if (!this.watches) throw new Error('address watching is not configured');
    await this.watches.set(address, target, by, on);
  }

  async moveChat(platform: ChatTarget['platform'], fromChatId: string, toChatId: string): Promise<number> {
    if (!this.moves) return 0;
    const moved = await this.moves.move(platform, fromChatId, toChatId);
    // Each swap's card in the new chat now (the old chat's cards stay behind, no longer edited).
    for (const swapId of moved) {
      const state = await this.store.load(swapId);
      if (state) await this.queues.enqueueNotify({ swapId, platform, chatId: toChatId, version: state.version });
    }
    return moved.length;
  }

  async droppedWhileAway(target: ChatTarget): Promise<FollowedSwap[]> {
    const ids = (await this.moves?.tellAway(target)) ?? [];
    const states = await this.store.loadMany(ids);
    return ids.map((swapId, i) => {
      const status = states[i]?.history.at(-1)?.status;
      return { swapId, since: 0, ...(status ? { status } : {}) };
    });
  }

  awayRecordKey(target: Pick<ChatTarget, 'platform' | 'chatId'>): string | undefined {
    return this.moves?.awayKey(target);
  }

  async followAgain(target: ChatTarget, by: Parameters<NonNullable<TrackingService['followAgain']>>[1]): Promise<number> {
    let n = 0;
    for (const swapId of (await this.moves?.takeAway(target)) ?? []) {
      const own = (await by.own?.(swapId).catch(() => false)) === true;
      const r = await this.follow(swapId, target, { userId: by.userId, own, ...(by.locale ? { locale: by.locale } : {}) }).catch(
        () => undefined,
      );
      if (r?.ok) n++;
    }
    return n;
  }

  async created(swapId: string, target: ChatTarget, by: FollowBy): Promise<void> {
    if (isSwapId(swapId)) await this.subs.pending(swapId.toLowerCase(), target, { ...by, creator: true }, this.now());
  }

  /**
   * Follows the creation records that no follow() cleared (a Redis restart or a crash came
   * between): at start and with every reconcile. A record younger than `graceMs` may be a Confirm
   * still in hand. Returns how many were followed.
   */
  async repairCreated(graceMs = 10_000): Promise<number> {
    let n = 0;
    for (const p of await this.subs.pendingBefore(this.now() - graceMs)) {
      const r = await this.follow(p.swapId, p.target, p.by);
      if (r.ok) n++;
      else await this.subs.pendingDone(p.swapId); // at a cap: nothing more a retry would change
    }
    return n;
  }

  async follow(swapId: string, target: ChatTarget, by: FollowBy): Promise<FollowResult> {
    if (!isSwapId(swapId))
      throw new Error(`"${swapId.slice(0, 80)}" is not a swap id (a UUID such as 3f2c1a9e-8b7d-4c6e-9f01-23456789abcd)`);
    const id = swapId.toLowerCase();
    const outcome = await this.subs.follow(id, target, by, this.now());
    if (outcome === 'chat_limit') return { ok: false, reason: 'chat_limit', limit: this.limits.maxPerChat };
    if (outcome === 'user_limit') return { ok: false, reason: 'user_limit', limit: this.limits.maxPerUser };
    // The creator's first status card waits (see scripts/follow-1.lua) until the adapter reports
    // the deposit card it delivered (depositCardSent: then at once, below it), else the first change.
    await this.queues.ensurePoll(id);
    if (outcome === 'followed') {
      // The swap is already known (another chat follows it): this chat gets its card now
      // rather than at the next change.
      const state = await this.store.load(id);
      if (state) await this.queues.enqueueNotify({ swapId: id, platform: target.platform, chatId: target.chatId, version: state.version });
    }
    if (by.creator) await this.subs.pendingDone(id);
    return { ok: true, alreadyFollowing: outcome === 'already' };
  }

  async depositCardSent(swapId: string, target: ChatTarget, ref: MessageRef): Promise<void> {
    if (!isSwapId(swapId)) return;
    const id = swapId.toLowerCase();
    const version = await this.store.setDepositCard(id, targetKey(target), ref);
    // Not polled yet: the first poll's notify job sends the status card (the record is behind it).
    if (version) await this.queues.enqueueNotify({ swapId: id, platform: target.platform, chatId: target.chatId, version });
    // A look now, so the card soon shows what the service knows (a deposit made at once).
    await this.pollNow(id);
  }

  async hasCard(swapId: string, target: ChatTarget): Promise<boolean> {
    if (!isSwapId(swapId)) return false;
    const d = (await this.store.deliveries(swapId.toLowerCase())).get(targetKey(target));
    // Sent, or due: a record behind the swap (version 0) gets its card at the next notify job.
    return d !== undefined && (d.ref !== undefined || d.version === 0);
  }

  /** `stored`: only redraw the cards from what is stored (the chain's news), no request to the service. */
  async pollNow(swapId: string, kind: Exclude<HintKind, 'both'> = 'ask'): Promise<void> {
    if (!isSwapId(swapId)) return;
    const id = swapId.toLowerCase();
    // The hint makes a run in progress reschedule at once; a delayed job is promoted now.
    const followers = await this.store.hint(id, kind);
    if (followers === 0) return;
    const job = await this.queues.poll.getJob(pollJobId(id));
    if (job) {
      if (await job.isDelayed()) await job.promote().catch(() => undefined);
      return;
    }
    await this.queues.ensurePoll(id);
  }

  async unfollow(swapId: string, target: ChatTarget): Promise<boolean> {
    if (!isSwapId(swapId)) return false;
    return this.subs.unfollow(swapId.toLowerCase(), target);
  }

  async mute(swapId: string, target: ChatTarget, muted: boolean): Promise<boolean> {
    if (!isSwapId(swapId)) return false;
    return this.store.setMuted(swapId.toLowerCase(), targetKey(target), muted);
  }

  async depositSeen(swapId: string): Promise<boolean> {
    if (!isSwapId(swapId)) return false;
    return (await this.store.load(swapId.toLowerCase()))?.depositSeenAt !== undefined;
  }

  async notes(swapId: string): Promise<CreatorNotes> {
    return isSwapId(swapId) ? this.store.notes(swapId.toLowerCase()) : {};
  }

  /**
   * What the creator told the bot ("I've sent it", a refund address or none), merged into what it
   * said before; then one version more, so every chat's card is redrawn with it (no new moment).
   */
  async note(swapId: string, notes: CreatorNotes): Promise<void> {
    if (!isSwapId(swapId)) return;
    const id = swapId.toLowerCase();
    await this.store.setNotes(id, { ...(await this.store.notes(id)), ...notes });
    // Only "I've sent it" redraws: the refund record comes at creation, before the creator's first
    // card (which waits for the deposit card, scripts/follow-1.lua), and a redraw then would send it early.
    // The poll job redraws (it alone writes the swap's state); "I've sent it" then asks the service too.
    if (notes.claim) await this.pollNow(id, 'stored');
  }

  async isMuted(swapId: string, target: ChatTarget): Promise<boolean | undefined> {
    if (!isSwapId(swapId)) return undefined;
    const f = await this.store.follower(swapId.toLowerCase(), targetKey(target));
    return f ? f.muted === true : undefined;
  }

  settings(target: ChatTarget): Promise<ChatSettings> {
    return this.chatSettings.get(targetKey(target));
  }

  saveSettings(target: ChatTarget, settings: ChatSettings): Promise<void> {
    return this.chatSettings.save(targetKey(target), settings);
  }

  async listFollowed(target: ChatTarget): Promise<FollowedSwap[]> {
    const entries = await this.subs.listForChat(target);
    const states = await this.store.loadMany(entries.map((e) => e.swapId));
    return entries.map((e, i) => {
      const status = states[i]?.status;
      return { swapId: e.swapId, since: e.since, ...(status ? { status } : {}) };
    });
  }
}

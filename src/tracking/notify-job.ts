import type { Job } from 'bullmq';
import type { ChatTarget, Platform } from '../contracts/incoming.js';
import type { Messenger } from '../contracts/messenger.js';
import type { ChatLanguages, TrackingRenderer } from '../contracts/tracking.js';
import type { RouteTimesStore } from './route-times.js';
import type { Logger } from '../log.js';
import { trackingLocales } from './locales.js';
import { targetKey } from './keys.js';
import type { Pacer } from './pacing.js';
import type { Subscriptions } from './subscriptions.js';
import type { SettingsStore } from './settings.js';
import type { Delivery, SwapStore } from './swap-store.js';
import { NotifyRun, type NotifyOutcome, type SendingWhat } from './notify-run.js';

/**
 * One notify job brings one chat up to date on one swap: edit (or send) its status card to the
 * newest state, then send each key moment it has not had. The job carries no state: it reads
 * the latest from Redis, so a repeated job is a no-op and a chat that is behind gets only the
 * newest card (coalescing). Progress is recorded after each message, so a retry resumes.
 *
 * A crash between a platform call and its record, or a send that timed out or was cut after it
 * was written (DeliveryError.inDoubt), leaves the outcome unknown. Every new message
 * is announced in the delivery record first (`sending`), so the next run knows it is in doubt:
 * - where the platform deduplicates sends (Messenger.idempotentSends: Discord's nonce) the run
 *   sends it again with the same key: exactly once;
 * - elsewhere (Telegram) a key moment in doubt is NOT sent again: at most once. A repeated
 *   "Swap completed" or "Deposit received" is a false alarm about money, and the status card
 *   still shows where the swap stands; a lost one is the lesser harm (and needs a crash inside a
 *   ~100 ms window). A card in doubt is sent again (a chat must have a live card; the older one
 *   may stay behind, stale), since it cannot be edited without the ref the crash lost.
 * Card edits are idempotent and simply run again. A moment whose later moment the chat's card
 * already showed before this run is superseded news and is skipped, so old news never follows new.
 *
 * What the chat chose decides what is sent (settings.ts): a muted swap, a moment the chat did not
 * pick, or a group's swap below its minimum size edits the card only; a group in quiet mode gets
 * a ✅ reaction on the card for a completion; quiet hours send without sound; cards go to the
 * chosen topic, else the one /track was used in.
 *
 * Everything is in the chat's language, read at each run (so a /language choice shows at the next
 * update): a private chat's user's saved choice, a group's or channel's own (admins'), else the
 * language the chat was answered in when it followed, else the default.
 */

export interface NotifyJobData {
  swapId: string;
  platform: Platform;
  chatId: string;
  /** The version that caused the job (for logs; the processor delivers the newest). */
  version: number;
}

export interface NotifyDeps {
  subs: Subscriptions;
  store: SwapStore;
  settings: SettingsStore;
  /** The clock quiet hours are read on (default Date.now). */
  now?: () => number;
  messenger: Messenger;
  render: TrackingRenderer;
  /** The languages users and chats chose with /language. */
  languages: Pick<ChatLanguages, 'get'>;
  pacer: Pacer;
  /** Pauses the whole platform queue (a global 429 from the platform). */
  rateLimit(ms: number): Promise<void>;
  logger: Logger;
  /** Fault injection for tests: runs after a platform accepted a new message, before it is recorded. */
  afterSend?: (what: SendingWhat) => void | Promise<void>;
  /** The chat lives on under a new id (a group upgraded to a supergroup): move its follows there. */
  onChatMoved?: (from: ChatTarget, toChatId: string) => Promise<number>;
  /** A private chat blocked the bot: remember the swaps it stopped following, to tell on return. */
  onBlocked?: (target: ChatTarget, swapIds: string[]) => Promise<void>;
  /** Observed times per route, for the card's expected time. */
  routeTimes?: Pick<RouteTimesStore, 'read'>;
}

export type { NotifyOutcome } from './notify-run.js';

/** The notify job's processor (model: BullMQ's Worker processor): reads what the chat needs, then runs a NotifyRun. */
export class NotifyProcessor {
  constructor(private readonly deps: NotifyDeps) {}

  async process(job: Job<NotifyJobData>, token?: string): Promise<NotifyOutcome> {
    const { deps } = this;
    const { swapId } = job.data;
    const follower = await deps.subs.follower(swapId, job.data);
    if (!follower) return 'not_following';
    const tk = targetKey(follower);
    const [snap, settings, saved] = await Promise.all([
      deps.store.snapshotFor(swapId, tk),
      deps.settings.get(tk),
      follower.chatKind === 'private'
        ? deps.languages.get('user', follower.platform, follower.userId)
        : deps.languages.get('chat', follower.platform, follower.chatId),
    ]);
    const { state, details, moments } = snap;
    const live = state && details ? { state, details } : undefined;
    const d: Delivery = snap.delivery ?? { version: 0, moments: moments.length };
    const behind = (live && (d.version < live.state.version || d.moments < moments.length)) || (snap.stopped && !d.stopped);
    if (!behind) return live ? 'up_to_date' : 'no_state';
    return new NotifyRun(deps, job, token, follower, snap, settings, saved ?? follower.locale ?? trackingLocales.fallback()).deliver();
  }
}

import { createHash, randomBytes } from 'node:crypto';
import { DelayedError, RateLimitError, type Job } from 'bullmq';
import type { ChatTarget, MessageRef, Platform } from '../contracts/incoming.js';
import { DeliveryError, type Messenger } from '../contracts/messenger.js';
import type { Reply } from '../contracts/reply.js';
import type { CardView, ChatLanguages, TrackingRenderer } from '../contracts/tracking.js';
import { shownDistribution, type RouteTimes } from '../contracts/route-times.js';
import type { RouteTimesStore } from './route-times.js';
import type { SwapState } from './observe.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { jobLogger, type Logger } from '../log.js';
import { defaultLocale } from '../i18n/index.js';
import { targetKey } from './keys.js';
import type { Pacer } from './pacing.js';
import type { Subscriptions } from './subscriptions.js';
import { inQuietHours, swapUsd, withheld, type SettingsStore } from './settings.js';
import type { Delivery, SwapStore } from './swap-store.js';

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

/** The card's view of the swap's route: its p50 and p90 once enough swaps are behind them, and "slower". */
async function routeViewOf(deps: NotifyDeps, state: SwapState, now: number): Promise<Pick<CardView, 'routeTimes' | 'slower'>> {
  if (!state.route || !deps.routeTimes) return {};
  const seen = shownDistribution((await deps.routeTimes.read(state.route, now).catch(() => ({}) as RouteTimes)).seen);
  return { ...(seen ? { routeTimes: { p50Ms: seen.p50Ms, p90Ms: seen.p90Ms, count: seen.count } } : {}), ...(state.slower ? { slower: true } : {}) };
}

type SendingWhat = NonNullable<Delivery['sending']>['what'];

export type NotifyOutcome = 'not_following' | 'no_state' | 'up_to_date' | 'delivered' | 'gone' | 'moved';

/** The chat stopped following mid-job: nothing more to deliver. */
class NotFollowing extends Error {}

export function createNotifyProcessor(deps: NotifyDeps) {
  const { subs, store, messenger, logger } = deps;

  return async function processNotify(job: Job<NotifyJobData>, token?: string): Promise<NotifyOutcome> {
    const { swapId } = job.data;
    const follower = await subs.follower(swapId, job.data);
    if (!follower) return 'not_following';
    const tk = targetKey(follower);
    const [snap, settings, saved] = await Promise.all([
      store.snapshotFor(swapId, tk),
      deps.settings.get(tk),
      follower.chatKind === 'private' ? deps.languages.get('user', follower.platform, follower.userId) : deps.languages.get('chat', follower.platform, follower.chatId),
    ]);
    const locale = saved ?? follower.locale ?? defaultLocale();
    const threadId = settings.topic ?? follower.threadId;
    const target: ChatTarget = { platform: follower.platform, chatId: follower.chatId, chatKind: follower.chatKind, ...(threadId ? { threadId } : {}) };
    const isPublic = target.chatKind !== 'private';
    const muted = follower.muted === true;
    const silent = muted || inQuietHours(settings, (deps.now ?? Date.now)());
    const { state, details, moments } = snap;
    const live = state && details ? { state, details } : undefined;
    let raw = snap.deliveryRaw;
    let d: Delivery = snap.delivery ?? { version: 0, moments: moments.length };
    const behind = (live && (d.version < live.state.version || d.moments < moments.length)) || (snap.stopped && !d.stopped);
    if (!behind) return live ? 'up_to_date' : 'no_state';
    // One child logger per run, carrying the job's and the chat's ids (made only when something is logged).
    let child: Logger | undefined;
    const log = () => (child ??= jobLogger(logger, job, { swapId, platform: target.platform, chatId: target.chatId }));

    const save = async (next: Delivery) => {
      const w = await store.setDelivery(swapId, tk, next, raw);
      if (w.result === 'not_following') throw new NotFollowing();
      // Another run of this chat moved on meanwhile: retry from what it recorded.
      if (w.result === 'conflict') throw new Error('the delivery record changed under this run; retrying from the newest');
      raw = w.raw;
      d = next;
    };
    const pace = async () => {
      const wait = await deps.pacer.take(target, tk);
      if (wait > 0) {
        // Over this chat's budget (or on hold after a 429): come back later, then with the newest card.
        await job.moveToDelayed(Date.now() + wait, token);
        throw new DelayedError();
      }
    };
    /** Sends a new message, announced first (see the note at the top); `done` is the record after it. */
    const sendNew = async (what: SendingWhat, reply: Reply, done: (ref: MessageRef) => Delivery) => {
      const key = d.sending?.what === what ? d.sending.key : randomBytes(12).toString('base64url');
      if (d.sending?.what !== what || d.sending.key !== key) await save({ ...d, sending: { what, key } });
      let ref: MessageRef;
      try {
        ref = await messenger.send(target, reply, { idempotencyKey: key, ...(silent ? { silent } : {}) });
      } catch (err) {
        // The platform refused it, or it never left: not delivered. A timeout or a reset after
        // the request was written leaves it in doubt: the mark stays, so the retry treats it as
        // a crash would (a key moment is not sent twice; a card is sent again).
        if (err instanceof DeliveryError && !err.inDoubt) await save(withoutSending(d));
        if (err instanceof DeliveryError && err.inDoubt) log().warn({ what, err }, 'no answer to a send: it may have been delivered');
        throw err;
      }
      await deps.afterSend?.(what);
      await save(withoutSending(done(ref)));
    };
    /** A message in doubt on a platform that cannot deduplicate: not sent again (at most once). */
    const inDoubt = (what: SendingWhat) => d.sending?.what === what && messenger.idempotentSends !== true;

    /** Runs one platform call; content the platform refuses is skipped (retrying cannot help). */
    const step = async (what: string, run: () => Promise<void>, skip: () => Promise<void>) => {
      try {
        await run();
      } catch (err) {
        if (!(err instanceof DeliveryError) || (err.failure !== 'rejected' && err.failure !== 'message_gone')) throw err;
        log().error({ step: what, err }, 'platform refused a tracking message; skipped');
        await skip();
      }
    };

    /**
     * The creator's deposit card follows the swap (seen, confirmed, closed): edited in place, never
     * sent again. A card that is gone or refused stays as it is (the status card says the rest).
     */
    const editDepositCard = async (details: SwapDetails) => {
      const ref = d.depositRef;
      const reply = ref ? deps.render.depositCard?.(details, locale) : undefined;
      if (!ref || !reply) return;
      const depositHash = hashReply(reply);
      if (d.depositHash === depositHash) return;
      await pace();
      try {
        if (messenger.editInPlace) await messenger.editInPlace(ref, reply);
        else await messenger.edit(ref, reply);
      } catch (err) {
        if (!(err instanceof DeliveryError) || (err.failure !== 'rejected' && err.failure !== 'message_gone')) throw err;
        log().info({ err }, 'the deposit card could not be edited (deleted or refused); left as it is');
      }
      await save({ ...d, depositHash });
    };

    try {
      if (live) {
        const cardSeen = d.version;
        await editDepositCard(live.details);
        if (d.version < live.state.version) {
          const version = live.state.version;
          const statuses = live.state.history.length;
          await step(
            'card',
            async () => {
              const view: CardView = { muted, ...(isPublic && settings.hideAmounts ? { hideAmounts: true } : {}), ...(live.state.depositSeenAt !== undefined ? { depositSeen: true } : {}), ...(await routeViewOf(deps, live.state, (deps.now ?? Date.now)())) };
              const card = deps.render.card(live.details, target, view, locale);
              const cardHash = hashReply(card);
              if (d.ref && d.cardHash === cardHash && !d.sending) return save({ ...d, version, statuses });
              // The chat chose to see status changes only: a confirmation more waits for the next one.
              const minor = !settings.minorEdits && d.statuses === statuses && d.moments >= moments.length;
              if (d.ref && minor && !d.sending) return save({ ...d, version });
              await pace();
              if (d.ref) {
                try {
                  const ref = await messenger.edit(d.ref, card);
                  return await save({ ...d, ref, version, cardHash, statuses });
                } catch (err) {
                  // Deleted: a new card below.
                  if (!(err instanceof DeliveryError && err.failure === 'message_gone')) throw err;
                }
              }
              await sendNew('card', card, (ref) => ({ ...d, ref, version, cardHash, statuses }));
            },
            () => save(withoutSending({ ...d, version })),
          );
        }
        // Moments older than one the card showed before this run are superseded news.
        let seen = -1;
        for (let i = moments.length - 1; i >= 0; i--) {
          if ((moments[i]?.version ?? Infinity) <= cardSeen) {
            seen = i;
            break;
          }
        }
        if (d.moments < seen && d.sending?.what !== 'card') await save(withoutSending({ ...d, moments: seen }));
        while (d.moments < moments.length) {
          const moment = moments[d.moments];
          if (!moment) break;
          const next = (): Delivery => withoutSending({ ...d, moments: d.moments + 1 });
          if (inDoubt('moment')) {
            log().warn({ moment: moment.kind }, 'this key message may have been delivered (a crash, or no answer to its send): not sending it twice');
            await save(next());
            continue;
          }
          const why = withheld(moment.kind, { settings, muted, isPublic, usd: swapUsd(live.details.swap) });
          if (why) {
            log().debug({ moment: moment.kind, why }, 'key moment not sent: the chat chose so (the card shows it)');
            await save(next());
            continue;
          }
          const cardRef = d.ref;
          if (isPublic && settings.reactOnly && moment.kind === 'completed' && cardRef && messenger.react) {
            // Quiet mode: a ✅ on the card instead of one more message (a reaction is idempotent).
            // A chat that refuses reactions (restricted, or the card is gone) gets the message instead.
            await pace();
            const reacted = await messenger.react(cardRef, '✅').then(() => true, (err: unknown) => {
              if (!(err instanceof DeliveryError) || (err.failure !== 'rejected' && err.failure !== 'message_gone')) throw err;
              log().warn({ err }, 'reaction refused: sending the completion as a message');
              return false;
            });
            if (reacted) {
              await save(next());
              continue;
            }
          }
          await pace();
          await step(moment.kind, () => sendNew('moment', deps.render.moment(moment, { details: live.details, state: live.state, target, locale }), next), () => save(next()));
        }
      }
      if (snap.stopped && !d.stopped) {
        const reason = snap.stopped;
        const done = (): Delivery => withoutSending({ ...d, stopped: true });
        if (inDoubt('stopped')) await save(done());
        else {
          await pace();
          await step('stopped', () => sendNew('stopped', deps.render.stopped(reason, swapId, locale), done), () => save(done()));
        }
      }
      return 'delivered';
    } catch (err) {
      if (err instanceof NotFollowing) return 'not_following';
      if (!(err instanceof DeliveryError)) throw err;
      const fail = { failure: err.failure };
      if (err.failure === 'rate_limited') {
        const ms = Math.max(err.retryAfterMs ?? 1000, 100);
        if (err.scope === 'global') {
          log().warn({ ...fail, retryAfterMs: ms }, 'platform-wide rate limit: pausing this platform queue');
          await deps.rateLimit(ms);
          throw new RateLimitError();
        }
        // A flood wait or a per-route bucket holds back this chat only: its jobs wait, others go on.
        log().warn({ ...fail, retryAfterMs: ms }, 'platform asked us to wait before writing to this chat');
        await deps.pacer.hold(tk, ms);
        await job.moveToDelayed(Date.now() + ms, token);
        throw new DelayedError();
      }
      if (err.failure === 'gone' && err.movedTo && deps.onChatMoved) {
        // Not gone: upgraded to a supergroup. This delivery is retried there with the rest.
        const moved = await deps.onChatMoved(target, err.movedTo);
        log().info({ movedTo: err.movedTo, moved }, 'group upgraded to a supergroup: its follows moved to the new chat');
        return 'moved';
      }
      if (err.failure === 'gone') {
        const blocked = target.chatKind === 'private' && deps.onBlocked ? (await subs.listForChat(target)).map((e) => e.swapId) : [];
        // This swap first, whatever the chat's listing says (a follow may be half done).
        const n = Number(await subs.unfollow(swapId, target)) + (await subs.removeTarget(target));
        if (target.chatKind === 'private') await deps.onBlocked?.(target, [swapId, ...blocked.filter((id) => id !== swapId)]);
        log().info({ ...fail, unfollowed: n }, 'chat is gone (blocked, kicked or deleted): unsubscribed it from every swap');
        return 'gone';
      }
      // transient: BullMQ retries with capped back-off, for as long as it takes; progress so far is kept.
      throw err;
    }
  };
}

function withoutSending(d: Delivery): Delivery {
  const { sending: _sending, ...rest } = d;
  return rest;
}

function hashReply(reply: Reply): string {
  const json = JSON.stringify(reply, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
  // 16 characters (96 bits): it only tells one card from the next.
  return createHash('sha1').update(json).digest('base64url').slice(0, 16);
}

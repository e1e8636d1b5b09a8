import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { DelayedError, RateLimitError, type Job } from 'bullmq';
import type { ChatTarget, MessageRef } from '../contracts/incoming.js';
import { DeliveryError } from '../contracts/messenger.js';
import type { Reply } from '../contracts/reply.js';
import type { Audience, CardView, ChatSettings } from '../contracts/tracking.js';
import { shownDistribution, type RouteTimes } from '../contracts/route-times.js';
import type { Locale } from './locales.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { asError, jobLogger, type Logger } from '../log.js';
import { targetKey } from './keys.js';
import type { NotifyDeps, NotifyJobData } from './notify-job.js';
import type { SwapState } from './observe.js';
import { inQuietHours, swapUsd, withheld } from './settings.js';
import type { Delivery, Follower, NotifySnapshot } from './swap-store.js';

export type SendingWhat = NonNullable<Delivery['sending']>['what'];

export type NotifyOutcome = 'not_following' | 'no_state' | 'up_to_date' | 'delivered' | 'gone' | 'moved';

/** The chat stopped following mid-job: nothing more to deliver. */
class NotFollowing extends Error {}

type Live = { state: SwapState; details: SwapDetails };

/**
 * One run of a notify job for one chat, one method per step: the deposit card, the status card,
 * the key moments, the "tracking stopped" notice, and what a platform's refusal means. It holds
 * the delivery record as it goes (`d`, and the stored value `raw` it replaces).
 */
export class NotifyRun {
  private readonly target: ChatTarget;
  private readonly tk: string;
  private readonly isPublic: boolean;
  /** Masked for anyone but the creator in their own private chat (a deposit card there is theirs: older entries carry no `own`). */
  private readonly audience: Audience;
  private readonly muted: boolean;
  private readonly silent: boolean;
  private raw: string | undefined;
  private d: Delivery;
  /** When the next platform call may go (epoch ms), booked by pace(). */
  private slot: number | undefined;
  /** One child logger per run, carrying the job's and the chat's ids (made only when something is logged). */
  private child: Logger | undefined;

  constructor(
    private readonly deps: NotifyDeps,
    private readonly job: Job<NotifyJobData>,
    private readonly token: string | undefined,
    follower: Follower,
    private readonly snap: NotifySnapshot,
    private readonly settings: ChatSettings,
    private readonly locale: Locale,
  ) {
    this.tk = targetKey(follower);
    const threadId = settings.topic ?? follower.threadId;
    this.target = { platform: follower.platform, chatId: follower.chatId, chatKind: follower.chatKind, ...(threadId ? { threadId } : {}) };
    this.isPublic = this.target.chatKind !== 'private';
    this.muted = follower.muted === true;
    this.silent = this.muted || inQuietHours(settings, this.clock());
    this.raw = snap.deliveryRaw;
    this.d = snap.delivery ?? { version: 0, moments: snap.moments.length };
    this.audience = !this.isPublic && (follower.own === true || this.d.depositRef !== undefined) ? 'private' : 'public';
  }

  async deliver(): Promise<NotifyOutcome> {
    const { snap } = this;
    try {
      if (snap.state && snap.details) {
        const live = { state: snap.state, details: snap.details };
        const cardSeen = this.d.version;
        await this.editDepositCard(live.details);
        if (this.d.version < live.state.version) await this.updateCard(live);
        await this.sendMoments(live, cardSeen);
      }
      if (snap.stopped && !this.d.stopped) await this.sendStopped(snap.stopped);
      return 'delivered';
    } catch (err) {
      if (err instanceof NotFollowing) return 'not_following';
      if (!(err instanceof DeliveryError)) throw err;
      return this.failed(err);
    }
  }

  /**
   * The creator's deposit card follows the swap (seen, confirmed, closed): edited in place, never
   * sent again. A card that is gone or refused stays as it is (the status card says the rest).
   */
  private async editDepositCard(details: SwapDetails): Promise<void> {
    const { messenger } = this.deps;
    const ref = this.d.depositRef;
    const reply = ref ? this.deps.render.depositCard?.(details, this.locale, this.snap.notes) : undefined;
    if (!ref || !reply) return;
    const depositHash = hashReply(reply);
    if (this.d.depositHash === depositHash) return;
    await this.pace();
    try {
      await this.onSlot();
      if (messenger.editInPlace) await messenger.editInPlace(ref, reply);
      else await messenger.edit(ref, reply);
    } catch (err) {
      if (!(err instanceof DeliveryError) || (err.failure !== 'rejected' && err.failure !== 'message_gone')) throw err;
      this.log().info({ err: asError(err) }, 'the deposit card could not be edited (deleted or refused); left as it is');
    }
    await this.save({ ...this.d, depositHash });
  }

  /** The status card to the newest state: edited, or sent once (again when the old one is deleted). */
  private async updateCard(live: Live): Promise<void> {
    const version = live.state.version;
    const statuses = live.state.history.length;
    await this.step(
      'card',
      async () => {
        const { d, settings } = this;
        const view: CardView = {
          muted: this.muted,
          ...(this.isPublic && settings.hideAmounts ? { hideAmounts: true } : {}),
          ...(live.state.depositSeenAt !== undefined ? { depositSeen: true } : {}),
          ...(this.snap.notes ? { notes: this.snap.notes } : {}),
          ...(await this.routeView(live.state)),
        };
        const card = this.deps.render.card(live.details, this.target, view, this.locale, this.audience);
        const cardHash = hashReply(card);
        if (d.ref && d.cardHash === cardHash && !d.sending) return this.save({ ...d, version, statuses });
        // The chat chose to see status changes only: a confirmation more waits for the next one.
        const minor = !settings.minorEdits && d.statuses === statuses && d.moments >= this.snap.moments.length;
        if (d.ref && minor && !d.sending) return this.save({ ...d, version });
        await this.pace();
        if (this.d.ref) {
          try {
            await this.onSlot();
            const ref = await this.deps.messenger.edit(this.d.ref, card);
            return await this.save({ ...this.d, ref, version, cardHash, statuses });
          } catch (err) {
            // Deleted: a new card below.
            if (!(err instanceof DeliveryError && err.failure === 'message_gone')) throw err;
          }
        }
        await this.sendNew('card', card, (ref) => ({ ...this.d, ref, version, cardHash, statuses }));
      },
      () => this.save(withoutSending({ ...this.d, version })),
    );
  }

  /** Each key moment the chat has not had, unless the chat chose otherwise or the card already showed later news. */
  private async sendMoments(live: Live, cardSeen: number): Promise<void> {
    const { moments } = this.snap;
    const { messenger } = this.deps;
    // Moments older than one the card showed before this run are superseded news.
    let seen = -1;
    for (let i = moments.length - 1; i >= 0; i--) {
      if ((moments[i]?.version ?? Infinity) <= cardSeen) {
        seen = i;
        break;
      }
    }
    if (this.d.moments < seen && this.d.sending?.what !== 'card') await this.save(withoutSending({ ...this.d, moments: seen }));
    while (this.d.moments < moments.length) {
      const moment = moments[this.d.moments];
      if (!moment) break;
      const next = (): Delivery => withoutSending({ ...this.d, moments: this.d.moments + 1 });
      if (this.inDoubt('moment')) {
        this.log().warn(
          { moment: moment.kind },
          'this key message may have been delivered (a crash, or no answer to its send): not sending it twice',
        );
        await this.save(next());
        continue;
      }
      const why = withheld(moment.kind, {
        settings: this.settings,
        muted: this.muted,
        isPublic: this.isPublic,
        usd: swapUsd(live.details.swap),
      });
      if (why) {
        this.log().debug({ moment: moment.kind, why }, 'key moment not sent: the chat chose so (the card shows it)');
        await this.save(next());
        continue;
      }
      const cardRef = this.d.ref;
      if (this.isPublic && this.settings.reactOnly && moment.kind === 'completed' && cardRef && messenger.react) {
        // Quiet mode: a ✅ on the card instead of one more message (a reaction is idempotent).
        // A chat that refuses reactions (restricted, or the card is gone) gets the message instead.
        await this.pace();
        await this.onSlot();
        const reacted = await messenger.react(cardRef, '✅').then(
          () => true,
          (err: unknown) => {
            if (!(err instanceof DeliveryError) || (err.failure !== 'rejected' && err.failure !== 'message_gone')) throw err;
            this.log().warn({ err: asError(err) }, 'reaction refused: sending the completion as a message');
            return false;
          },
        );
        if (reacted) {
          await this.save(next());
          continue;
        }
      }
      await this.pace();
      const reply = this.deps.render.moment(moment, {
        details: live.details,
        state: live.state,
        target: this.target,
        locale: this.locale,
        audience: this.audience,
        ...(this.snap.notes ? { notes: this.snap.notes } : {}),
      });
      await this.step(
        moment.kind,
        () => this.sendNew('moment', reply, next),
        () => this.save(next()),
      );
    }
  }

  /** "Tracking stopped", once (not again when a crash left it in doubt). */
  private async sendStopped(reason: NonNullable<NotifySnapshot['stopped']>): Promise<void> {
    const done = (): Delivery => withoutSending({ ...this.d, stopped: true });
    if (this.inDoubt('stopped')) return this.save(done());
    await this.pace();
    await this.step(
      'stopped',
      () => this.sendNew('stopped', this.deps.render.stopped(reason, this.job.data.swapId, this.locale), done),
      () => this.save(done()),
    );
  }

  /** What a platform's refusal means: wait (this chat, or the whole platform), follow a moved chat, or forget a gone one. */
  private async failed(err: DeliveryError): Promise<NotifyOutcome> {
    const { deps, target } = this;
    const { swapId } = this.job.data;
    const fail = { failure: err.failure };
    if (err.failure === 'rate_limited') {
      const ms = Math.max(err.retryAfterMs ?? 1000, 100);
      if (err.scope === 'global') {
        this.log().warn({ ...fail, retryAfterMs: ms }, 'platform-wide rate limit: pausing this platform queue');
        await deps.rateLimit(ms);
        throw new RateLimitError();
      }
      // A flood wait or a per-route bucket holds back this chat only: its jobs wait, others go on.
      this.log().warn({ ...fail, retryAfterMs: ms }, 'platform asked us to wait before writing to this chat');
      await deps.pacer.hold(this.tk, ms);
      await this.job.moveToDelayed(Date.now() + ms, this.token);
      throw new DelayedError();
    }
    if (err.failure === 'gone' && err.movedTo && deps.onChatMoved) {
      // Not gone: upgraded to a supergroup. This delivery is retried there with the rest.
      const moved = await deps.onChatMoved(target, err.movedTo);
      this.log().info({ movedTo: err.movedTo, moved }, 'group upgraded to a supergroup: its follows moved to the new chat');
      return 'moved';
    }
    if (err.failure === 'gone') {
      const blocked = target.chatKind === 'private' && deps.onBlocked ? (await deps.subs.listForChat(target)).map((e) => e.swapId) : [];
      // Remembered before the follows go: a user back at that very moment is told (the core reads the record as an update starts).
      if (target.chatKind === 'private') await deps.onBlocked?.(target, [swapId, ...blocked.filter((id) => id !== swapId)]);
      // This swap first, whatever the chat's listing says (a follow may be half done).
      const n = Number(await deps.subs.unfollow(swapId, target)) + (await deps.subs.removeTarget(target));
      this.log().info({ ...fail, unfollowed: n }, 'chat is gone (blocked, kicked or deleted): unsubscribed it from every swap');
      return 'gone';
    }
    // transient: BullMQ retries with capped back-off, for as long as it takes; progress so far is kept.
    throw err;
  }

  /** Records progress; another run of this chat that moved on meanwhile makes this one retry from what it recorded. */
  private async save(next: Delivery): Promise<void> {
    const w = await this.deps.store.setDelivery(this.job.data.swapId, this.tk, next, this.raw);
    if (w.result === 'not_following') throw new NotFollowing();
    if (w.result === 'conflict') throw new Error('the delivery record changed under this run; retrying from the newest');
    this.raw = w.raw;
    this.d = next;
  }

  /**
   * Books this message's slot in the platform's rate (sent in onSlot, right before the call).
   * Over this chat's budget, on hold after a 429, or the platform booked a window ahead: come
   * back later, then with the newest card.
   */
  private async pace(): Promise<void> {
    const pace = await this.deps.pacer.take(this.target, this.tk);
    if (pace.retryMs !== undefined) {
      await this.job.moveToDelayed(Date.now() + pace.retryMs, this.token);
      throw new DelayedError();
    }
    this.slot = pace.at;
  }

  /**
   * Waits for the booked slot, right before the platform call, so nothing between (a Redis
   * write) spreads the sends. A call later than its slot by more than the burst's spare room
   * books a new one: sends booked apart but made together would reach the platform faster than
   * its rate. Never refuses: the record may already say "sending".
   */
  private async onSlot(): Promise<void> {
    let at = this.slot;
    this.slot = undefined;
    if (at === undefined) return;
    const { pacer } = this.deps;
    for (;;) {
      // Date.now() again after each timer: a timer may fire early by a busy loop's turn.
      const now = Date.now();
      if (at > now) await delay(at - now);
      else if (now - at > pacer.lateness(this.target.platform)) at = await pacer.rebook(this.target.platform);
      else return;
    }
  }

  /** Sends a new message, announced first (see the note at the top); `done` is the record after it. */
  private async sendNew(what: SendingWhat, reply: Reply, done: (ref: MessageRef) => Delivery): Promise<void> {
    const { d } = this;
    const key = d.sending?.what === what ? d.sending.key : randomBytes(12).toString('base64url');
    if (d.sending?.what !== what || d.sending.key !== key) await this.save({ ...d, sending: { what, key } });
    let ref: MessageRef;
    try {
      await this.onSlot();
      ref = await this.deps.messenger.send(this.target, reply, { idempotencyKey: key, ...(this.silent ? { silent: this.silent } : {}) });
    } catch (err) {
      // The platform refused it, or it never left: not delivered. A timeout or a reset after
      // the request was written leaves it in doubt: the mark stays, so the retry treats it as
      // a crash would (a key moment is not sent twice; a card is sent again).
      if (err instanceof DeliveryError && !err.inDoubt) await this.save(withoutSending(this.d));
      if (err instanceof DeliveryError && err.inDoubt)
        this.log().warn({ what, err: asError(err) }, 'no answer to a send: it may have been delivered');
      throw err;
    }
    await this.deps.afterSend?.(what);
    await this.save(withoutSending(done(ref)));
  }

  /** A message in doubt on a platform that cannot deduplicate: not sent again (at most once). */
  private inDoubt(what: SendingWhat): boolean {
    return this.d.sending?.what === what && this.deps.messenger.idempotentSends !== true;
  }

  /** Runs one platform call; content the platform refuses is skipped (retrying cannot help). */
  private async step(what: string, run: () => Promise<void>, skip: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      if (!(err instanceof DeliveryError) || (err.failure !== 'rejected' && err.failure !== 'message_gone')) throw err;
      this.log().error({ step: what, err: asError(err) }, 'platform refused a tracking message; skipped');
      await skip();
    }
  }

  /** The card's view of the swap's route: its p50 and p90 once enough swaps are behind them, and "slower". */
  private async routeView(state: SwapState): Promise<Pick<CardView, 'routeTimes' | 'slower'>> {
    const { routeTimes } = this.deps;
    if (!state.route || !routeTimes) return {};
    const seen = shownDistribution((await routeTimes.read(state.route, this.clock()).catch(() => ({}) as RouteTimes)).seen);
    return {
      ...(seen ? { routeTimes: { p50Ms: seen.p50Ms, p90Ms: seen.p90Ms, count: seen.count } } : {}),
      ...(state.slower ? { slower: true } : {}),
    };
  }

  private clock(): number {
    return (this.deps.now ?? Date.now)();
  }

  private log(): Logger {
    const { job, target } = this;
    return (this.child ??= jobLogger(this.deps.logger, job, { swapId: job.data.swapId, platform: target.platform, chatId: target.chatId }));
  }
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

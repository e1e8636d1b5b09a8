import { createHash } from 'node:crypto';
import { DelayedError, RateLimitError, type Job } from 'bullmq';
import type { ChatTarget, MessageRef, Platform } from '../bot/incoming.js';
import { DeliveryError, type Messenger } from '../bot/messenger.js';
import type { Reply } from '../bot/reply.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import type { Logger } from '../log.js';
import { targetKey } from './keys.js';
import { renderMoment } from './moments.js';
import type { Pacer } from './pacing.js';
import type { Delivery, StateStore } from './state-store.js';
import type { Subscriptions } from './subscriptions.js';

/**
 * One notify job brings one chat up to date on one swap: edit (or send) its status card to the
 * newest state, then send each key moment it has not had. The job carries no state: it reads
 * the latest from Redis, so a repeated job is a no-op and a chat that is behind gets only the
 * newest card (coalescing). Progress is recorded after each message, so a retry resumes.
 */

export interface NotifyJobData {
  swapId: string;
  platform: Platform;
  chatId: string;
  /** The version that caused the job (for logs; the processor delivers the newest). */
  version: number;
}

export type RenderCard = (details: SwapDetails, target: ChatTarget) => Reply;

export interface NotifyDeps {
  subs: Subscriptions;
  store: StateStore;
  messenger: Messenger;
  renderCard: RenderCard;
  pacer: Pacer;
  /** Pauses the whole platform queue (a 429 from the platform). */
  rateLimit(ms: number): Promise<void>;
  logger: Logger;
}

export type NotifyOutcome = 'not_following' | 'no_state' | 'up_to_date' | 'delivered' | 'gone';

export function createNotifyProcessor(deps: NotifyDeps) {
  const { subs, store, messenger, logger } = deps;

  return async function processNotify(job: Job<NotifyJobData>, token?: string): Promise<NotifyOutcome> {
    const { swapId } = job.data;
    const follower = await subs.follower(swapId, job.data);
    if (!follower) return 'not_following';
    const target: ChatTarget = { platform: follower.platform, chatId: follower.chatId, chatKind: follower.chatKind };
    const tk = targetKey(target);
    const snap = await store.snapshotFor(swapId, tk);
    const { state, details } = snap;
    if (!state || !details) return 'no_state';
    let d: Delivery = snap.delivery ?? { version: 0, moments: snap.moments.length };
    if (d.version >= state.version && d.moments >= snap.moments.length) return 'up_to_date';

    const save = async (next: Delivery) => {
      d = next;
      await store.setDelivery(swapId, tk, d);
    };
    const pace = async () => {
      const wait = await deps.pacer.take(target, tk);
      if (wait > 0) {
        // Over this chat's budget: come back later; by then this job delivers the newest card.
        await job.moveToDelayed(Date.now() + wait, token);
        throw new DelayedError();
      }
    };

    /** Runs one platform call; content the platform refuses is skipped (retrying cannot help). */
    const step = async (what: string, run: () => Promise<void>, skip: () => Promise<void>) => {
      try {
        await run();
      } catch (err) {
        if (!(err instanceof DeliveryError) || (err.failure !== 'rejected' && err.failure !== 'message_gone')) throw err;
        logger.error({ swapId, platform: target.platform, chatId: target.chatId, step: what, err: err.message }, 'platform refused a tracking message; skipped');
        await skip();
      }
    };

    try {
      if (d.version < state.version) {
        const version = state.version;
        await step(
          'card',
          async () => {
            const card = deps.renderCard(details, target);
            const cardHash = hashReply(card);
            if (d.ref && d.cardHash === cardHash) return save({ ...d, version });
            await pace();
            const ref = d.ref ? await editOrResend(messenger, d.ref, target, card) : await messenger.send(target, card);
            await save({ ...d, ref, version, cardHash });
          },
          () => save({ ...d, version }),
        );
      }
      while (d.moments < snap.moments.length) {
        const moment = snap.moments[d.moments];
        if (!moment) break;
        await pace();
        const next = { ...d, moments: d.moments + 1 };
        await step(
          moment.kind,
          async () => {
            await messenger.send(target, renderMoment(moment, { details, state, target }));
            await save(next);
          },
          () => save(next),
        );
      }
      return 'delivered';
    } catch (err) {
      if (!(err instanceof DeliveryError)) throw err;
      const log = { swapId, platform: target.platform, chatId: target.chatId, failure: err.failure };
      if (err.failure === 'rate_limited') {
        const ms = Math.max(err.retryAfterMs ?? 1000, 100);
        logger.warn({ ...log, retryAfterMs: ms }, 'platform asked us to wait: pausing this platform queue');
        await deps.rateLimit(ms);
        throw new RateLimitError();
      }
      if (err.failure === 'gone') {
        const n = await subs.removeTarget(target);
        logger.info({ ...log, unfollowed: n }, 'chat is gone (blocked, kicked or deleted): unsubscribed it from every swap');
        return 'gone';
      }
      // transient: BullMQ retries with back-off; progress so far is kept.
      throw err;
    }
  };
}

function hashReply(reply: Reply): string {
  const json = JSON.stringify(reply, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
  return createHash('sha1').update(json).digest('base64url');
}

/** Edits the card in place; when the message was deleted, sends a new card instead. */
async function editOrResend(messenger: Messenger, ref: MessageRef, target: ChatTarget, card: Reply): Promise<MessageRef> {
  try {
    return await messenger.edit(ref, card);
  } catch (err) {
    if (err instanceof DeliveryError && err.failure === 'message_gone') return messenger.send(target, card);
    throw err;
  }
}

import { DelayedError, RateLimitError, type Job } from 'bullmq';
import type { LayerswapApi } from '../layerswap/api.js';
import { ApiError, ConnectionError, InvalidRequestError, ResponseShapeError, TimeoutError } from '../layerswap/errors.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import type { Logger } from '../log.js';
import { polls } from '../metrics.js';
import { confirming, nextPollDelay, notFoundDelay, outageDelay, type WebhookCadence } from './cadence.js';
import { swapOfPollJob } from './keys.js';
import { lastEntered, NOT_FOUND_GIVE_UP_MS } from '../contracts/tracking.js';
import { observe } from './observe.js';
import type { Subscriptions } from './subscriptions.js';
import type { Follower, SwapStore } from './swap-store.js';

/**
 * The poll step-job: one per followed swap, whatever the number of followers. Each run fetches
 * the swap, compares it with the stored state, stores the new state and its key moments (only
 * the poll time when nothing changed), queues a notify job for every chat that is behind (new
 * change or not: see scripts/pollCommit-1.lua), then moves itself to delayed at the cadence for
 * the status (DelayedError) or ends: final status, nobody following, or waiting far too long.
 * Failures of the swap service pause the whole poll queue (BullMQ rate limiter): one outage
 * slows every poller together, and nothing spins.
 */

/** The swap is the job's id (pollJobId): the data holds only a "not found" streak, when there is one. */
export interface PollJobData {
  /** Consecutive NOT_FOUND answers. */
  notFound?: number;
  /** The poller's clock at the first of them. */
  notFoundSince?: number;
}

export interface PollSettings {
  fastMs: number;
  slowMs: number;
  stuckFactor: number;
  /** Stop polling a swap still waiting for its deposit after this long (ms). */
  giveUpAfterMs: number;
  /** Stop polling a swap the service does not know only after this long (default 30 min)... */
  notFoundGiveUpMs?: number;
  /** ...and at least this many "not found" answers in a row (default 10). */
  notFoundMinPolls?: number;
  /** Webhooks are trusted (LAYERSWAP_WEBHOOK_SECRET set): poll mostly as a safety net (cadence.ts). */
  webhooks?: WebhookCadence;
}

export interface PollDeps {
  api: LayerswapApi;
  subs: Subscriptions;
  store: SwapStore;
  /** Consecutive failed polls over all swaps (the outage back-off); cleared by a good poll. */
  outage: { record(): Promise<number>; clear(): Promise<void> };
  settings: PollSettings;
  /** The poller's clock for state times and waits (a sandbox clock in tests). */
  now(): number;
  enqueueNotify(follower: Follower, swapId: string, version: number): Promise<void>;
  /** Pauses the whole poll queue. */
  rateLimit(ms: number): Promise<void>;
  logger: Logger;
  random?: () => number;
}

export type PollOutcome = 'unfollowed' | 'final' | 'abandoned' | 'not_found';
/** What a run that polls again later saw (the swapbot_polls_total outcome). */
type PollAgain = 'changed' | 'unchanged' | 'not_found_yet' | 'unreadable';

const NOT_FOUND_MIN_POLLS = 10;

export function createPollProcessor(deps: PollDeps) {
  const { api, subs, store, settings, logger } = deps;
  const random = deps.random ?? Math.random;

  const later = async (job: Job<PollJobData>, token: string | undefined, ms: number, outcome: PollAgain): Promise<never> => {
    polls.labels(outcome).inc();
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  };

  /** Stops polling a swap the service does not know, and queues the notice to every chat that followed. */
  const stopNotFound = async (swapId: string, version: number): Promise<PollOutcome> => {
    await store.stop(swapId, 'not_found');
    for (const f of await subs.followers(swapId)) await deps.enqueueNotify(f, swapId, version);
    await subs.retire(swapId);
    return 'not_found';
  };

  const run = async (job: Job<PollJobData>, token?: string): Promise<PollOutcome> => {
    const swapId = swapOfPollJob(job.id);
    if (!swapId) throw new Error(`poll job ${String(job.id).slice(0, 60)} names no swap`);
    // Takes the webhook hint, checks someone follows, reads the stored state: one round trip.
    const start = await store.pollStart(swapId);
    if (!start.followed) {
      await subs.markUnfollowed(swapId);
      return 'unfollowed';
    }

    // The observation time is taken before the request, so state times never run ahead of the data.
    const now = deps.now();
    let details: SwapDetails;
    try {
      details = await api.getSwap(swapId, { exclude_deposit_actions: true }, { maxRetries: 0 });
    } catch (err) {
      if (err instanceof InvalidRequestError) {
        logger.warn({ swapId, err: err.message }, 'swap id refused locally: polling stopped');
        return stopNotFound(swapId, start.prev?.version ?? 0);
      }
      if (err instanceof ApiError && (err.status === 404 || err.code === 'NOT_FOUND')) {
        // A few 404s are often a proxy glitch or replica lag (right after creation): back off, and
        // give up only after a long streak both in time and in answers.
        const strikes = (job.data.notFound ?? 0) + 1;
        const since = job.data.notFoundSince ?? now;
        if (strikes >= (settings.notFoundMinPolls ?? NOT_FOUND_MIN_POLLS) && now - since >= (settings.notFoundGiveUpMs ?? NOT_FOUND_GIVE_UP_MS)) {
          logger.warn({ swapId, strikes, sinceMs: now - since }, 'the swap service does not know this swap: polling stopped');
          return stopNotFound(swapId, start.prev?.version ?? 0);
        }
        await job.updateData({ ...job.data, notFound: strikes, notFoundSince: since });
        return later(job, token, notFoundDelay(strikes, settings), 'not_found_yet');
      }
      if (err instanceof ResponseShapeError) {
        // This swap's data cannot be read: a problem with this swap, not an outage.
        logger.error({ swapId, err: err.message }, 'unreadable swap data; will try again later');
        return later(job, token, settings.slowMs * 6, 'unreadable');
      }
      if (err instanceof ApiError || err instanceof ConnectionError || err instanceof TimeoutError) {
        const failures = await deps.outage.record();
        const ms = outageDelay(failures, settings, err instanceof ApiError ? err.retryAfterMs : undefined);
        logger.warn({ swapId, failures, pauseMs: ms, err: err.message }, 'swap service unavailable or rate limiting: pausing all pollers');
        await deps.rateLimit(ms);
        throw new RateLimitError();
      }
      throw err;
    }

    if (job.data.notFound) await job.updateData({});
    await deps.outage.clear();
    const { prev } = start;
    const obs = observe(prev, details, now, settings.stuckFactor);
    const commit = await store.pollCommit(prev?.version ?? 0, obs.state, { changed: obs.changed, details, moments: obs.moments });
    if (commit.saved) {
      // A notify job for every chat behind: the new change, or one a crash left undelivered.
      for (const f of commit.behind) await deps.enqueueNotify(f, swapId, obs.state.version);
    } else logger.warn({ swapId }, 'another run stored this swap first (a stalled duplicate); skipping its notifications');

    const st = obs.state;
    const waitingMs = now - st.firstPolledAt;
    const statusAgeMs = now - (lastEntered(st.history, st.status) ?? now);
    const delay = nextPollDelay(
      {
        status: st.status,
        depositSeen: st.depositSeenAt !== undefined,
        waitingMs,
        failReason: st.failReason,
        statusAgeMs,
        sinceChangeMs: now - st.lastChangeAt,
        confirming: confirming(st.transactions),
        ...(st.blockMs !== undefined ? { blockMs: st.blockMs } : {}),
        jitter: random(),
      },
      settings,
    );
    if (delay === null) {
      await subs.retire(swapId);
      return 'final';
    }
    if (st.depositSeenAt === undefined && waitingMs > settings.giveUpAfterMs) {
      await store.pollCommit(st.version, { ...st, abandoned: true }, { changed: true, moments: [] });
      await subs.retire(swapId);
      logger.info({ swapId, waitingMs }, 'no deposit long after the deposit window: polling stopped');
      return 'abandoned';
    }
    return later(job, token, commit.hinted ? 0 : delay, obs.changed ? 'changed' : 'unchanged');
  };

  // Every run is counted once: runs that poll again in `later`, the others here.
  return async function processPoll(job: Job<PollJobData>, token?: string): Promise<PollOutcome> {
    try {
      const outcome = await run(job, token);
      polls.labels(outcome).inc();
      return outcome;
    } catch (err) {
      if (!(err instanceof DelayedError)) polls.labels(err instanceof RateLimitError ? 'api_unavailable' : 'failed').inc();
      throw err;
    }
  };
}

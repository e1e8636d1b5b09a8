import { DelayedError, RateLimitError, UnrecoverableError, type Job } from 'bullmq';
import { isRedisError } from '../redis-outage.js';
import type { LayerswapApi } from '../layerswap/api.js';
import { ApiError, ConnectionError, InvalidRequestError, ResponseShapeError, TimeoutError } from '../layerswap/errors.js';
import type { SwapDetails, SwapPoll } from '../layerswap/schemas.js';
import { jobLogger, type Logger } from '../log.js';
import { backwardAnswers, polls } from '../metrics.js';
import { depositConfirmations, isFinalStatus, nextPollDelay, notFoundDelay, outageDelay, type WebhookCadence } from './cadence.js';
import { swapOfPollJob } from './keys.js';
import { lastEntered, NOT_FOUND_GIVE_UP_MS } from '../contracts/tracking.js';
import { BACKWARD_CONFIRMATIONS, observe, type Observation, type RouteLimits, type SwapState } from './observe.js';
import type { Subscriptions } from './subscriptions.js';
import type { Follower, SwapStore } from './swap-store.js';
import type { ChainWatch } from './chain-watch.js';
import type { RouteTimesStore } from './route-times.js';
import { bumped, inputCount, redraw, save } from './poll-redraw.js';
import { MIN_STUCK_SAMPLES, routeOfSwap, shownDistribution, type RouteTimes } from '../contracts/route-times.js';

/**
 * The poll step-job: one per followed swap, whatever the number of followers, and the one writer
 * of a swap's state. Each run fetches the swap, compares it with the stored state, stores the new
 * state and its key moments (only the poll time when nothing changed), queues a notify job for
 * every chat that is behind (see scripts/pollCommit-1.lua), then moves itself to delayed at the
 * cadence for the status (DelayedError) or ends: final status, nobody following, or waiting far
 * too long. Failures of the swap service pause the whole poll queue (BullMQ rate limiter). Only
 * the compared fields are checked on every poll (LayerswapApi.pollSwap), the whole answer only
 * when the poll saw a change, so a poll that finds nothing new costs about half the CPU.
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
  /** Real ms for a wait of `ms` on that clock (default: the same). */
  realDelay?: (ms: number) => number;
  enqueueNotify(follower: Follower, swapId: string, version: number): Promise<void>;
  /** Pauses the whole poll queue. */
  rateLimit(ms: number): Promise<void>;
  logger: Logger;
  random?: () => number;
  /** The chain watchers (CHAIN_WATCH): deposits seen on chain, confirmations from the chain head. */
  chain?: ChainWatch;
  /** Observed times per route: fed at each completion, read for the stuck alert. */
  routeTimes?: RouteTimesStore;
}

export type PollOutcome = 'unfollowed' | 'final' | 'abandoned' | 'not_found';
/** What a run that polls again later saw (the swapbot_polls_total outcome). */
type PollAgain = 'changed' | 'unchanged' | 'not_found_yet' | 'unreadable';

const NOT_FOUND_MIN_POLLS = 10;

/** BullMQ only checks the class: one instance spares a stack trace on every poll. */
const DELAYED = new DelayedError();

/** One poll run's job, lock token, start time on the real clock, and logger (made only when this run logs: most log nothing). */
interface PollRun {
  job: Job<PollJobData>;
  token: string | undefined;
  swapId: string;
  startedAt: number;
  log(): Logger;
}

/**
 * The poll job's processor (model: BullMQ's Worker processor), one method per step of a run:
 * start (take the hint, anyone following?), fetch, observe, commit and notify, schedule.
 */
export class PollProcessor {
  private readonly random: () => number;
  private readonly realDelay: (ms: number) => number;

  constructor(private readonly deps: PollDeps) {
    this.random = deps.random ?? Math.random;
    this.realDelay = deps.realDelay ?? ((ms: number) => ms);
  }

  /** Every run is counted once: runs that poll again in `later`, the others here. */
  async process(job: Job<PollJobData>, token?: string): Promise<PollOutcome> {
    try {
      const outcome = await this.run(job, token);
      polls.labels(outcome).inc();
      return outcome;
    } catch (err) {
      if (!(err instanceof DelayedError)) polls.labels(err instanceof RateLimitError ? 'api_unavailable' : 'failed').inc();
      // Only a Redis error is worth the job's retries (queues.ts POLL_RETRY): anything else would
      // fail the same way again; it ends here and the reconcile brings the job back.
      if (err instanceof DelayedError || err instanceof RateLimitError || isRedisError(err)) throw err;
      throw Object.assign(new UnrecoverableError(err instanceof Error ? err.message : String(err)), { cause: err });
    }
  }

  private async run(job: Job<PollJobData>, token?: string): Promise<PollOutcome> {
    const { store, subs } = this.deps;
    const swapId = swapOfPollJob(job.id);
    if (!swapId) throw new Error(`poll job ${String(job.id).slice(0, 60)} names no swap`);
    let childLogger: Logger | undefined;
    // Takes the webhook hint, checks someone follows, reads the stored state: one round trip.
    const start = await store.pollStart(swapId);
    if (!start.followed) {
      await subs.markUnfollowed(swapId);
      return 'unfollowed';
    }
    // The observation time is taken before the request, so state times never run ahead of the data.
    const now = this.deps.now();
    const run: PollRun = {
      job,
      token,
      swapId,
      startedAt: Date.now(),
      log: () => (childLogger ??= jobLogger(this.deps.logger, job, { swapId })),
    };
    if (start.hint === 'stored' && start.prev) {
      // A redraw keeps the API's schedule: the next request is due as the last one put it.
      const drawn = await redraw({ ...this.deps, webhooks: !!this.deps.settings.webhooks }, swapId, start.prev, now);
      if (drawn) return this.schedule(run, drawn.state, now, drawn.again, true, now - start.prev.lastPolledAt);
    }
    let poll: SwapPoll;
    try {
      poll = await fetchPoll(this.deps.api, swapId, !start.prev && this.deps.chain?.active === true);
    } catch (err) {
      return this.failedFetch(run, start.prev, now, err);
    }
    if (job.data.notFound) await job.updateData({});
    await this.deps.outage.clear();
    const seen = await this.observe(run, start.prev, poll, now);
    const { obs, hinted } = await this.commit(run, start.prev, poll, seen.obs, seen.details, now, start.hint === 'both');
    return this.schedule(run, obs.state, now, hinted, obs.changed);
  }

  /** A request that failed: a swap the service does not know, an unreadable answer, or an outage that pauses every poller. */
  private async failedFetch(run: PollRun, prev: SwapState | undefined, now: number, err: unknown): Promise<PollOutcome> {
    const { job } = run;
    const { settings } = this.deps;
    if (err instanceof InvalidRequestError) {
      run.log().warn({ err }, 'swap id refused locally: polling stopped');
      return this.stopNotFound(run.swapId, prev?.version ?? 0);
    }
    if (err instanceof ApiError && (err.status === 404 || err.code === 'NOT_FOUND')) {
      // A few 404s are often a proxy glitch or replica lag (right after creation): back off, and
      // give up only after a long streak both in time and in answers.
      const strikes = (job.data.notFound ?? 0) + 1;
      const since = job.data.notFoundSince ?? now;
      if (
        strikes >= (settings.notFoundMinPolls ?? NOT_FOUND_MIN_POLLS) &&
        now - since >= (settings.notFoundGiveUpMs ?? NOT_FOUND_GIVE_UP_MS)
      ) {
        run.log().warn({ strikes, sinceMs: now - since }, 'the swap service does not know this swap: polling stopped');
        return this.stopNotFound(run.swapId, prev?.version ?? 0);
      }
      await job.updateData({ ...job.data, notFound: strikes, notFoundSince: since });
      return this.later(run, notFoundDelay(strikes, settings), 'not_found_yet');
    }
    if (err instanceof ResponseShapeError) return this.unreadable(run, err);
    if (err instanceof ApiError || err instanceof ConnectionError || err instanceof TimeoutError) {
      const failures = await this.deps.outage.record();
      const ms = outageDelay(failures, settings, err instanceof ApiError ? err.retryAfterMs : undefined);
      run.log().warn({ failures, pauseMs: ms, err }, 'swap service unavailable or rate limiting: pausing all pollers');
      await this.deps.rateLimit(ms);
      throw new RateLimitError();
    }
    throw err;
  }

  /** The answer compared with the stored state (and logged when it would move the swap back). */
  private async observe(
    run: PollRun,
    prev: SwapState | undefined,
    poll: SwapPoll,
    now: number,
  ): Promise<{ obs: Observation; details: SwapDetails | undefined }> {
    let obs: Observation;
    let details: SwapDetails | undefined;
    const limits = await this.routeLimits(prev, now);
    try {
      // First sight reads the source network (its block time) from the whole answer.
      obs = observe(prev, prev ? poll : poll.details(), now, this.deps.settings.stuckFactor, limits);
      // The cards need the whole answer only when something changed.
      if (obs.changed) details = poll.details();
    } catch (err) {
      if (err instanceof ResponseShapeError) return this.unreadable(run, err);
      throw err;
    }
    if (obs.backward) {
      // A stale answer (replica lag, a cache, a proxy) is logged and counted, never shown.
      backwardAnswers.labels(obs.backward).inc();
      const fields = {
        status: poll.swap.status,
        was: prev?.status,
        depositSeen: prev?.depositSeenAt !== undefined,
        polls: obs.state.backward?.polls ?? BACKWARD_CONFIRMATIONS,
      };
      if (obs.backward === 'ignored') run.log().warn(fields, 'an answer that would move the swap back: not shown');
      else run.log().warn(fields, 'the swap service confirmed a move back: shown');
    }
    return { obs, details };
  }

  /** Stores the new state (with what the chain shows), then queues a notify job for every chat behind. */
  private async commit(
    run: PollRun,
    prev: SwapState | undefined,
    poll: SwapPoll,
    observed: Observation,
    seenDetails: SwapDetails | undefined,
    now: number,
    /** Redraw the cards whatever the answer (a redraw was asked beside the request). */
    redraw = false,
  ) {
    const { chain } = this.deps;
    const { swapId } = run;
    let obs = observed;
    let details = seenDetails;
    // What the chain shows goes on the card beside the service's answer (chain-watch.ts).
    const merged = chain ? await chain.merge(swapId, obs, inputCount(poll), details, () => poll.details()) : undefined;
    if (merged) ({ obs, details } = merged);
    if (redraw && prev && !obs.changed) {
      obs = bumped(obs);
      details ??= poll.details();
    }
    const commit = await save(
      this.deps,
      swapId,
      prev?.version ?? 0,
      obs,
      { changed: obs.changed || obs.save === true, details, applied: merged },
      async (saved) => {
        if (chain) await chain.afterPoll(swapId, obs.state.status, details ?? (prev ? undefined : poll.details()));
        // Before the chats hear of a completion, so a quote asked right after counts it.
        if (saved) await this.recordTimes(prev, obs, details, now, run.log);
      },
    );
    if (!commit.saved) run.log().warn('another run stored this swap first (a stalled duplicate); skipping its notifications');
    return { obs, hinted: commit.hinted };
  }

  /** Polls again at the cadence for the state, or ends: a final status, or no deposit far too long. */
  private async schedule(
    run: PollRun,
    st: SwapState,
    now: number,
    hinted: boolean,
    changed: boolean,
    /** A redraw keeps the API's schedule: the next request is due this much sooner. */
    sinceRequest = 0,
  ): Promise<PollOutcome> {
    const { settings, subs, store } = this.deps;
    const waitingMs = now - st.firstPolledAt;
    const statusAgeMs = now - (lastEntered(st.history, st.status) ?? now);
    const cadence = nextPollDelay(
      {
        status: st.status,
        depositSeen: st.depositSeenAt !== undefined,
        waitingMs,
        failReason: st.failReason,
        statusAgeMs,
        sinceChangeMs: now - st.lastChangeAt,
        confirmations: depositConfirmations(st.transactions),
        ...(st.blockMs !== undefined ? { blockMs: st.blockMs } : {}),
        ...(st.confirmationPolls ? { confirmationPolls: st.confirmationPolls } : {}),
        now,
        jitter: this.random(),
      },
      settings,
    );
    // A watched deposit address on an RPC that answers: the chain says when to ask the API (with webhooks: the safety poll only).
    const spaced = cadence !== null && this.deps.chain !== undefined && (await this.deps.chain.replacesPolls(run.swapId, st));
    const delay = cadence !== null && spaced ? Math.max(cadence, settings.webhooks?.safetyMs ?? settings.slowMs * 4) : cadence;
    if (delay === null) {
      await subs.retire(run.swapId);
      return 'final';
    }
    if (st.depositSeenAt === undefined && waitingMs > settings.giveUpAfterMs) {
      await store.pollCommit(st.version, { ...st, abandoned: true }, { changed: true, moments: [] });
      await subs.retire(run.swapId);
      run.log().info({ waitingMs }, 'no deposit long after the deposit window: polling stopped');
      return 'abandoned';
    }
    return this.later(run, hinted ? 0 : Math.max(0, delay - sinceRequest), changed ? 'changed' : 'unchanged');
  }

  /**
   * Polls again `ms` (the poller's clock) after this run started: the wait is counted from the
   * moment `now()` was read, as the cadence computed it, not stretched by the run's own time.
   */
  private async later(run: PollRun, ms: number, outcome: PollAgain): Promise<never> {
    const { job } = run;
    polls.labels(outcome).inc();
    await job.moveToDelayed(Math.max(Date.now(), run.startedAt + this.realDelay(ms)), run.token);
    // A hint set after this run's commit read it found the job active, not delayed (pollNow then
    // only marks it): answered now, else it waits for the next poll (a chain sighting, a webhook).
    const swapId = ms > 0 ? swapOfPollJob(job.id) : undefined;
    if (swapId && (await this.deps.store.hinted(swapId))) await job.promote().catch(() => undefined);
    throw DELAYED;
  }

  /** This swap's data cannot be read: a problem with this swap, not an outage. */
  private unreadable(run: PollRun, err: ResponseShapeError): Promise<never> {
    run.log().error({ err }, 'unreadable swap data; will try again later');
    return this.later(run, this.deps.settings.slowMs * 6, 'unreadable');
  }

  /** Stops polling a swap the service does not know, and queues the notice to every chat that followed. */
  private async stopNotFound(swapId: string, version: number): Promise<PollOutcome> {
    await this.deps.store.stop(swapId, 'not_found');
    for (const f of await this.deps.subs.followers(swapId)) await this.deps.enqueueNotify(f, swapId, version);
    await this.deps.subs.retire(swapId);
    return 'not_found';
  }

  /** What the route's observed times say of a swap whose funds move (nothing read for the others). */
  private async routeLimits(prev: SwapState | undefined, now: number): Promise<RouteLimits> {
    const { routeTimes } = this.deps;
    if (!routeTimes || !prev?.route || prev.depositSeenAt === undefined || isFinalStatus(prev.status)) return {};
    const times = await routeTimes.read(prev.route, now).catch(() => ({}) as RouteTimes);
    const slow = shownDistribution(times.seen);
    const c = times.confirmed;
    return { ...(slow ? { slowAfterMs: slow.p90Ms } : {}), ...(c && c.count >= MIN_STUCK_SAMPLES ? { stuckAfterMs: c.p99Ms } : {}) };
  }

  /** A swap seen before its completion adds its durations to its route's (never one first seen done). */
  private async recordTimes(
    prev: SwapState | undefined,
    obs: Observation,
    details: SwapDetails | undefined,
    now: number,
    log: () => Logger,
  ): Promise<void> {
    const { routeTimes } = this.deps;
    if (!routeTimes || !prev || !obs.moments.some((m) => m.kind === 'completed')) return;
    const route = obs.state.route ?? (details ? routeOfSwap(details.swap) : undefined);
    if (!route) return;
    await routeTimes
      .recordCompleted(route, obs.state, now)
      .catch((err: unknown) => log().warn({ err }, "could not record the route's arrival time"));
  }
}

/** GET /swaps/{id} once, no retry (the poll reschedules itself): pollSwap where the API has it. */
async function fetchPoll(api: LayerswapApi, swapId: string, withActions = false): Promise<SwapPoll> {
  // The first poll of a watched swap reads its deposit address from the deposit actions.
  const params = { exclude_deposit_actions: !withActions };
  if (api.pollSwap) return api.pollSwap(swapId, params, { maxRetries: 0 });
  const details = await api.getSwap(swapId, params, { maxRetries: 0 });
  return { ...details, details: () => details };
}

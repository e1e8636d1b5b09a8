import type { SwapDetails, SwapPoll } from '../layerswap/schemas.js';
import type { ChainWatch } from './chain-watch.js';
import type { Observation, SwapState } from './observe.js';
import type { Follower, PollCommit, SwapStore } from './swap-store.js';

/**
 * The poll job's save step (poll-job.ts) and its redraw: a run hinted only to redraw writes the
 * stored card data, with what the chain shows, as a new version, with no API request.
 */

/** What saving a run's observation needs. */
export interface SaveDeps {
  store: SwapStore;
  chain?: ChainWatch;
  enqueueNotify(follower: Follower, swapId: string, version: number): Promise<void>;
}

/** One version more, changed: every chat's card is drawn again though the service said nothing new. */
export const bumped = (obs: Observation): Observation => ({
  ...obs,
  state: { ...obs.state, version: obs.state.version + 1 },
  changed: true,
});

/**
 * Stores the state over `prevVersion`, marks what the chain shows as applied, runs `beforeNotify`
 * (told whether it was saved), then queues a notify job for every chat behind.
 */
export async function save(
  deps: SaveDeps,
  swapId: string,
  prevVersion: number,
  obs: Observation,
  write: { changed: boolean; details?: SwapDetails | undefined; applied?: { applied?: string } | undefined },
  beforeNotify?: (saved: boolean) => Promise<void>,
): Promise<PollCommit> {
  const { store, chain } = deps;
  const commit = await store.pollCommit(prevVersion, obs.state, {
    changed: write.changed,
    ...(write.details ? { details: write.details } : {}),
    moments: obs.moments,
  });
  if (commit.saved && write.applied) await chain?.applied(swapId, write.applied.applied);
  await beforeNotify?.(commit.saved);
  // A notify job for every chat behind: the new change, or one a crash left undelivered.
  if (commit.saved) for (const f of commit.behind) await deps.enqueueNotify(f, swapId, obs.state.version);
  return commit;
}

/**
 * A run hinted only to redraw (the chain's news, what the creator said): the stored card data and
 * sighting as a new version, no API request. Undefined when nothing is stored to draw from (an
 * ordinary run asks the service); else the state saved, and whether to run again at once: a hint
 * came meanwhile, or it is news for the service to confirm now and no webhook brings its answer
 * (chain-watch.ts).
 */
export async function redraw(
  deps: SaveDeps & { webhooks: boolean },
  swapId: string,
  prev: SwapState,
  now: number,
): Promise<{ state: SwapState; again: boolean } | undefined> {
  const { store, chain } = deps;
  const details = await store.details(swapId);
  if (!details) return undefined;
  const quiet: Observation = { state: prev, changed: false, moments: [] };
  const merged = chain ? await chain.merge(swapId, quiet, inputCount(details), details, () => details, now) : undefined;
  const obs = merged?.obs.changed ? merged.obs : bumped(quiet);
  const commit = await save(deps, swapId, prev.version, obs, { changed: true, details: merged?.details ?? details, applied: merged });
  const ask = commit.saved && merged?.ask === true && !deps.webhooks;
  return { state: obs.state, again: commit.hinted || ask };
}

/** The service's own count of confirmations for the deposit (its input transaction's), when it tells. */
export const inputCount = (d: Pick<SwapPoll, 'swap'>): number | undefined =>
  d.swap.transactions.find((x) => x.type === 'input')?.max_confirmations ?? undefined;

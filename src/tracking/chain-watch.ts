import { formatUnits, parseUnits } from 'viem';
import { newWrongTransfer, type ChainSighting } from '../contracts/chain.js';
import { BEFORE_DEPOSIT } from '../layerswap/phase.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import type { Logger } from '../log.js';
import * as ev from './chain-evidence.js';
import type { LateList, Told } from './chain-evidence.js';
import { sameContract, type ChainWatcher, type SeenTransfer, type WatchEntry } from '../chain/watcher.js';
import type { Observation, SwapState } from './observe.js';
import type { HintKind, SwapStore } from './swap-store.js';

/**
 * Tracking's side of the chain watchers (src/chain/). After each poll a swap waiting for (or
 * confirming) its deposit on a watched network is watched at its own deposit address (read once
 * from the first poll's deposit actions, kept in the swap's hash for restarts). A transfer seen
 * there is stored (field c) and the swap polled at once: the service stays the authority on the
 * status, the card shows the chain beside it. Each new head moves a seen deposit's confirmations
 * on the card with no API request (a chain-only commit); the API is asked again when the count
 * reaches the service's, and the confirming phase's polls are spaced out meanwhile. What counts
 * as the deposit is chain-evidence.ts's: dust is never one, noise is told once per swap, a late
 * transfer once, and a sighting the chain takes back is said so and no longer counted.
 */

export interface ChainWatchDeps {
  watchers: readonly ChainWatcher[];
  store: SwapStore;
  /** Hints the swap's poll job: `stored` redraws its cards from what is stored, `ask` asks the service too. */
  pollNow(swapId: string, kind?: Exclude<HintKind, 'both'>): Promise<void>;
  now(): number;
  logger: Logger;
  /** Finds an RPC for a network not configured (CHAIN_WATCH=auto: the catalogue's node_url). */
  prepare?(network: string): Promise<void>;
  /** Swaps that expired, by when (a sorted set in Redis): a restarted worker still tells their late transfers. */
  late?: LateList;
  /** Required confirmations and known tokens per network, from the service's catalogue. */
  network(name: string): Promise<
    | {
        required?: number;
        /** The network's chain id: its RPC must answer eth_chainId with it. */
        chainId?: number;
        /** A Solana network's genesis hash: its RPC must answer getGenesisHash with it. */
        genesisHash?: string;
        /** The catalogue's network type (evm, solana, ton, …): which watcher takes it. Absent: evm. */
        family?: string;
        tokens: ReadonlyArray<{ symbol: string; contract: string | null; decimals: number }>;
      }
    | undefined
  >;
}

export interface Watched {
  entry: WatchEntry;
  display: string;
  required: number;
  expected: string;
  expectedBase: bigint;
  /** Below this, a transfer of the swap's token is dust (chain-evidence.ts). */
  floor: bigint;
  expired: boolean;
  told: Told;
}

/** A swap that expired is watched this long more, to tell a late transfer. */
export const LATE_GRACE_MS = 60 * 60_000;

export class ChainWatch {
  protected readonly watched = new Map<string, Watched>();
  private readonly sightings = new Map<string, ChainSighting & { networkName: string }>();
  private readonly heads = new Map<string, number>();
  private readonly expiredAt = new Map<string, number>();

  /** The watchers' events come here (chain-start.ts wires them). */
  constructor(protected readonly deps: ChainWatchDeps) {}

  protected watcherFor(network: string): ChainWatcher | undefined {
    return this.deps.watchers.find((w) => w.covers(network));
  }

  /** The first poll asks for the deposit actions only when some watcher could use them. */
  get active(): boolean {
    return this.deps.watchers.length > 0;
  }

  /** Watched on a network whose RPC answers: the API polls of the waiting and confirming phases can be spaced out. */
  async replacesPolls(swapId: string, st: SwapState): Promise<boolean> {
    const w = this.watched.get(swapId);
    return !!w && BEFORE_DEPOSIT.has(st.status) && (this.watcherFor(w.entry.network)?.healthy(w.entry.network) ?? false);
  }

  /** After each poll: starts, keeps or ends the swap's watch. `details` when the poll read them. */
  async afterPoll(swapId: string, status: string, details: SwapDetails | undefined): Promise<void> {
    if (!this.active) return;
    const w = this.watched.get(swapId);
    if (!BEFORE_DEPOSIT.has(status)) {
      if (status === 'expired' && w && !w.expired) {
        this.expire(swapId, w, this.deps.now());
        return;
      }
      if (w && (!w.expired || this.deps.now() - (this.expiredAt.get(swapId) ?? 0) > LATE_GRACE_MS)) this.drop(swapId);
      return;
    }
    if (w) return;
    await this.start(swapId, details);
  }

  /** An expired swap is polled no more: watched for the grace to tell a late transfer, listed for a restart. */
  protected expire(swapId: string, w: Watched, at: number): void {
    w.expired = true;
    this.expiredAt.set(swapId, at);
    void this.deps.late
      ?.add(swapId, at)
      .catch((err: unknown) => this.deps.logger.warn({ err, swapId }, 'expired swap not listed for its late watch'));
    // The watch ends by itself after the grace.
    const left = LATE_GRACE_MS - Math.max(0, this.deps.now() - at);
    setTimeout(() => {
      if (this.watched.get(swapId) === w) this.drop(swapId, true);
    }, left).unref();
  }

  /** Starts watching the swap's deposit address: from the details, else from what its first poll stored. */
  protected async start(swapId: string, details: SwapDetails | undefined): Promise<void> {
    let entry = details ? ev.entryOf(details) : undefined;
    if (entry) await this.deps.store.setChainField(swapId, 'w', JSON.stringify(entry));
    else {
      const raw = (await this.deps.store.chainFields(swapId)).w;
      entry = raw ? (JSON.parse(raw) as WatchEntry) : undefined;
    }
    if (entry) await this.deps.prepare?.(entry.network).catch(() => undefined);
    const watcher = entry && this.watcherFor(entry.network);
    if (!entry || !watcher) return;
    const net = await this.deps.network(entry.network).catch(() => undefined);
    const amount = details?.swap.requested_amount ?? details?.quote?.requested_amount;
    const stored = (await this.deps.store.chainFields(swapId)).c;
    const prior = stored ? (JSON.parse(stored) as ChainSighting) : undefined;
    if (prior && prior.verdict !== 'retracted') this.sightings.set(swapId, { ...prior, networkName: entry.network });
    const kept = entry as WatchEntry & { amount?: string; display?: string };
    const expected = typeof amount === 'number' ? ev.decimalText(amount) : (kept.amount ?? '0');
    const display = details?.swap.source_network?.display_name || kept.display || entry.network;
    const expectedBase = safeUnits(expected, entry.token.decimals);
    // 0 (unknown) until the service's input transaction tells its count: never a made-up 1/1.
    const required = net?.required ?? 0;
    // The watcher re-checks a sighting's receipt until this deep (the entry is shared: merge() deepens it).
    entry = { ...entry, depth: required };
    this.watched.set(swapId, {
      entry,
      display,
      required,
      expected,
      expectedBase,
      floor: ev.dustFloor(expectedBase),
      expired: false,
      told: {
        ...(prior?.verdict === 'wrong_token' ? { noise: true } : {}),
        ...(prior?.verdict === 'late' ? { late: true } : {}),
        ...(prior?.verdict === 'no_memo' ? { memo: true } : {}),
      },
    });
    // What a restarted worker needs to watch it again without the details (restore).
    if (typeof amount === 'number')
      await this.deps.store.setChainField(swapId, 'w', JSON.stringify({ ...entry, amount: expected, display }));
    watcher.watch(entry);
  }

  /**
   * A worker's start: watches live in memory, so every followed swap still waiting for its deposit
   * is watched again now from its stored entry, not at its next poll (spaced out while watched).
   */
  async restore(swapIds: readonly string[]): Promise<number> {
    if (!this.active) return 0;
    const states = await this.deps.store.loadMany(swapIds);
    let n = 0;
    await Promise.all(
      swapIds.map(async (id, i) => {
        const st = states[i];
        if (this.watched.has(id) || !st || !BEFORE_DEPOSIT.has(st.status)) return;
        await this.afterPoll(id, st.status, undefined);
        if (this.watched.has(id)) n++;
      }),
    );
    return n;
  }

  /** `ended`: the watch is over for good (a shared watch also leaves the network's list). */
  protected drop(swapId: string, _ended = false) {
    const w = this.watched.get(swapId);
    if (w?.expired) void this.deps.late?.remove(swapId).catch(() => undefined);
    if (w) this.watcherFor(w.entry.network)?.unwatch(swapId);
    this.watched.delete(swapId);
    this.sightings.delete(swapId);
    this.expiredAt.delete(swapId);
  }

  /**
   * Puts the current sighting on a run's observation: a new one is a change (a new version and
   * the whole details, annotated); any stored details carry it. Returns what to commit, and
   * `ask` when it is news the service should now confirm (a new transfer, one taken back, or the
   * service's count reached): the run that only redrew the card then asks the API at once.
   * `required`: the service's own count (its input transaction's max_confirmations), when known.
   */
  async merge(
    swapId: string,
    obs: Observation,
    required: number | undefined,
    details: SwapDetails | undefined,
    whole: () => SwapDetails,
    at = obs.state.lastPolledAt,
  ): Promise<{ obs: Observation; details: SwapDetails | undefined; applied?: string; ask?: boolean }> {
    if (!this.active) return { obs, details };
    const fields = await this.deps.store.chainFields(swapId);
    const { ca } = fields;
    let { c } = fields;
    if (!c) return { obs, details };
    let chain = JSON.parse(c) as ChainSighting;
    // The service's own count beats the catalogue's, which often has none (then 1 was assumed):
    // the card never says 1/1 beside the service's 1/3.
    if (typeof required === 'number' && required > 0 && required !== chain.required) {
      const head = this.heads.get(this.watched.get(swapId)?.entry.network ?? '') ?? chain.block + chain.confirmations - 1;
      chain = { ...chain, required, confirmations: Math.max(1, Math.min(required, head - chain.block + 1)) };
      c = JSON.stringify(chain);
      await this.deps.store.setChainField(swapId, 'c', c);
      const w = this.watched.get(swapId);
      if (w) {
        w.required = required;
        w.entry.depth = required;
      }
      const mem = this.sightings.get(swapId);
      if (mem) this.sightings.set(swapId, { ...chain, networkName: mem.networkName });
    }
    if (
      ev.lateOnClose(
        chain,
        obs.state.status,
        obs.state.transactions.some((x) => x.type === 'input'),
      )
    ) {
      const w = this.watched.get(swapId);
      if (w) w.told.late = true;
      chain = {
        ...chain,
        verdict: 'late',
        ...(w ? { expected: { symbol: w.entry.token.symbol, amount: w.expected } } : {}),
      };
      c = JSON.stringify(chain);
      await this.deps.store.setChainField(swapId, 'c', c);
      const mem = this.sightings.get(swapId);
      if (mem) this.sightings.set(swapId, { ...chain, networkName: mem.networkName });
    }
    if (c === ca && !obs.changed) return { obs, details };
    const state = obs.changed ? obs.state : { ...obs.state, version: obs.state.version + 1, lastChangeAt: at };
    // One "Deposit seen" message: the chain's when it saw the deposit first, not the service's again.
    const seen = ev.isDeposit(ca)
      ? obs.moments.filter((m) => m.kind !== 'deposit_seen')
      : c !== ca && ev.isDeposit(c) && state.depositSeenAt === undefined
        ? [...obs.moments, { kind: 'deposit_seen' as const, version: state.version, at: state.lastChangeAt }]
        : obs.moments;
    const wrong = newWrongTransfer(ca, c) ? [{ kind: 'wrong_deposit' as const, version: state.version, at: state.lastChangeAt }] : [];
    const moments = [...seen, ...wrong];
    return {
      obs: { ...obs, state, changed: true, moments },
      details: { ...(details ?? whole()), chain } as SwapDetails,
      applied: c,
      ask: c !== ca && ev.serviceShouldSee(ca, chain),
    };
  }

  /** After a commit that stored `applied` on the card. */
  async applied(swapId: string, applied: string | undefined): Promise<void> {
    if (applied) await this.deps.store.setChainField(swapId, 'ca', applied);
  }

  /** Whose a transfer to a shared address is (chain-evidence.ts `memoOwner`): 'own' for an address of the swap's own. */
  private owner(entry: WatchEntry, t: SeenTransfer, w: Watched): 'own' | 'no_memo' | 'other' {
    if (entry.memo === undefined || t.memo === entry.memo) return 'own';
    const memo = t.memo;
    // Another watched swap's memo (one sender's second swap): theirs, not a wrong memo of this one (the watcher knows, else a scan).
    const taken =
      t.memoTaken ?? (!!memo && [...this.watched.values()].some((o) => o.entry.memo === memo && o.entry.network === entry.network));
    return ev.memoOwner(entry, t, w.expectedBase, taken);
  }

  /** Before the watcher reads a receipt: a transfer worth telling (chain-evidence.ts `worthTelling`). */
  accepts(entry: WatchEntry, t: SeenTransfer): boolean {
    const w = this.watched.get(entry.swapId);
    if (!w) return false;
    const owner = this.owner(entry, t, w);
    if (owner === 'other') return false;
    const kind = owner === 'no_memo' ? 'no_memo' : ev.kindOf(ev.sameToken(entry, t), t.value, w.floor);
    if (kind === 'dust' && !w.told.dust)
      this.deps.logger.info(
        { swapId: entry.swapId, network: entry.network },
        'a dust transfer reached a deposit address (address poisoning?): not taken for the deposit',
      );
    return ev.worthTelling(w, kind, this.sightings.get(entry.swapId), t.txHash);
  }

  onTransfer(entry: WatchEntry, t: SeenTransfer): void {
    void this.transfer(entry, t).catch((err: unknown) => this.deps.logger.warn({ err, swapId: entry.swapId }, 'chain sighting not stored'));
  }

  private async transfer(entry: WatchEntry, t: SeenTransfer): Promise<void> {
    const w = this.watched.get(entry.swapId);
    if (!w || !this.accepts(entry, t)) return;
    const prev = this.sightings.get(entry.swapId);
    // The same transaction again, in the same block: nothing new (a reorganisation that moved it is new).
    if (prev && prev.txHash === t.txHash && prev.block === t.block) return;
    const same = ev.sameToken(entry, t);
    const net = same ? undefined : await this.deps.network(entry.network).catch(() => undefined);
    const token = same ? entry.token : net?.tokens.find((k) => sameContract(k.contract, t.contract));
    const decimals = token?.decimals ?? 18;
    const noMemo = this.owner(entry, t, w) === 'no_memo';
    const verdict = noMemo ? 'no_memo' : same ? ev.depositVerdict(t.value, w.expectedBase, w.expired) : 'wrong_token';
    if (verdict === 'no_memo') w.told.memo = true;
    if (verdict === 'wrong_token') w.told.noise = true;
    if (verdict === 'late') w.told.late = true;
    const head = Math.max(this.heads.get(entry.network) ?? t.block, t.block);
    const s: ChainSighting = {
      network: w.display,
      txHash: t.txHash,
      block: t.block,
      symbol: token?.symbol ?? (t.contract ? `${t.contract.slice(0, 6)}…${t.contract.slice(-4)}` : 'native'),
      amount: formatUnits(t.value, decimals),
      confirmations: ev.capped(w.required, head - t.block + 1),
      required: w.required,
      verdict,
      ...(verdict === 'ok' ? {} : { expected: { symbol: entry.token.symbol, amount: w.expected } }),
    };
    this.sightings.set(entry.swapId, { ...s, networkName: entry.network });
    const c = JSON.stringify(s);
    // A sighting only reports: stored, and the swap's poll job hinted to put it on the card at
    // once without an API request; that run then asks the service (merge's `ask`).
    await this.deps.store.setChainField(entry.swapId, 'c', c);
    await this.deps.pollNow(entry.swapId, 'stored');
  }

  /** The chain no longer shows a transfer it reported: the card says so once, and it is no longer the deposit. */
  onRetract(entry: WatchEntry, txHash: string): void {
    const fail = (err: unknown) => this.deps.logger.warn({ err, swapId: entry.swapId }, 'sighting not taken back');
    void this.retract(entry, txHash).catch(fail);
  }

  private async retract(entry: WatchEntry, txHash: string): Promise<void> {
    const s = this.sightings.get(entry.swapId);
    if (!s || s.txHash !== txHash) return;
    this.sightings.delete(entry.swapId);
    const w = this.watched.get(entry.swapId);
    if (w && s.verdict === 'wrong_token') w.told.noise = undefined;
    if (w && s.verdict === 'late') w.told.late = undefined;
    if (w && s.verdict === 'no_memo') w.told.memo = undefined;
    const { networkName: _n, ...rest } = s;
    const sighting: ChainSighting = { ...rest, verdict: 'retracted' };
    await this.deps.store.setChainField(entry.swapId, 'c', JSON.stringify(sighting));
    await this.deps.pollNow(entry.swapId, 'stored');
  }

  onHead(network: string, head: number): void {
    this.heads.set(network, head);
    for (const [swapId, s] of this.sightings) {
      if (s.networkName !== network || !DEPOSIT.has(s.verdict) || (s.required > 0 && s.confirmations >= s.required)) continue;
      const confirmations = ev.capped(s.required, head - s.block + 1);
      if (confirmations <= s.confirmations) continue;
      const next = { ...s, confirmations };
      this.sightings.set(swapId, next);
      void this.confirm(swapId, next).catch((err: unknown) => this.deps.logger.warn({ err, swapId }, 'chain confirmation not stored'));
    }
  }

  /** A new confirmation on the card without asking the API (the poll job's redraw); the API once the count is reached. */
  private async confirm(swapId: string, s: ChainSighting & { networkName: string }): Promise<void> {
    const { networkName: _n, ...sighting } = s;
    await this.deps.store.setChainField(swapId, 'c', JSON.stringify(sighting));
    // No count to reach: the number rides along with the next poll's commit, not an edit per head.
    if (s.required <= 0) return;
    await this.deps.pollNow(swapId, 'stored');
  }

  onHealth(network: string, up: boolean): void {
    if (up) return;
    // The RPC stopped answering: every swap watched there goes back to the API's cadence now.
    for (const [swapId, w] of this.watched) if (w.entry.network === network) void this.deps.pollNow(swapId).catch(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all(this.deps.watchers.map((w) => w.close()));
  }
}

/** Sightings of the swap's own token whose confirmations the card counts. */
const DEPOSIT = new Set<ChainSighting['verdict']>(['ok', 'less', 'more']);

/** Here, not in chain-evidence.ts: the engine imports that one, and a worker without a chain watch then loads no viem. */
function safeUnits(text: string, decimals: number): bigint {
  try {
    return parseUnits(text, decimals);
  } catch {
    return 0n;
  }
}

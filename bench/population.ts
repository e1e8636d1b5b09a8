import { Queue } from 'bullmq';
import { POLL_QUEUE, pollJobId } from '../src/tracking/keys.js';
import { TrackingKeys } from '../src/contracts/keys.js';
import type { Tracking } from '../src/tracking/engine.js';
import { eachLimit, type Bench } from './context.js';
import { CONFIG_DEFAULTS } from './defaults.js';
import type { ChildHandle } from './ipc.js';
import { progress, sleep } from './stats.js';
import type { WorkerConfig } from './worker-child.js';

/**
 * The followed swaps behind parts 2 and 4: thousands of real sandbox swaps waiting for a deposit,
 * each followed from its own chat (a terminal chat, so first cards do not queue behind platform
 * limits), polled at the default slow cadence by one worker process. Follows are spread over one
 * slow interval, as they would be in production, so polls do not come in one burst.
 */

/** The fast cadence shortened to 1 s so the run is quick; the slow one and the stuck factor as configured by default. */
export const LATENCY_CADENCE = { fastMs: 1000, slowMs: CONFIG_DEFAULTS.POLL_SLOW_MS, stuckFactor: CONFIG_DEFAULTS.STUCK_AFTER_FACTOR };

export class Population {
  worker: { handle: ChildHandle; startMs: number } | undefined;
  readonly ctl: Tracking;
  readonly config: WorkerConfig;
  followed = 0;
  private nextChat = 0;

  constructor(
    readonly bench: Bench,
    readonly prefix: string,
  ) {
    this.ctl = bench.controller(prefix, LATENCY_CADENCE);
    this.config = bench.workerConfig(prefix, { cadence: LATENCY_CADENCE });
  }

  async startWorker(): Promise<number> {
    this.worker = await this.bench.startWorker('worker', this.config);
    return this.worker.startMs;
  }

  async stopWorker(): Promise<void> {
    await this.worker?.handle.stop();
    this.worker = undefined;
  }

  /** Follows real swaps from terminal chats, paced evenly over `spreadMs`. */
  async followSpread(ids: readonly string[], spreadMs: number): Promise<void> {
    const start = Date.now();
    const batch = 100;
    for (let i = 0; i < ids.length; i += batch) {
      const due = start + (i / ids.length) * spreadMs;
      if (due > Date.now()) await sleep(due - Date.now());
      await eachLimit(ids.slice(i, i + batch), 16, (id) => this.follow(id));
    }
    progress(`followed ${ids.length} swaps in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }

  /**
   * Follows swap ids the sandbox does not know, whose polls never run: their poll jobs are made
   * first, delayed by a day, with the engine's job id (so follow() finds them and adds none).
   * For the memory figures at 100,000 followed swaps without making 100,000 sandbox swaps.
   */
  async followSynthetic(ids: readonly string[]): Promise<void> {
    const queue = new Queue(POLL_QUEUE, {
      connection: this.bench.redis.client,
      prefix: new TrackingKeys(this.prefix).queuePrefix(POLL_QUEUE),
    });
    try {
      for (let i = 0; i < ids.length; i += 1000) {
        await queue.addBulk(
          ids.slice(i, i + 1000).map((swapId) => ({
            name: 'poll',
            data: { swapId },
            opts: {
              jobId: pollJobId(swapId),
              delay: 86_400_000,
              attempts: 10,
              backoff: { type: 'exponential', delay: 1000 },
              removeOnComplete: true,
              removeOnFail: true,
            },
          })),
        );
      }
    } finally {
      await queue.close();
    }
    await eachLimit(ids, 128, (id) => this.follow(id));
  }

  private async follow(id: string): Promise<void> {
    const n = this.nextChat++;
    const r = await this.ctl.service.follow(id, { platform: 'console', chatId: `bg-${n}`, chatKind: 'private' }, { userId: `bg-${n}` });
    if (!r.ok) throw new Error(`follow refused: ${r.reason}`);
    this.followed++;
  }

  async close(): Promise<void> {
    await this.stopWorker();
    await this.ctl.close();
  }
}

import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { SharedChainWatch } from './chain-share.js';

/**
 * One watch job per network in its own BullMQ queue (job id = the network): whichever worker
 * holds it reads that network's chain for every watched address, then moves it back to delayed
 * at the head interval (the poll job's step-job pattern). So exactly one worker watches a network
 * at a time, whatever the number of workers; between two runs the job waits in Redis, and when
 * its worker dies the next run is any other worker's (a run cut short is taken over once its
 * short lock expires). A network with nothing listed waits longer; a newly listed swap pulls the
 * job forward.
 */

export const CHAIN_QUEUE = 'chain-watch';

/** The last block the network's runs read (any worker's). */
interface ChainJobData {
  scanned?: number;
}

/** BullMQ only checks the class. */
const DELAYED = new DelayedError();

export interface ChainJobSettings {
  /** The head interval (ms). */
  pollMs: number;
  /** A run's lock: a run cut short by a dead worker is taken over after this (ms). */
  lockMs: number;
}

export class ChainJobs {
  readonly queue: Queue;
  private worker: Worker | undefined;

  constructor(
    connection: Redis,
    private readonly prefix: string,
    private readonly settings: ChainJobSettings,
  ) {
    this.queue = new Queue(CHAIN_QUEUE, { connection, prefix, streams: { events: { maxLen: 50 } } });
  }

  /** The network's job exists (one per network: adding it again is nothing) and runs now. */
  async ensure(network: string): Promise<void> {
    const job = await this.queue.add('watch', {}, { jobId: network, removeOnComplete: true, removeOnFail: true });
    if (await job.isDelayed()) await job.promote().catch(() => undefined);
  }

  /** The network's job exists (adding it again is nothing); unlike ensure, a delayed job keeps its time. */
  async keep(network: string): Promise<void> {
    await this.queue.add('watch', {}, { jobId: network, removeOnComplete: true, removeOnFail: true });
  }

  /** This worker takes part: it runs whichever networks' jobs come to it. */
  start(connection: Redis, chain: SharedChainWatch, onError: (err: unknown, network: string) => void): Worker {
    const { pollMs, lockMs } = this.settings;
    this.worker = new Worker(
      CHAIN_QUEUE,
      async (job: Job, token?: string) => {
        const network = String(job.id);
        let wait = pollMs * 2;
        try {
          const listed = await chain.sync(network);
          const from = (job.data as ChainJobData).scanned;
          const ran = listed === 0 ? undefined : await chain.tick(network, from);
          wait = listed === 0 ? pollMs * 10 : (ran?.waitMs ?? pollMs);
          // The next run, in whichever worker, goes on from here.
          if (ran?.scanned !== undefined && ran.scanned !== from) await job.updateData({ scanned: ran.scanned });
        } catch (err) {
          // Never lost to a failure (a Redis hiccup): the job stays, and tries again shortly.
          onError(err, network);
        }
        // A run that lost its lock (a blocked event loop) cannot move the job; failing it would remove it,
        // so it is left to the stalled check, which hands it back to the queue.
        await job.moveToDelayed(Date.now() + Math.max(0, wait), token).catch((err: unknown) => onError(err, network));
        throw DELAYED;
      },
      {
        connection,
        prefix: this.prefix,
        concurrency: 100,
        lockDuration: lockMs,
        stalledInterval: lockMs,
        maxStalledCount: 1_000_000,
        removeOnComplete: { count: 0 },
        removeOnFail: { count: 0 },
      },
    );
    return this.worker;
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}

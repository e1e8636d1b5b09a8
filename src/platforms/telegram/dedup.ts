import { randomUUID } from 'node:crypto';
import { Composer, type Context } from 'grammy';
import type { Update } from 'grammy/types';
import type { Redis } from 'ioredis';
import { CoreKeys } from '../../contracts/keys.js';
import type { Logger } from '../../log.js';
import { scripts } from '../../scripts.js';
import { telegramError } from './errors.js';

/** Telegram keeps undelivered updates for 24 h; so do we remember the ones we handled. */
const DAY_SECONDS = 86_400;

/**
 * Each update is handled once, and an update in hand when its process dies is still answered.
 *
 * Claiming an update stores it with a short lease ("processing"), which the process renews while
 * it works; only when the handling is over is it marked "done" (for a day). A second delivery
 * (a webhook retried, long polling replayed, two processes during a deploy) is skipped while the
 * update is in flight or done. If the process dies, its leases lapse: a later delivery claims the
 * update afresh, and the sweep of every running process takes over the ones Telegram will not
 * send again (long polling confirms a batch as soon as the next one is fetched; a webhook that
 * answered 200 is never retried).
 */

export interface UpdateLeaseOptions {
  /** How long an update stays claimed without a renewal (a dead process frees it after this). */
  leaseMs: number;
}

export const DEFAULT_UPDATE_LEASE: UpdateLeaseOptions = { leaseMs: 10_000 };

// The ledger's Lua scripts: scripts/claimUpdate-3.lua, renewUpdate-3, finishUpdate-3, takeOverUpdates-2.

export interface UpdateLedger {
  /** The first middleware: claims the update, renews it while handled, marks it done after. */
  readonly middleware: Composer<Context>;
  /** Takes over updates whose process died and hands them to `handle`. Returns how many. */
  sweep(botId: number, handle: (update: Update) => Promise<void>): Promise<number>;
  /** Updates being handled by this process now. */
  readonly inFlight: number;
  /** Resolves when every update in hand is done, or after `withinMs`; returns how many are left. */
  drain(withinMs: number): Promise<number>;
  /** Stops renewing: the leases of whatever is still in hand lapse, for another process to take. */
  abandon(): void;
  /** Renews again (a restart in the same process). */
  resume(): void;
}

export function createUpdateLedger(opts: { redis: Redis; keyPrefix: string; logger: Logger; lease?: UpdateLeaseOptions }): UpdateLedger {
  const { redis, logger } = opts;
  const leaseMs = (opts.lease ?? DEFAULT_UPDATE_LEASE).leaseMs;
  const registry = new CoreKeys(opts.keyPrefix);
  const keys = (botId: number, id: number) => [
    registry.telegramUpdate(botId, id),
    registry.telegramInFlight(botId),
    registry.telegramInFlightData(botId),
  ];
  const run = scripts(redis);
  /** Updates this process holds a lease on, by update key. */
  const held = new Map<string, { owner: string; keys: string[]; id: number }>();
  /** Updates the sweep already claimed for this process (the middleware must not claim again). */
  const preclaimed = new Map<number, string>();
  const work = new Set<Promise<void>>();
  let renewing: NodeJS.Timeout | undefined;
  let abandoned = false;

  const renewAll = () => {
    for (const h of held.values()) {
      run('renewUpdate', h.keys, [h.owner, leaseMs, h.id]).catch((err: unknown) =>
        logger.debug({ err: telegramError(err) }, 'telegram: could not renew an update lease'),
      );
    }
  };
  const keepRenewing = () => {
    if (renewing || abandoned || held.size === 0) return;
    // A third of the lease: two renewals may fail before another process takes over.
    renewing = setInterval(renewAll, Math.max(50, Math.floor(leaseMs / 3)));
    renewing.unref();
  };
  const track = (key: string, entry: { owner: string; keys: string[]; id: number }) => {
    held.set(key, entry);
    keepRenewing();
  };
  const untrack = (key: string) => {
    held.delete(key);
    if (held.size === 0 && renewing) {
      clearInterval(renewing);
      renewing = undefined;
    }
  };

  const middleware = new Composer<Context>();
  middleware.use(async (ctx, next) => {
    const id = ctx.update.update_id;
    const k = keys(ctx.me.id, id);
    let owner = preclaimed.get(id);
    preclaimed.delete(id);
    if (owner === undefined) {
      const mine = randomUUID();
      try {
        const fresh = (await run('claimUpdate', k, [mine, leaseMs, id, JSON.stringify(ctx.update)])) === 1;
        if (!fresh) {
          logger.debug({ updateId: id }, 'telegram: duplicate update skipped (in hand elsewhere, or done)');
          return;
        }
        owner = mine;
      } catch (err) {
        // Better to risk a duplicate than to drop a user's message.
        logger.warn({ err: telegramError(err) }, 'telegram: update dedup unavailable; handling anyway');
      }
    }
    const entry = owner === undefined ? undefined : { owner, keys: k, id };
    if (entry) track(k[0]!, entry);
    // A promise per update in hand, for drain() to wait on.
    let finish!: () => void;
    const p = new Promise<void>((r) => (finish = r));
    work.add(p);
    try {
      await next();
    } finally {
      if (entry) {
        untrack(k[0]!);
        // Done even when the handler failed: the user was told, and a replay would say it twice.
        await run('finishUpdate', k, [DAY_SECONDS, id]).catch((err: unknown) =>
          logger.warn({ err: telegramError(err) }, 'telegram: could not mark an update done'),
        );
      }
      work.delete(p);
      finish();
    }
  });

  return {
    middleware,
    async sweep(botId, handle) {
      const [zset, data] = keys(botId, 0).slice(1) as [string, string];
      const owner = randomUUID();
      const taken = (await run('takeOverUpdates', [zset, data], [registry.telegramUpdatePrefix(botId), owner, leaseMs, 50])) as string[];
      for (const json of taken) {
        let update: Update;
        try {
          update = JSON.parse(json) as Update;
        } catch {
          continue;
        }
        logger.warn({ updateId: update.update_id }, 'telegram: answering an update whose process stopped while handling it');
        preclaimed.set(update.update_id, owner);
        // Through the bot's own middleware, so per-chat order and error handling apply.
        void handle(update).catch((err: unknown) => logger.error({ err: telegramError(err) }, 'telegram: a recovered update failed'));
      }
      return taken.length;
    },
    get inFlight() {
      return work.size;
    },
    async drain(withinMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((r) => (timer = setTimeout(r, withinMs)));
      while (work.size > 0) {
        const all = Promise.all([...work]).then(() => 'done' as const);
        if ((await Promise.race([all, timeout.then(() => 'late' as const)])) === 'late') break;
      }
      clearTimeout(timer);
      return work.size;
    },
    abandon() {
      abandoned = true;
      if (renewing) clearInterval(renewing);
      renewing = undefined;
    },
    resume() {
      abandoned = false;
      keepRenewing();
    },
  };
}

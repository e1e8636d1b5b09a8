import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { CoreKeys, TrackingKeys } from '../src/contracts/keys.js';
import type { ChatTarget, Platform } from '../src/contracts/incoming.js';
import { DEFAULT_SETTINGS, type ChatSettings } from '../src/contracts/tracking.js';
import { RedisAddressBook } from '../src/bot/addresses/book.js';
import { LanguageStore } from '../src/i18n/store.js';
import { LOCALES } from '../src/contracts/locale.js';
import { SettingsStore } from '../src/tracking/settings.js';
import { POLL_QUEUE, pollJobId, targetKey } from '../src/tracking/keys.js';
import { POLL_RETRY } from '../src/tracking/queues.js';
import type { Tracking } from '../src/tracking/engine.js';
import { eachLimit } from './context.js';
import { progress } from './stats.js';

/**
 * Part 8's data, written through the bot's own stores (the language choice, a chat's
 * notification settings, the address book, the tracking service's follow) on a client with
 * auto-pipelining, many calls in flight: each store call is its usual commands, batched into
 * one socket write with the others in flight.
 */

/** A known user: every third on Discord (a snowflake), the rest on Telegram. */
function knownUser(i: number): { platform: Platform; id: string } {
  return i % 3 === 2
    ? { platform: 'discord', id: String(900_000_000_000_000_000n + BigInt(i)) }
    : { platform: 'telegram', id: String(100_000_000 + i) };
}

const userChat = (i: number): ChatTarget => {
  const u = knownUser(i);
  return { platform: u.platform, chatId: u.id, chatKind: 'private' };
};

/** What a user changed from the defaults: some quiet hours, edits off for a third, a minimum for a tenth. */
function settingsOf(i: number): ChatSettings {
  return {
    ...DEFAULT_SETTINGS,
    moments: [...DEFAULT_SETTINGS.moments],
    ...(i % 3 === 0 ? { minorEdits: false } : {}),
    ...(i % 2 === 0 ? { quiet: { from: 23, to: 7, tz: i % 4 === 0 ? 'Europe/Berlin' : 'America/Sao_Paulo' } } : {}),
    ...(i % 10 === 0 ? { minUsd: 50 } : {}),
  };
}

const hex = (i: number, len: number) => (i.toString(16) + 'f'.repeat(len)).slice(0, len);

export interface SeedOptions {
  users: number;
  /** Calls in flight at once (auto-pipelined). */
  inFlight: number;
}

/**
 * Each user: a language (/language), notification settings (/settings, in their party hash) and
 * saved addresses (an EVM one for everyone, a Solana one for every other user), as the wizard
 * saves them after a swap.
 */
export async function seedUsers(redis: Redis, prefix: string, o: SeedOptions): Promise<void> {
  const languages = new LanguageStore(redis, prefix);
  const settings = new SettingsStore(redis, new TrackingKeys(prefix));
  const book = new RedisAddressBook(redis, prefix);
  const now = Date.now();
  const t0 = Date.now();
  let done = 0;
  await eachLimit(
    Array.from({ length: o.users }, (_, i) => i),
    o.inFlight,
    async (i) => {
      const u = knownUser(i);
      await Promise.all([
        languages.set('user', u.platform, u.id, LOCALES[i % LOCALES.length] as (typeof LOCALES)[number]),
        settings.save(targetKey({ platform: u.platform, chatId: u.id }), settingsOf(i)),
        (async () => {
          await book.remember(u.platform, u.id, 'evm', `0x${hex(i, 40)}`, now - 86_400_000);
          if (i % 2 === 0) await book.remember(u.platform, u.id, 'solana', `So1${hex(i * 7, 41)}`, now);
        })(),
      ]);
      if (++done % 100_000 === 0) progress(`seeded ${done.toLocaleString('en-US')} users in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    },
  );
}

/**
 * Follows swaps from users' private chats (swap i from user i) through the tracking service.
 * Their poll jobs are made first, as the engine makes them (same id and options) but delayed by
 * a day: the sandbox does not know these ids, so their polls never run; in production most
 * followed swaps also sit in the delayed set between polls.
 */
export async function followSwaps(
  redis: Redis,
  ctl: Tracking,
  prefix: string,
  swapIds: readonly string[],
  o: { inFlight: number; firstUser?: number },
): Promise<void> {
  const queue = new Queue(POLL_QUEUE, { connection: redis, prefix: new TrackingKeys(prefix).queuePrefix(POLL_QUEUE) });
  try {
    for (let i = 0; i < swapIds.length; i += 1000) {
      await queue.addBulk(
        swapIds
          .slice(i, i + 1000)
          .map((swapId) => ({ name: 'poll', data: {}, opts: { jobId: pollJobId(swapId), ...POLL_RETRY, delay: 86_400_000 } })),
      );
    }
  } finally {
    await queue.close();
  }
  await followFrom(ctl, swapIds, o);
}

/** Follows swaps (their poll jobs made by the engine as usual) from users' private chats. */
export async function followFrom(ctl: Tracking, swapIds: readonly string[], o: { inFlight: number; firstUser?: number }): Promise<void> {
  const first = o.firstUser ?? 0;
  await eachLimit(swapIds, o.inFlight, async (id, i) => {
    const chat = userChat(first + i);
    const r = await ctl.service.follow(id, chat, { userId: chat.chatId });
    if (!r.ok) throw new Error(`follow refused: ${r.reason}`);
  });
}

/** The keys one user has: language, party hash (settings, follows), address book. */
export function userKeys(prefix: string, i: number): Record<'language' | 'party' | 'addresses', string> {
  const u = knownUser(i);
  const core = new CoreKeys(prefix);
  return {
    language: core.language('user', u.platform, u.id),
    party: new TrackingKeys(prefix).party(targetKey({ platform: u.platform, chatId: u.id })),
    addresses: core.addressBook(u.platform, u.id),
  };
}

/** The keys one followed swap has of its own: its hash and its poll job's hash. */
export function swapKeys(prefix: string, swapId: string): Record<'swap' | 'pollJob', string> {
  const k = new TrackingKeys(prefix);
  return { swap: k.swap(swapId), pollJob: `${k.queuePrefix(POLL_QUEUE)}:${POLL_QUEUE}:${pollJobId(swapId)}` };
}

/** Mean MEMORY USAGE (bytes) of each kind of key over a sample (missing keys count 0). */
export async function sampleUsage(redis: Redis, sample: Array<Record<string, string>>): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (let i = 0; i < sample.length; i += 500) {
    const pipe = redis.pipeline();
    const order: string[] = [];
    for (const keys of sample.slice(i, i + 500))
      for (const [kind, key] of Object.entries(keys)) {
        pipe.memory('USAGE', key, 'SAMPLES', '0');
        order.push(kind);
      }
    const res = (await pipe.exec()) ?? [];
    res.forEach(([err, v], j) => {
      const kind = order[j] as string;
      sums[kind] = (sums[kind] ?? 0) + (!err && typeof v === 'number' ? v : 0);
    });
  }
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / sample.length]));
}

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import { testRedisUrl } from '../support/redis.js';
import { CARD_TITLE, isAbout, startHarness, type Harness } from './support/harness.js';
import { DeliverySink } from './support/sink.js';
import { waitFor } from '../support/wait.js';

/**
 * The worker runs in a child process and is killed with SIGKILL in the middle of a delivery,
 * while swaps keep moving; a new worker is started. Every change still reaches every chat, and
 * none twice: the killed jobs are picked up again once their lock expires, and each delivery
 * is recorded before the next starts, so a retry resumes exactly where the dead worker stopped.
 */

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

describe('a worker killed mid-run', () => {
  let h: Harness;
  let sink: DeliverySink;
  let sinkUrl: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // This process plays the web process (follow only); the child runs the workers.
    h = await startHarness();
    sink = new DeliverySink(() => h.clock.now());
    sinkUrl = await sink.start();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await sink?.close();
    await h?.close();
  });

  function startWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      ['--import', pathToFileURL(here('./support/ts-register.mjs')).href, here('./support/worker-process.ts')],
      {
        env: {
          ...process.env,
          REDIS_URL: testRedisUrl(),
          PREFIX: h.prefix,
          SANDBOX_URL: h.sandbox.url,
          SANDBOX_KEY: h.sandbox.apiKey,
          SINK_URL: sinkUrl,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let errors = '';
    child.stderr?.on('data', (d: Buffer) => (errors += d.toString()));
    return new Promise((resolve, reject) => {
      child.stdout?.on('data', (d: Buffer) => {
        if (d.toString().includes('ready')) resolve(child);
      });
      child.on('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready: ${errors.slice(-2000)}`)));
    });
  }

  it('delivers every change after a restart, none twice', async () => {
    const chats: ChatTarget[] = Array.from({ length: 4 }, (_, i) => ({ platform: 'console', chatId: `chat-${i}`, chatKind: 'private' }));
    const ids: string[] = [];
    const follows: Array<[string, ChatTarget]> = [];
    for (let i = 0; i < 6; i++) {
      const id = await h.createSwap();
      ids.push(id);
      for (const chat of [chats[i % 4], chats[(i + 1) % 4]] as ChatTarget[]) {
        await h.tracking.service.follow(id, chat, { userId: chat.chatId });
        follows.push([id, chat]);
      }
    }

    const first = await startWorker();
    await h.settle(ids);
    const exited = new Promise((r) => first.on('exit', r));
    sink.killOnDelivery(5, () => first.kill('SIGKILL'));
    h.clock.advance(1_000);
    for (const id of ids) h.sandbox.deposit(id);
    await exited;
    expect(sink.killed).toBe(1);
    // The swaps move on while no worker runs.
    h.clock.advance(10_000);

    await startWorker();
    for (let k = 0; k < 4; k++) {
      await h.settle(ids);
      h.clock.advance(10_000);
    }
    await h.settle(ids);

    for (const [id, chat] of follows) {
      const mine = sink.forChat(chat.chatId).filter((r) => isAbout(r.reply, id));
      const cards = mine.filter((r) => r.reply.title === CARD_TITLE);
      const texts = cards.map((c) => replyText(c.reply));
      expect(texts.filter((t, i) => t === texts[i - 1])).toEqual([]); // no card delivered twice
      expect(texts.at(-1)).toContain('status completed');
      expect(cards[0]?.op).toBe('send');
      expect(cards.slice(1).filter((c) => !(c.op === 'edit' && c.messageId === cards[0]?.messageId))).toEqual([]);
      expect(mine.filter((r) => r.reply.title !== CARD_TITLE).map((r) => r.reply.title)).toEqual([
        MOMENT_TITLES.deposit_seen,
        MOMENT_TITLES.completed,
      ]);
    }
    await waitFor(async () => (await h.tracking.pendingNotifications()) === 0, 'no notification left');
  });

  /** Swaps followed by two chats each; returns the pairs. */
  async function followPairs(tag: string, swaps: number): Promise<{ ids: string[]; follows: Array<[string, ChatTarget]> }> {
    // Workers of an earlier test would take the jobs: only the killable ones may run.
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await waitFor(() => children.every((c) => c.exitCode !== null || c.signalCode !== null), 'earlier workers to exit');
    const chats: ChatTarget[] = Array.from({ length: 4 }, (_, i) => ({ platform: 'console', chatId: `${tag}-${i}`, chatKind: 'private' }));
    const ids: string[] = [];
    const follows: Array<[string, ChatTarget]> = [];
    for (let i = 0; i < swaps; i++) {
      const id = await h.createSwap();
      ids.push(id);
      for (const chat of [chats[i % 4], chats[(i + 1) % 4]] as ChatTarget[]) {
        await h.tracking.service.follow(id, chat, { userId: chat.chatId });
        follows.push([id, chat]);
      }
    }
    return { ids, follows };
  }

  /** Workers that each die right after their nth new message reached the platform, before recording it. */
  async function runWithKillsAfterSend(ids: string[], kills: number[], env: Record<string, string>): Promise<void> {
    for (const [k, n] of kills.entries()) {
      const worker = await startWorker({ ...env, KILL_AFTER_SEND: String(n) });
      if (k === 1) for (const id of ids) h.sandbox.deposit(id);
      if (k > 1) h.clock.advance(10_000);
      await waitFor(() => worker.signalCode === 'SIGKILL', `worker ${k} to die after its send #${n}`);
    }
    await startWorker(env);
    for (let k = 0; k < 4; k++) {
      await h.settle(ids);
      h.clock.advance(10_000);
    }
    await h.settle(ids);
  }

  it('killed between sending and recording, on a platform that deduplicates sends: every message exactly once', async () => {
    const { ids, follows } = await followPairs('dedup', 6);
    h.clock.advance(1_000);
    await runWithKillsAfterSend(ids, [2, 3, 5, 4, 7], { IDEMPOTENT: '1' });
    expect(sink.deduplicated).toBeGreaterThanOrEqual(5); // each kill left a message in doubt, re-sent with its key

    for (const [id, chat] of follows) {
      const mine = sink.forChat(chat.chatId).filter((r) => isAbout(r.reply, id));
      const cards = mine.filter((r) => r.reply.title === CARD_TITLE);
      expect(cards.filter((c) => c.op === 'send')).toHaveLength(1); // one card, edited from then on
      expect(cards.filter((c) => !(c.messageId === cards[0]?.messageId))).toEqual([]);
      expect(replyText(cards.at(-1)?.reply ?? { lines: [], target: 'here' })).toContain('status completed');
      expect(mine.filter((r) => r.reply.title !== CARD_TITLE).map((r) => r.reply.title)).toEqual([
        MOMENT_TITLES.deposit_seen,
        MOMENT_TITLES.completed,
      ]);
    }
  });

  it('killed between sending and recording, on a platform without idempotency keys: no key message twice', async () => {
    const { ids, follows } = await followPairs('plain', 6);
    h.clock.advance(1_000);
    const before = sink.deduplicated;
    await runWithKillsAfterSend(ids, [12, 3, 2, 4, 3], {});
    expect(sink.deduplicated).toBe(before);

    for (const [id, chat] of follows) {
      const mine = sink.forChat(chat.chatId).filter((r) => isAbout(r.reply, id));
      const cards = mine.filter((r) => r.reply.title === CARD_TITLE);
      // The platform got each message the worker died after: at most once means exactly once here.
      expect(mine.filter((r) => r.reply.title !== CARD_TITLE).map((r) => r.reply.title)).toEqual([
        MOMENT_TITLES.deposit_seen,
        MOMENT_TITLES.completed,
      ]);
      expect(replyText(cards.at(-1)?.reply ?? { lines: [], target: 'here' })).toContain('status completed');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { createRedis } from '../../src/redis.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';
import { createTracking, type Tracking } from '../../src/tracking/engine.js';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { POLL_QUEUE } from '../../src/tracking/keys.js';
import { clusterUnavailable, startCluster, type LocalCluster } from '../support/cluster.js';
import { uniquePrefix } from '../support/redis.js';
import { RecordingMessenger } from '../tracking/support/recording-messenger.js';
import { CARD_TITLE, testRenderer } from '../tracking/support/card.js';
import { WAIT_MS } from '../support/wait.js';
import { swapRequest } from '../support/swaps.js';

/**
 * Tracking on a real Redis Cluster (REDIS_CLUSTER_NODES): three masters and one replica started
 * for this file. Swaps created in the sandbox over HTTP are followed end to end (poll jobs,
 * per-swap state, notify jobs, cards in chats); then the master that holds BullMQ's queues is
 * killed while swaps are being polled, its replica takes over, and tracking carries on delivering.
 */
const unavailable = clusterUnavailable();
if (unavailable) console.warn(unavailable);

describe.skipIf(unavailable !== undefined)('tracking on a Redis Cluster', () => {
  let cluster: LocalCluster;
  let sandbox: SandboxServer;
  let client: LayerswapClient;
  let tracking: Tracking;
  const telegram = new RecordingMessenger('telegram');
  const prefix = uniquePrefix('cluster');
  const keys = new TrackingKeys(prefix);
  let n = 0;

  beforeAll(async () => {
    // The replica follows the master of the poll queue's slot: the failover below moves it.
    cluster = await startCluster({ replicaOfKey: keys.queuePrefix(POLL_QUEUE) });
    sandbox = await startSandbox({ host: '127.0.0.1', timings: { depositDelayMs: 'off' } });
    client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0, timeoutMs: WAIT_MS });
    tracking = createTracking({
      redis: cluster.url,
      prefix,
      api: client,
      limits: { maxPerChat: 100, maxPerUser: 100 },
      cadence: { fastMs: 100, slowMs: 200, stuckFactor: 4 },
      apiRate: { max: 10_000, duration: 1000 },
      platformRates: { telegram: { max: 10_000, duration: 1000 } },
      pacing: () => undefined,
      // Short locks: a job in hand when its master died is taken up again soon.
      workers: { notifyBackoffMs: 100, notifyBackoffMaxMs: 1_000, lockDurationMs: 3_000, stalledIntervalMs: 1_000 },
    });
    await tracking.startWorkers({ messengers: { telegram }, render: testRenderer, concurrency: 10 });
  });

  afterAll(async () => {
    await tracking?.close();
    await client?.close();
    await sandbox?.close();
    await cluster?.stop();
  });

  async function createSwap(): Promise<string> {
    n++;
    const created = await client.createSwap(swapRequest(`0x${n.toString(16).padStart(40, 'a')}`));
    return created.swap.id;
  }

  /** The newest status card a chat got for a swap, as text. */
  function card(chatId: string, swapId: string): string {
    const cards = telegram.forChat(chatId).filter((r) => r.reply.title === CARD_TITLE && replyText(r.reply).includes(swapId));
    return cards.length ? replyText(cards[cards.length - 1]!.reply) : '';
  }

  type Followed = Array<{ id: string; chat: ChatTarget }>;

  /** Follows new swaps; each is polled and stored while it waits for its deposit, and a follower gets its card. */
  async function follow(label: string, count: number): Promise<Followed> {
    const swaps: Followed = [];
    for (let i = 0; i < count; i++) {
      const id = await createSwap();
      const chat: ChatTarget = { platform: 'telegram', chatId: `${label}-${i}`, chatKind: 'private' };
      // Half the chats made the swap (their first card comes at its first change), half follow one made elsewhere.
      expect(await tracking.service.follow(id, chat, { userId: `u-${label}-${i}`, creator: i % 2 === 0 })).toMatchObject({ ok: true });
      swaps.push({ id, chat });
    }
    for (const s of swaps)
      await expect
        .poll(async () => (await tracking.swapState(s.id))?.status, { timeout: WAIT_MS, interval: 100 })
        .toMatch(/^(created|user_transfer_pending)$/);
    for (const s of swaps.filter((_, i) => i % 2 === 1))
      await expect
        .poll(() => card(s.chat.chatId, s.id), { timeout: WAIT_MS, interval: 100 })
        .toMatch(/status (created|user_transfer_pending)/);
    return swaps;
  }

  /** The service completes the swaps: every chat's card says so. */
  async function complete(swaps: Followed): Promise<void> {
    for (const s of swaps) sandbox.setStatus(s.id, 'completed');
    for (const s of swaps)
      await expect.poll(() => card(s.chat.chatId, s.id), { timeout: WAIT_MS, interval: 100 }).toContain('status completed');
    for (const s of swaps) expect((await tracking.swapState(s.id))?.status).toBe('completed');
  }

  it('follows swaps end to end, their keys spread over the masters', async () => {
    await complete(await follow('before', 6));
    // Per-swap keys carry the swap's hash tag: six swaps land on more than one master.
    const probe = createRedis(cluster.url);
    const slots = new Set(
      await Promise.all(Array.from({ length: 6 }, (_, i) => probe.call('CLUSTER', 'KEYSLOT', keys.swap(`id-${i}`)) as Promise<number>)),
    );
    // Each queue on its own hash tag (BullMQ's advice): the poll queue's keys and each notify queue's in different slots.
    const queueSlots = new Set(
      await Promise.all(
        [POLL_QUEUE, 'notify-telegram', 'notify-discord'].map(
          (q) => probe.call('CLUSTER', 'KEYSLOT', `${keys.queuePrefix(q)}:${q}:wait`) as Promise<number>,
        ),
      ),
    );
    probe.disconnect();
    expect(slots.size).toBeGreaterThan(1);
    expect(queueSlots.size).toBe(3);
  });

  it("lists a chat's swaps when they live on different masters", async () => {
    const chat: ChatTarget = { platform: 'telegram', chatId: 'many', chatKind: 'private' };
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const id = await createSwap();
      expect(await tracking.service.follow(id, chat, { userId: 'u-many', creator: false })).toMatchObject({ ok: true });
      ids.push(id);
    }
    const listed = await tracking.service.listFollowed(chat);
    expect(listed.map((f) => f.swapId).sort()).toEqual([...ids].sort());
  });

  it('carries on through a failover of the master holding the queues', async () => {
    // Followed before the failover: their polls are in flight when the master dies.
    const during = await follow('during', 4);
    cluster.kill(cluster.replicatedMaster);
    await cluster.waitForFailover();
    // Once the replica serves the queues, tracking resumes: the swaps followed before reach their
    // chats completed, and swaps followed now are tracked. Waited for with the hang detector, not a
    // budget: how soon is the cluster's node timeout and the clients' refresh (a quiet run once took
    // over the 20 s this had).
    await complete(during);
    await complete(await follow('after', 4));
  });
});

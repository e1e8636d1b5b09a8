import net from 'node:net';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type WebServer } from '../../src/app/http-server.js';
import { scrapeTracking } from '../../src/app/metrics-source.js';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { silentLogger } from '../../src/log.js';
import { createRedis } from '../../src/redis.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';
import { Webhook } from 'svix';
import { TrackingKeys } from '../../src/contracts/keys.js';
import { createWebhookHandler } from '../../src/tracking/webhook.js';
import { testRedis, uniquePrefix } from '../support/redis.js';
import { startHarness } from '../tracking/support/harness.js';
import { WAIT_MS } from '../support/wait.js';
import { swapRequest } from '../support/swaps.js';

/**
 * GET /metrics over a real socket, after real activity: API requests to the sandbox over HTTP
 * (answers, a 404, a timeout), jobs in a real BullMQ queue on the test Redis, a followed swap, a
 * Redis connection that cannot connect. What an operator's Prometheus would see move.
 */
const TOKEN = 'metrics-token-0123456789';
const prefix = uniquePrefix('metrics');
const redis = testRedis(prefix);
let server: WebServer;
let sandbox: SandboxServer;
let client: LayerswapClient;
let stopScrape: () => Promise<void>;

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1' });
  client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
  stopScrape = scrapeTracking(redis, prefix, silentLogger, []);
  server = await serveHttp(new Map(), { port: 0, host: '127.0.0.1', health: async () => true, metricsToken: TOKEN });
});
afterAll(async () => {
  await server?.close();
  await stopScrape?.();
  await client?.close();
  await sandbox?.close();
});

async function scrape(token = TOKEN): Promise<{ status: number; body: string; type: string | null }> {
  const res = await fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
}

/** The value of one sample line, such as `swapbot_polls_total{outcome="changed"}`; 0 when absent. */
function sample(page: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (want.every((w) => labelText.split(',').includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('GET /metrics', () => {
  it('counts API requests by operation and outcome, with latency, and never shows a swap id', async () => {
    const before = (await scrape()).body;
    const op = 'GET /api/v2/swaps/{swapId}';
    const created = await client.createSwap(swapRequest(`0x${'a'.repeat(40)}`));
    const id = created.swap.id;
    await client.getSwap(id);
    const poll = await client.pollSwap(id, { exclude_deposit_actions: true });
    expect(poll.swap.status).toBe(created.swap.status);
    await expect(client.getSwap('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });

    const page = await scrape();
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/plain');
    expect(
      sample(page.body, 'swapbot_api_requests_total', { operation: op, outcome: 'ok' }) -
        sample(before, 'swapbot_api_requests_total', { operation: op, outcome: 'ok' }),
    ).toBe(2);
    expect(
      sample(page.body, 'swapbot_api_requests_total', { operation: op, outcome: 'client_error' }) -
        sample(before, 'swapbot_api_requests_total', { operation: op, outcome: 'client_error' }),
    ).toBe(1);
    expect(sample(page.body, 'swapbot_api_requests_total', { operation: 'POST /api/v2/swaps', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(
      sample(page.body, 'swapbot_api_request_duration_seconds_count', { operation: op }) -
        sample(before, 'swapbot_api_request_duration_seconds_count', { operation: op }),
    ).toBe(3);
    expect(page.body).not.toContain(id);
    expect(page.body).not.toContain(sandbox.apiKey === 'sandbox' ? 'x-ls-apikey' : sandbox.apiKey);
    // Process metrics come along (memory, CPU, event loop) for the same dashboards.
    expect(page.body).toContain('swapbot_process_cpu_seconds_total');
  });

  it('counts a request that got no answer in time as a timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket)); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    const slow = new LayerswapClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', maxRetries: 0, timeoutMs: 150 });
    const before = sample((await scrape()).body, 'swapbot_api_requests_total', { operation: 'GET /api/v2/networks', outcome: 'timeout' });
    await expect(slow.getNetworks()).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(sample((await scrape()).body, 'swapbot_api_requests_total', { operation: 'GET /api/v2/networks', outcome: 'timeout' })).toBe(
      before + 1,
    );
    for (const socket of sockets) socket.destroy();
    await slow.close().catch(() => undefined);
    await new Promise((r) => silent.close(r));
  });

  it('reads queue depths, queue delay and followed swaps from Redis when scraped', async () => {
    const keys = new TrackingKeys(prefix);
    const queue = new Queue('notify-telegram', { connection: redis, prefix: keys.queuePrefix('notify-telegram') });
    await queue.add('notify', { n: 1 }, { timestamp: Date.now() - 30_000 });
    await queue.add('notify', { n: 2 });
    await queue.add('notify', { n: 3 }, { delay: 60_000 });
    await redis.sadd(keys.activeSwaps, 'a', 'b', 'c');

    const page = (await scrape()).body;
    expect(sample(page, 'swapbot_queue_jobs', { queue: 'notify-telegram', state: 'waiting' })).toBe(2);
    expect(sample(page, 'swapbot_queue_jobs', { queue: 'notify-telegram', state: 'delayed' })).toBe(1);
    expect(sample(page, 'swapbot_queue_jobs', { queue: 'poll', state: 'waiting' })).toBe(0);
    // The oldest waiting job was due 30 s ago: the notify queue is that far behind.
    expect(sample(page, 'swapbot_queue_oldest_waiting_seconds', { queue: 'notify-telegram' })).toBeGreaterThanOrEqual(29);
    expect(sample(page, 'swapbot_followed_swaps')).toBe(3);
    await queue.close();
  });

  it('counts poll runs and the status cards and messages pushed to chats, 429s included', async () => {
    const h = await startHarness();
    try {
      const before = (await scrape()).body;
      await h.startWorkers();
      const chat = { platform: 'telegram', chatId: 'metrics-probe-chat', chatKind: 'private' } as const;
      const id = await h.createSwap();
      await h.tracking.service.follow(id, chat, { userId: 'u1', creator: true });
      await h.settle([id]);
      // Telegram's next call answers 429 (a flood wait): one failed delivery, then the retry lands.
      h.messengers.telegram.fail({ failure: 'rate_limited', retryAfterMs: 100, count: 1 });
      h.clock.advance(1_000);
      h.sandbox.deposit(id);
      await h.settle([id]);
      expect(h.messengers.telegram.refusals).toHaveLength(1);

      const page = (await scrape()).body;
      const moved = (name: string, labels: Record<string, string>) => sample(page, name, labels) - sample(before, name, labels);
      // The first poll and the deposit are changes; settling polls once more without one.
      expect(moved('swapbot_polls_total', { outcome: 'changed' })).toBeGreaterThanOrEqual(2);
      expect(moved('swapbot_polls_total', { outcome: 'unchanged' })).toBeGreaterThanOrEqual(1);
      // The creator's card (sent at the deposit, its first change) and the "deposit received" message, each counted once.
      expect(h.messengers.telegram.log.length).toBeGreaterThanOrEqual(2);
      expect(moved('swapbot_notify_deliveries_total', { platform: 'telegram', outcome: 'delivered' })).toBe(
        h.messengers.telegram.log.length,
      );
      expect(moved('swapbot_notify_deliveries_total', { platform: 'telegram', outcome: 'failed' })).toBe(1);
      expect(moved('swapbot_rate_limited_total', { source: 'telegram' })).toBe(1);
      expect(page).not.toContain(id);
      expect(page).not.toContain('metrics-probe-chat');
    } finally {
      await h.close();
    }
  });

  it('counts webhook calls by result: accepted, replayed, rejected', async () => {
    const secret = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
    const handler = createWebhookHandler({ secret, onSwapHint: async () => undefined });
    const before = (await scrape()).body;
    const body = JSON.stringify({ data: { swap: { id: '11111111-1111-4111-8111-111111111111' } } });
    const at = new Date();
    const headers = {
      'svix-id': 'msg_1',
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new Webhook(secret).sign('msg_1', at, body),
    };
    expect((await handler.handle(body, headers)).status).toBe(200);
    expect((await handler.handle(body, headers)).status).toBe(200);
    expect((await handler.handle(body, { ...headers, 'svix-signature': `v1,${Buffer.alloc(32, 7).toString('base64')}` })).status).toBe(401);
    const page = (await scrape()).body;
    for (const [result, n] of [
      ['accepted', 1],
      ['replayed', 1],
      ['rejected', 1],
    ] as const) {
      expect(sample(page, 'swapbot_webhook_hints_total', { result }) - sample(before, 'swapbot_webhook_hints_total', { result })).toBe(n);
    }
  });

  it('counts Redis connection errors', async () => {
    const before = sample((await scrape()).body, 'swapbot_redis_errors_total');
    const port = await closedPort();
    const broken = createRedis(`redis://127.0.0.1:${port}`, { name: 'broken', retryStrategy: () => null, lazyConnect: true });
    await broken.connect().catch(() => undefined);
    await expect
      .poll(async () => sample((await scrape()).body, 'swapbot_redis_errors_total'), { timeout: WAIT_MS })
      .toBeGreaterThan(before);
    broken.disconnect();
  });

  it('asks for the token when METRICS_TOKEN is set, and keeps the page from anyone else', async () => {
    const res = await scrape('wrong-token-0123456789');
    expect(res.status).toBe(401);
    expect(res.body).not.toContain('swapbot_');
    const none = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(none.status).toBe(401);
    await none.text();
  });
});

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { BotCore } from '../src/bot/core.js';
import { createCore, type CoreDeps } from '../src/bot/create-core.js';
import { serveHttp } from '../src/app/http-server.js';
import { CatalogCache } from '../src/layerswap/catalog-cache.js';
import { silentLogger } from '../src/log.js';
import { AgentMessenger } from '../src/mcp/events.js';
import { AgentKeyStore } from '../src/mcp/key-store.js';
import { mcpHttpRoute } from '../src/mcp/server.js';
import { startWebhookWorker, WebhookQueue } from '../src/mcp/webhook-queue.js';
import { createRedis } from '../src/redis.js';
import type { Bench } from './context.js';
import { CONFIG_DEFAULTS } from './defaults.js';
import { deleteKeys } from './env.js';
import { LATENCY_CADENCE } from './population.js';
import { emptySection, type Section } from './report.js';
import { fmt, percentile, progress, spread } from './stats.js';

/**
 * 8. Agents (src/mcp): p99 of the cached `quote` and of `get_swap` as MCP tool calls over
 * Streamable HTTP (the SDK's client against /mcp on a real port) beside the chat core's same
 * commands (/quote, /status) on the same catalogue cache, sandbox and Redis; and a key moment
 * handed to the agent messenger (what tracking's notify job does) until the signed webhook is
 * received by a local server (BullMQ queue, worker, HTTP POST).
 */
export interface McpBenchOptions {
  repeats: number;
  perRepeat: number;
  warmup: number;
  webhooks: number;
}
const DEFAULTS: McpBenchOptions = { repeats: 3, perRepeat: 200, warmup: 30, webhooks: 200 };

const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

export async function runMcp(b: Bench, opts: Partial<McpBenchOptions> = {}): Promise<Section> {
  const o = { ...DEFAULTS, ...opts };
  const section = emptySection(10, 'Agents (MCP over HTTP) beside the chat core; moment to webhook');
  const prefix = `${b.redis.prefix}-mcp`;
  const redis = createRedis(b.redis.url, { maxRetriesPerRequest: 3 });
  const workerRedis = createRedis(b.redis.url, { maxRetriesPerRequest: null });
  const ctl = b.controller(`${prefix}`, LATENCY_CADENCE);
  const deps: CoreDeps = {
    api: b.api,
    catalog: new CatalogCache(b.api),
    redis,
    keyPrefix: prefix,
    tracking: ctl.service,
    limits: { commandsPerMinute: 1_000_000, draftTtlSeconds: CONFIG_DEFAULTS.DRAFT_TTL_SECONDS },
  };
  const core: BotCore = createCore(deps);
  const keys = new AgentKeyStore(redis, prefix);
  const route = mcpHttpRoute({ core: deps, keys, logger: silentLogger });
  const server = await serveHttp(new Map([['/mcp', route.handle]]), { port: 0, host: '127.0.0.1', health: async () => true });
  const { key, secret } = await keys.create('bench', {});
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  );
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent as Record<string, unknown>;
  };
  const chat = async (text: string) => {
    const replies = await core.handle({
      platform: 'telegram',
      userId: 'bench',
      userName: 'Bench',
      chatId: 'bench',
      chatKind: 'private',
      text,
    });
    if (replies.length === 0 || replies.some((r) => r.tone === 'error')) throw new Error(`"${text}" did not work`);
  };
  const receiver = await startReceiver();
  const queue = new WebhookQueue(redis, prefix, keys, silentLogger);
  const worker = startWebhookWorker(workerRedis, prefix, keys, silentLogger);
  try {
    const route8 = {
      amount: '100',
      from_network: 'ETHEREUM_MAINNET',
      from_token: 'USDC',
      to_network: 'ARBITRUM_MAINNET',
      to_token: 'USDC',
    };
    const created = await tool('create_swap', {
      ...route8,
      destination_address: '0x1111111111111111111111111111111111111111',
      no_refund_address: true,
    });
    const swapId = created.swap_id as string;
    const pairs = [
      {
        name: 'quote',
        mcp: () => tool('quote', route8),
        chat: () => chat('/quote 100 USDC ETHEREUM_MAINNET ARBITRUM_MAINNET'),
        chatName: '/quote',
      },
      { name: 'get_swap', mcp: () => tool('get_swap', { swap_id: swapId }), chat: () => chat(`/status ${swapId}`), chatName: '/status' },
    ];
    for (const p of pairs) {
      for (let i = 0; i < o.warmup; i++) await Promise.all([p.mcp(), p.chat()]);
      const m99: number[] = [];
      const c99: number[] = [];
      for (let r = 0; r < o.repeats; r++) {
        const m: number[] = [];
        const c: number[] = [];
        for (let i = 0; i < o.perRepeat; i++) {
          m.push(await time(p.mcp));
          c.push(await time(p.chat));
        }
        m99.push(percentile(m, 99));
        c99.push(percentile(c, 99));
      }
      const ratio = spread(m99.map((x, i) => x / (c99[i] ?? NaN)));
      progress(`mcp ${p.name}: p99 ${fmt(spread(m99).median)} ms beside ${p.chatName} ${fmt(spread(c99).median)} ms`);
      section.rows.push({
        figure: `MCP ${p.name} p99 (HTTP)`,
        unit: 'ms',
        value: spread(m99),
        beside: { label: `chat core ${p.chatName} p99`, unit: 'ms', value: spread(c99) },
        ratio: { label: 'mcp / chat', value: ratio },
      });
      section.targets.push({
        text: `MCP ${p.name} p99 over HTTP <= 1.5x the chat core's ${p.chatName}`,
        measured: `${fmt(ratio.median)}x`,
        pass: Number.isFinite(ratio.median) ? ratio.median <= 1.5 : null,
      });
    }

    await keys.setWebhook(key.id, receiver.url);
    const messenger = new AgentMessenger(redis, prefix, queue);
    const lat: number[] = [];
    for (let i = 0; i < o.webhooks; i++) {
      const t0 = performance.now();
      const arrived = receiver.next();
      await messenger.send(
        { platform: 'mcp', chatId: key.id, chatKind: 'private' },
        {
          target: 'here',
          lines: [],
          fields: ['deposit_seen', swapId, 'user_transfer_pending', 'confirming', String(i)].map((v, k) => ({
            id: ['moment', 'swap', 'status', 'phase', 'version'][k] as string,
            name: '',
            value: [{ kind: 'text' as const, text: v }],
          })),
        },
      );
      await arrived;
      lat.push(performance.now() - t0);
    }
    const med = percentile(lat, 50);
    const worst = Math.max(...lat);
    progress(`moment -> webhook: median ${fmt(med)} ms, worst ${fmt(worst)} ms`);
    section.rows.push({ figure: 'moment -> webhook received, median', unit: 'ms', value: spread([med]) });
    section.rows.push({ figure: 'moment -> webhook received, worst', unit: 'ms', value: spread([worst]) });
  } finally {
    await client.close().catch(() => undefined);
    await worker.close();
    await queue.close();
    await receiver.close();
    await route.close();
    await server.close();
    await ctl.close();
    await deleteKeys(redis, prefix);
    await redis.quit().catch(() => redis.disconnect());
    await workerRedis.quit().catch(() => workerRedis.disconnect());
  }
  section.notes.push(
    `${o.repeats} rounds of ${o.perRepeat} calls each, MCP and chat alternating, one at a time, after ${o.warmup} warm-up pairs; the catalogue cache is shared and warm. ` +
      `MCP: a tools/call over HTTP with the SDK's client (JSON answer), the bearer key checked in Redis per request. ` +
      `Webhook: ${o.webhooks} moments one at a time, from AgentMessenger.send (the notify job's hand-over) to the signed POST arriving at a local receiver.`,
  );
  return section;
}

function startReceiver() {
  let waiting: (() => void) | undefined;
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200).end();
      const w = waiting;
      waiting = undefined;
      w?.();
    });
  });
  return new Promise<{ url: string; next: () => Promise<void>; close: () => Promise<void> }>((resolve) =>
    srv.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(srv.address() as { port: number }).port}/hook`,
        next: () => new Promise<void>((r) => (waiting = r)),
        close: () => new Promise<void>((r) => srv.close(() => r())),
      }),
    ),
  );
}

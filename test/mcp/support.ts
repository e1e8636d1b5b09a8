import { createHmac } from 'node:crypto';
import http from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Messenger } from '../../src/contracts/messenger.js';
import { serveHttp } from '../../src/app/http-server.js';
import { agentDelivery } from '../../src/mcp/delivery.js';
import { mcpWeb } from '../../src/mcp/wiring.js';
import { AgentKeyStore } from '../../src/mcp/key-store.js';
import { silentLogger } from '../../src/log.js';
import { coreDepsOver, startHarness, type Harness } from '../tracking/support/harness.js';
import { testRedisUrl } from '../support/redis.js';

/**
 * The agent surface as the web and worker processes run it: the sandbox behind tracking (the
 * harness's manual clock), the worker's agent delivery (AgentMessenger and the webhook worker), and
 * the web process's HTTP server with /mcp mounted by mcpWeb, on a real port.
 */
export async function startMcpWorld() {
  const h: Harness = await startHarness();
  const coreDeps = coreDepsOver(h);
  const wiring = { redisUrl: testRedisUrl(), coreDeps, logger: silentLogger, botUsername: 'swapbot_test_bot' };
  let delivery = agentDelivery(wiring);
  // Tracking's workers hold this messenger; it hands each send to the current delivery, so the
  // worker process's agent delivery (its webhook queue and sender) can restart under them.
  const messenger: Messenger = {
    platform: 'mcp',
    idempotentSends: true,
    send: (target, reply) => delivery.messenger.send(target, reply),
    edit: (ref, reply) => delivery.messenger.edit(ref, reply),
  };
  await h.startWorkers({ messengers: { ...h.messengers, mcp: messenger }, renderers: { mcp: delivery.renderer } });
  let web = await mcpWeb(wiring);
  let server = await serveHttp(new Map([['/mcp', (req, res) => web.handle(req, res)]]), {
    port: 0,
    host: '127.0.0.1',
    health: async () => true,
  });
  const keys = new AgentKeyStore(coreDeps.redis, h.prefix);
  const clients: Client[] = [];

  async function connect(secret: string | undefined): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const headers: Record<string, string> = secret ? { authorization: `Bearer ${secret}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  /** The web process stops and starts again (same Redis): what was queued is still delivered. */
  async function restartWeb(): Promise<void> {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    await web.close();
    await server.close();
    web = await mcpWeb(wiring);
    server = await serveHttp(new Map([['/mcp', (req, res) => web.handle(req, res)]]), {
      port: 0,
      host: '127.0.0.1',
      health: async () => true,
    });
  }

  /** The worker process's agent delivery stops and starts again: webhook jobs wait in Redis meanwhile. */
  async function restartDelivery(): Promise<void> {
    await delivery.close();
    delivery = agentDelivery(wiring);
  }

  return {
    h,
    coreDeps,
    keys,
    connect,
    restartWeb,
    restartDelivery,
    get port() {
      return server.port;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await web.close();
      await server.close();
      await delivery.close();
      await h.close();
    },
  };
}

/**
 * A webhook receiver on a real port: every request with its headers, body and the status it was
 * answered. `failFirst` picks events whose first delivery is answered 503, as a receiver that is down.
 */
export async function startReceiver(options: { failFirst?: (body: string) => boolean } = {}) {
  const got: Array<{ headers: http.IncomingHttpHeaders; body: string; status: number }> = [];
  const refused = new Set<string>();
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['x-swapbot-event-id']);
      const status = options.failFirst?.(body) && !refused.has(id) ? 503 : 200;
      if (status === 503) refused.add(id);
      got.push({ headers: req.headers, body, status });
      res.writeHead(status).end(status === 200 ? 'ok' : 'down');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  return { got, url: `http://127.0.0.1:${port}/hook`, close: () => new Promise<void>((r) => srv.close(() => r())) };
}

/** A tool's structured answer. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; data: Record<string, unknown> }> {
  const r = await client.callTool({ name, arguments: args });
  return { isError: r.isError === true, data: (r.structuredContent ?? {}) as Record<string, unknown> };
}

/** True when a delivery's X-Swapbot-Signature is the HMAC of its timestamp and body under `secret`. */
export function signedBy(secret: string, r: { headers: http.IncomingHttpHeaders; body: string }): boolean {
  const [t, v1] = String(r.headers['x-swapbot-signature'])
    .split(',')
    .map((p) => p.split('=')[1]);
  return v1 === createHmac('sha256', secret).update(`${t}.${r.body}`).digest('hex');
}

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A local stand-in for a TON Connect HTTP bridge (Wallet in Telegram's is
 * https://walletbot.me/tonconnect-bridge/bridge), so the pay page and a wallet in the test process
 * connect and talk with no network. It serves the two calls @tonconnect/sdk 3.4.1 makes (read from
 * its source: BridgeGateway, createEventSource, BridgeProvider.openGateways in lib/esm/index.mjs):
 * - GET {bridge}/events?client_id=<hex>[,<hex>…][&last_event_id=<id>][&trace_id=…]: a Server-Sent
 *   Events stream of what was posted to those clients, each as `id: <n>` and `data: {"from": <the
 *   sender's client id>, "message": <the posted base64>}`; what is still within its ttl and after
 *   last_event_id is sent at once; a `data: heartbeat` every few seconds (the SDK skips it);
 * - POST {bridge}/message?client_id=<sender>&to=<receiver>&ttl=<s>&topic=<method>[&trace_id=…]
 *   with the base64 of the encrypted message as its body: kept for its ttl, pushed to the
 *   receiver's streams, answered 200 {"message":"OK","statusCode":200}.
 * Both answer with CORS open to any origin (the page is on its own origin; EventSource sends no
 * credentials). It listens twice: https (a self-signed certificate made by openssl for the run)
 * for the browser, whose page may reach only an https bridge, and plain http for the test's wallet.
 *
 * It proves only what it was written to believe: that the SDK works against a bridge that behaves
 * as this reading of its calls says. The real bridge's limits (message size, rate, ttl caps),
 * its webhooks, its exact reconnect and heartbeat behaviour, and any wallet's own bridge client are
 * not modelled; TON Connect against a real bridge is not tested here.
 */

interface Stored {
  id: number;
  from: string;
  to: string;
  message: string;
  topic?: string;
  expires: number;
}

export interface FakeBridge {
  /** The bridge's https address (give the browser this, through a route) and its plain http one (the test's wallet). */
  httpsUrl: string;
  url: string;
  /** Every message posted, in order: who from, to whom, its topic (the request's method). */
  posted: Array<{ from: string; to: string; topic?: string }>;
  /** Client ids that opened an event stream. */
  listeners: string[];
  close(): Promise<void>;
}

const HEARTBEAT_MS = 5_000;

export async function startFakeBridge(): Promise<FakeBridge> {
  const stored: Stored[] = [];
  const streams = new Map<string, Set<ServerResponse>>();
  const posted: FakeBridge['posted'] = [];
  const listeners: string[] = [];
  let nextId = 1;

  const push = (res: ServerResponse, m: Stored) =>
    res.write(`id: ${m.id}\ndata: ${JSON.stringify({ from: m.from, message: m.message })}\n\n`);

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://bridge');
    const cors = { 'access-control-allow-origin': '*' };
    const path = url.pathname.replace(/^\/bridge/, '');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': '*' }).end();
      return;
    }
    if (req.method === 'GET' && path === '/events') {
      const ids = (url.searchParams.get('client_id') ?? '').split(',').filter((c) => /^[0-9a-f]{64}$/.test(c));
      if (ids.length === 0) {
        res.writeHead(400, { ...cors, 'content-type': 'application/json' }).end('{"message":"client_id is required","statusCode":400}');
        return;
      }
      const after = Number(url.searchParams.get('last_event_id') ?? req.headers['last-event-id'] ?? 0) || 0;
      res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write('\n');
      listeners.push(...ids);
      for (const id of ids) (streams.get(id) ?? streams.set(id, new Set()).get(id)!).add(res);
      const now = Date.now();
      for (const m of stored) if (ids.includes(m.to) && m.id > after && m.expires > now) push(res, m);
      const beat = setInterval(() => res.write('data: heartbeat\n\n'), HEARTBEAT_MS);
      res.on('close', () => {
        clearInterval(beat);
        for (const id of ids) streams.get(id)?.delete(res);
      });
      return;
    }
    if (req.method === 'POST' && path === '/message') {
      const from = url.searchParams.get('client_id') ?? '';
      const to = url.searchParams.get('to') ?? '';
      const ttl = Number(url.searchParams.get('ttl') ?? '300');
      const topic = url.searchParams.get('topic') ?? undefined;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const message = Buffer.concat(chunks).toString('utf8').trim();
        if (!/^[0-9a-f]{64}$/.test(from) || !/^[0-9a-f]{64}$/.test(to) || !message || !(ttl > 0 && ttl <= 300)) {
          res.writeHead(400, { ...cors, 'content-type': 'application/json' }).end('{"message":"bad request","statusCode":400}');
          return;
        }
        const m: Stored = { id: nextId++, from, to, message, ...(topic ? { topic } : {}), expires: Date.now() + ttl * 1000 };
        stored.push(m);
        posted.push({ from, to, ...(topic ? { topic } : {}) });
        for (const s of streams.get(to) ?? []) push(s, m);
        res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end('{"message":"OK","statusCode":200}');
      });
      return;
    }
    res.writeHead(404, cors).end();
  }

  // A certificate for this run only: the browser is told to accept it (ignoreHTTPSErrors on its context).
  const dir = mkdtempSync(join(tmpdir(), 'swapbot-bridge-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', '/CN=bridge.test',
    '-addext', 'subjectAltName=DNS:bridge.test,IP:127.0.0.1',
  ], { stdio: 'ignore' }); // prettier-ignore
  const tls = createHttps({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, handle);
  rmSync(dir, { recursive: true, force: true });
  const plain = createHttp(handle);
  const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
  const [tlsPort, plainPort] = await Promise.all([listen(tls), listen(plain)]);
  return {
    httpsUrl: `https://127.0.0.1:${tlsPort}/bridge`,
    url: `http://127.0.0.1:${plainPort}/bridge`,
    posted,
    listeners,
    async close() {
      for (const s of [tls, plain]) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
    },
  };
}
